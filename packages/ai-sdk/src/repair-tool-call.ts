import { InvalidToolInputError, NoSuchToolError, type ToolCallRepairFunction, type ToolSet } from "ai";
import { AI_SDK_CODES } from "./codes.js";
import { RawToolCallError } from "./errors.js";

/** Longest tool name repeated in an error the model reads (characters); a longer one is cut and marked. */
export const MAX_REPAIR_TOOL_NAME_CHARS = 128;

function shown(name: string): string {
  return name.length <= MAX_REPAIR_TOOL_NAME_CHARS
    ? JSON.stringify(name)
    : `${JSON.stringify(name.slice(0, MAX_REPAIR_TOOL_NAME_CHARS))}… (${name.length - MAX_REPAIR_TOOL_NAME_CHARS} more characters)`;
}

/**
 * A `repairToolCall` (`experimental_repairToolCall`) for `generateText`, `streamText` and agents that never repairs:
 * it gives the model Raw's code for a call the tool set of `toAiSdkTools` cannot take. A tool that is not in the set
 * (unknown, hidden by the rules, outside the whitelist: the model is not told which) gets `unknown_tool`, as
 * `rawToolApproval` answers; arguments that are not JSON get `invalid_arguments`. Nothing is dispatched.
 *
 * `ai` 7 reports a throwing repair as `ToolCallRepairError` and gives the model its string form, so the model reads
 * `AI_ToolCallRepairError: Error repairing tool call: unknown_tool: ...`: the SDK's prefix cannot be removed.
 * Without this option the model reads the SDK's own `Model tried to call unavailable tool '<name>'. Available
 * tools: ...` and no Raw code.
 */
export function rawRepairToolCall(): ToolCallRepairFunction<ToolSet> {
  return async ({ toolCall, error }) => {
    const name = toolCall.toolName;
    if (InvalidToolInputError.isInstance(error) && !NoSuchToolError.isInstance(error)) {
      throw new RawToolCallError(
        "invalid_arguments",
        `the arguments of ${shown(name)} are not a JSON object`,
      );
    }
    throw new RawToolCallError(AI_SDK_CODES.unknownTool, `no tool named ${shown(name)} is available`);
  };
}
