import { expect } from "vitest";
import type { ToolResult } from "../../src/index.js";

/** Every code a dispatch result may carry (tool-api.md §7.3 and §8.2). */
export const CONTRACT_CODES: ReadonlySet<string> = new Set([
  "tool_not_exposed",
  "tool_denied",
  "invalid_arguments",
  "aborted",
  "invalid_effects",
  "effects_error",
  "hook_denied",
  "hook_error",
  "approval_required",
  "approval_error",
  "approval_expired",
  "approval_denied",
  "tool_error",
  "image_too_large",
  "output_budget_too_small",
]);

/** A dispatch result is a success without a code, or an error with a code of the contract and one text line. */
export function expectContractResult(result: ToolResult, label: string): void {
  expect(typeof result.isError, label).toBe("boolean");
  expect(Array.isArray(result.content), label).toBe(true);
  if (result.isError) {
    expect(CONTRACT_CODES.has(result.code as string), `${label}: code ${String(result.code)}`).toBe(true);
  } else {
    expect(result.code, label).toBeUndefined();
  }
}
