import type { DispatchStepName } from "./types.js";

/** One step of the dispatch pipeline (tool-api.md §7.2): its number and its name in `DispatchStepEvent`s. */
export interface DispatchStep {
  readonly number: number;
  readonly name: DispatchStepName;
}

/** The fourteen steps of tool-api.md §7.2, in order. */
export const DISPATCH_STEPS: readonly DispatchStep[] = Object.freeze(
  (
    [
      "exposure",
      "visibility",
      "validation",
      "abort_check",
      "snapshot",
      "effects",
      "policy",
      "abort_check",
      "pre_tool_use",
      "approval",
      "handler",
      "settle",
      "notify",
      "cap",
    ] as const
  ).map((name, i) => Object.freeze({ number: i + 1, name })),
);

/** A result code that dispatch itself produces (tool-api.md §7.3 and §8.2). */
export type DispatchCode =
  | "tool_not_exposed"
  | "tool_denied"
  | "invalid_arguments"
  | "aborted"
  | "invalid_effects"
  | "effects_error"
  | "hook_denied"
  | "hook_error"
  | "approval_required"
  | "approval_error"
  | "approval_expired"
  | "approval_denied"
  | "tool_error"
  | "image_too_large"
  | "output_budget_too_small";

/** Where a dispatch code is produced and its message as the spec writes it (`<name>` and the like are filled in). */
export interface DispatchCodeEntry {
  /** The step numbers of tool-api.md §7.2 that produce the code. */
  readonly steps: readonly number[];
  /** The message template of the spec's table. */
  readonly message: string;
}

function entry(steps: readonly number[], message: string): DispatchCodeEntry {
  return Object.freeze({ steps: Object.freeze([...steps]), message });
}

/**
 * Every result code dispatch produces, with the steps that produce it (the "produced at" column of tool-api.md
 * §7.3; `output_budget_too_small` is §8.2, applied when capping). Hosts read a call's steps from
 * `DispatchContext.onStep` events; this table is what the conformance suite and documentation are keyed on.
 */
export const DISPATCH_CODES: Readonly<Record<DispatchCode, DispatchCodeEntry>> = Object.freeze({
  tool_not_exposed: entry([1], "tool unavailable: <name>"),
  tool_denied: entry([2], "tool denied: <identity>"),
  invalid_arguments: entry([3, 5], "§3.5, §4.2, or arguments must be plain JSON data"),
  aborted: entry([4, 8, 9, 10, 11], "tool call aborted"),
  invalid_effects: entry([6], "effects.md §4"),
  effects_error: entry([6], "cannot describe <name>: <message>"),
  hook_denied: entry([9], "the hook's reason, or hook denied"),
  hook_error: entry([9], "the hook's reason, hook error, or hook error: <message>"),
  approval_required: entry([10], "approval required for <name>"),
  approval_error: entry([10], "approval failed: <message>"),
  approval_expired: entry([10], "approval expired for <name>"),
  approval_denied: entry([10], "approval denied for <name>"),
  tool_error: entry([11], "<name> failed: <message> or <name> returned an invalid result"),
  image_too_large: entry([14], "tool images exceed 16 MiB"),
  output_budget_too_small: entry([14], "batch status exceeds output budget"),
});
