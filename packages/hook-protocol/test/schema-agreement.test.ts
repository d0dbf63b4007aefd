import { defineSchemaAgreement } from "@raw/test-support/agreement";
import { parseHookManifest } from "../src/index.js";

defineSchemaAgreement({
  document: "hook-manifest",
  packageUrl: new URL("..", import.meta.url),
  schemaFile: "schemas/hook.schema.json",
  parse: (value) => parseHookManifest(value).ok,
});
