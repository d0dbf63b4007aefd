import { createPolicy, type LoadedTool, type ToolRule } from "@raw/tool-api";
import { rankByNearness } from "./nearest.js";

/**
 * The model-facing names of the tools a session exposes (tools the rules hide are left out), nearest to `wanted`
 * first: what `raw call <unknown tool>` lists.
 */
export function availableToolNames(
  tools: readonly LoadedTool[],
  rules: readonly ToolRule[],
  wanted: string,
): string[] {
  const policy = createPolicy([...rules]);
  const names = tools.filter((tool) => !policy.isHidden(tool.identity)).map((tool) => tool.registration.name);
  // `builtin/todo` and `todo` are compared by the name part.
  return rankByNearness(wanted.slice(wanted.lastIndexOf("/") + 1), names);
}
