import { defineSchemaAgreement } from "@raw/test-support/agreement";
import { parseRules, parseToolManifest } from "../src/index.js";

const packageUrl = new URL("..", import.meta.url);

defineSchemaAgreement({
  document: "tool-manifest",
  packageUrl,
  schemaFile: "schemas/tool.schema.json",
  parse: (value) => parseToolManifest(value).ok,
});

defineSchemaAgreement({
  document: "rules",
  packageUrl,
  schemaFile: "schemas/rules.schema.json",
  parse: (value) => parseRules(value).ok,
});
