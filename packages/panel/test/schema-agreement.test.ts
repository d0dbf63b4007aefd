import { defineSchemaAgreement } from "@raw/test-support/agreement";
import { validatePanelDocument } from "../src/index.js";

defineSchemaAgreement({
  document: "panel-document",
  packageUrl: new URL("..", import.meta.url),
  schemaFile: "schemas/panel-document.schema.json",
  parse: (value) => validatePanelDocument(value).ok,
});
