import { defineSchemaAgreement } from "@raw/test-support/agreement";
import { safeCompilePredicate } from "../src/index.js";

defineSchemaAgreement({
  document: "predicate",
  packageUrl: new URL("..", import.meta.url),
  schemaFile: "schemas/predicate.schema.json",
  parse: (value) => safeCompilePredicate(value).ok,
});
