import type { HandlerResult, ToolHandlerContext } from "@raw/tool-api";
import { runOperations, type WriteOperation } from "./operations.js";
import { runPatch } from "./patch.js";

/** The validated arguments of `write_file`: exactly one of `operations` and `patch` (effects.md §6.1). */
export interface WriteFileArgs {
  readonly operations?: readonly WriteOperation[];
  readonly patch?: string;
}

/**
 * The `write_file` handler (effects.md §8): one `json` block `{ results: [...] }` of indexed rows, `isError` when
 * any row is not `ok` (its `code` is then the first such row's `error`), or an error result with
 * `output_budget_too_small`, `invalid_patch` or `patch_preflight_failed`.
 */
export async function handler(args: WriteFileArgs, context: ToolHandlerContext): Promise<HandlerResult> {
  if (typeof args.patch === "string") return runPatch(args.patch, context);
  return runOperations(args.operations ?? [], context);
}
