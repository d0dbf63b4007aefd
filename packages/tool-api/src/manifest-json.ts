// Generated from `ToolManifestSchemaSource` (test/schema-source.ts) by test/manifest-json.test.ts: do not edit;
// change the schema source and run `npm run schemas`.
import type { PanelDeclaration } from "@raw/panel";

/**
 * `tool.json` as written (raw.tool-api/2): the static type of its JSON Schema (`ToolManifestSchema`), for
 * code that writes or reads manifests. `parseToolManifest` is the authority and returns the normalized
 * `ToolManifest`.
 */
export type ToolManifestJson = {
  $schema?: string;
  condition_sources?: ("arguments" | "effects")[];
  effects_schema?: { [keyword: string]: unknown; type: "object" };
  panels?: PanelDeclaration[];
  description: string;
  api_version: 2;
  id: string;
  version: string;
  name: string;
  input_schema: { [keyword: string]: unknown; type: "object" };
  entry: string;
};
