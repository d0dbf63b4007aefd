import { thrownMessage } from "@raw/schema";
import {
  abortCheck,
  approval,
  CallState,
  type CwdMemo,
  cap,
  type DispatchSettings,
  effectiveBudget,
  effects,
  exposure,
  handler,
  notify,
  policy,
  preToolUse,
  type RegisteredTool,
  settle,
  snapshot,
  takeSnapshot,
  validation,
  visibility,
} from "./dispatch-steps.js";
import { DEFAULT_MAX_OUTPUT_BYTES } from "./limits.js";
import { capInto, errorResult } from "./results.js";
import type { DispatchContext, ToolCall, ToolResult } from "./types.js";

export type { CwdMemo, DispatchSettings, RegisteredTool } from "./dispatch-steps.js";

/** Code of the error result for an unexpected internal failure of dispatch (never a contract failure). */
export const DISPATCH_ERROR = "dispatch_error";

const NO_CONTEXT: DispatchContext = Object.freeze({ cwd: "" });

/**
 * Runs one call through the pipeline of tool-api.md §7.2. The spine reads like the spec's table: each step is a
 * named function over one `CallState` (`dispatch-steps.ts`) that returns `undefined` to continue or the result
 * that ends the call; only the gate, approval, the handler and the notification may await. Never throws: an
 * unexpected internal failure becomes a capped `dispatch_error` result.
 */
export async function dispatchCall(
  tools: ReadonlyMap<string, RegisteredTool>,
  settings: DispatchSettings,
  call: ToolCall,
  context: DispatchContext,
  cwdMemo: CwdMemo = {},
): Promise<ToolResult> {
  let budget = DEFAULT_MAX_OUTPUT_BYTES;
  try {
    const ctx = typeof context === "object" && context !== null ? context : NO_CONTEXT;
    budget = effectiveBudget(ctx, settings);
    const tool = exposure(tools, call, ctx, budget); //                    1
    if (!isRegistered(tool)) return tool;
    const s = new CallState(tool, call, ctx, settings, budget, cwdMemo);
    budget = s.cap;
    const early =
      visibility(s) ?? //                                                  2
      takeSnapshot(s) ?? //                                                5 (read first, A6; never ends the call)
      validation(s) ?? //                                                  3
      abortCheck(s, 4) ?? //                                               4
      snapshot(s) ?? //                                                    5
      effects(s); //                                                       6
    if (early !== undefined) return early;
    policy(s); //                                                          7
    let stopped = abortCheck(s, 8); //                                     8
    if (stopped !== undefined) return stopped;
    let step = preToolUse(s); //                                           9
    stopped = step instanceof Promise ? await step : step;
    if (stopped !== undefined) return stopped;
    step = approval(s); //                                                10
    stopped = step instanceof Promise ? await step : step;
    if (stopped !== undefined) return stopped;
    step = handler(s); //                                                 11
    stopped = step instanceof Promise ? await step : step;
    if (stopped !== undefined) return stopped;
    settle(s); //                                                         12
    const sent = notify(s); //                                            13
    if (sent !== undefined) await sent;
    return cap(s); //                                                     14
  } catch (error) {
    return capInto(
      errorResult(DISPATCH_ERROR, `tool dispatch failed: ${thrownMessage(error)}`),
      budget,
      true,
    );
  }
}

function isRegistered(value: RegisteredTool | ToolResult): value is RegisteredTool {
  return "plan" in value;
}
