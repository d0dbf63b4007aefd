import { expect, it } from "vitest";
import * as api from "../src/index.js";
import * as testing from "../src/testing.js";

it("pins the public export names", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "ACP_PLAN_IGNORED",
      "DEFAULT_MAX_OUTPUT_BYTES",
      "DISPATCH_CODES",
      "DISPATCH_ERROR",
      "DISPATCH_STEPS",
      "HANDLER_ABORT_GRACE_MS",
      "JSON_PREVIEW_PREFIX",
      "MAX_DESCRIPTION_BYTES",
      "MAX_IMAGE_BYTES",
      "MAX_POLICY_CACHE_ENTRIES",
      "MAX_RULE_MATCH_BYTES",
      "MAX_SNAPSHOT_CACHE_AGE_MS",
      "MAX_SNAPSHOT_CACHE_BYTES",
      "MAX_SNAPSHOT_CACHE_ENTRIES",
      "REGISTRATION_INVALID",
      "RESULT_CODE_PATTERN",
      "RULE_INVALID",
      "RULE_SHADOWED",
      "SNAPSHOT_STAGING_MAX_AGE_MS",
      "TOOL_API_VERSION",
      "TOOL_ENTRY_PATTERN",
      "TOOL_ID_PATTERN",
      "TOOL_MANIFEST_FIELDS",
      "TOOL_NAME_PATTERN",
      "TOOL_VERSION_PATTERN",
      "ToolManifestSchema",
      "ToolRuleSchema",
      "ToolRulesSchema",
      "capResult",
      "checkManifestPanels",
      "createPolicy",
      "createToolRegistry",
      "defaultSnapshotCacheDir",
      "defineTool",
      "errorResult",
      "isValidConditionSources",
      "isValidToolId",
      "lintRules",
      "loadToolFolder",
      "loadToolFolders",
      "parseRules",
      "parseToolManifest",
      "rawCacheRoot",
      "selectAcpPlan",
      "selectRegistryAcpPlan",
      "sourceDigest",
      "validateToolFolder",
    ]
  `);
});

it("pins the export names of ./testing", () => {
  expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
    [
      "defineRegistryConformance",
    ]
  `);
});
