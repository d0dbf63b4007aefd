import {
  createSchemaBudgetChecker as createHostSchemaBudgetChecker,
  type SchemaBudgetChecker,
} from "@raw/host";
import { MCP_CODES } from "./codes.js";
import { MCP_SCHEMA_COMPILE_BUDGET_MS } from "./limits.js";

export { SCHEMA_WORKER_START_TIMEOUT_MS, type SchemaBudgetChecker, type SchemaCheck } from "@raw/host";

/**
 * `@raw/host`'s schema budget checker with MCP's budget and code: a compile past `budgetMs`
 * (`MCP_SCHEMA_COMPILE_BUDGET_MS` by default) answers `mcp_schema_budget_exceeded`.
 */
export function createSchemaBudgetChecker(budgetMs = MCP_SCHEMA_COMPILE_BUDGET_MS): SchemaBudgetChecker {
  return createHostSchemaBudgetChecker(budgetMs, { code: MCP_CODES.schemaBudgetExceeded });
}
