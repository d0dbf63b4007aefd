import { expect, it } from "vitest";
import * as api from "../src/index.js";
import * as testing from "../src/testing.js";

it("pins the public export names", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "ACP_PLAN_IGNORED",
      "DEFAULT_MAX_OUTPUT_BYTES",
      "DISPATCH_ERROR",
      "HANDLER_ABORT_GRACE_MS",
      "JSON_PREVIEW_PREFIX",
      "MAX_DESCRIPTION_BYTES",
      "MAX_IMAGE_BYTES",
      "MAX_POLICY_CACHE_ENTRIES",
      "MAX_RULE_MATCH_BYTES",
      "REGISTRATION_INVALID",
      "RULE_INVALID",
      "RULE_SHADOWED",
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
      "errorResult",
      "isValidConditionSources",
      "isValidToolId",
      "lintRules",
      "loadToolFolder",
      "loadToolFolders",
      "parseRules",
      "parseToolManifest",
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
