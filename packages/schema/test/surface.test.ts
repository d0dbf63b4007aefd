import { expect, it } from "vitest";
import * as api from "../src/index.js";

it("pins the public export names", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "CONTRACT_SCHEMA_DIALECT",
      "ContractError",
      "DISPLAY_ESCAPED_RANGES",
      "MAX_SCHEMA_FINDINGS",
      "MAX_SCHEMA_WALK_NODES",
      "SCHEMA_ID_BASE",
      "SCHEMA_VIOLATION",
      "codePoints",
      "compileContractSchema",
      "compileObjectSchema",
      "deepFreeze",
      "detectDialect",
      "escapeDisplayText",
      "escapePointerToken",
      "formatByteCount",
      "formatValidationIssues",
      "freezeJsonTree",
      "isContractError",
      "isObjectRecord",
      "isPlainObject",
      "issuesFromAjv",
      "nearestName",
      "parsePointer",
      "pointer",
      "safeCompileObjectSchema",
      "serializeJsonSchema",
      "shortenDisplayText",
      "snapshotJson",
      "stringifyForDisplay",
      "thrownMessage",
      "truncateUtf8",
      "unescapePointerToken",
      "utf8Bytes",
      "validateWith",
    ]
  `);
});
