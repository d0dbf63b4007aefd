// Generated from `HookManifestSchemaSource` (test/schema-source.ts) by test/manifest-json.test.ts: do not edit;
// change the schema source and run `npm run schemas`.
import type { PredicateJson } from "@raw/predicate";

/**
 * `hook.json` as written (raw.hook/2): the static type of its JSON Schema (`HookManifestSchema`), for code
 * that writes or reads manifests. `parseHookManifest` is the authority and returns the parsed `HookManifest`.
 */
export type HookManifestJson = {
  $schema?: string;
  args?: string[];
  timeout_ms?: number;
  protocol_version: 2;
  name: string;
  events: (
    | { match?: string; when?: PredicateJson; name: "PreToolUse" | "PostToolUse" | "PostToolUseFailure" }
    | { name: "SessionStart" | "UserPromptSubmit" | "Stop" | "SessionEnd" }
  )[];
  command: string;
};
