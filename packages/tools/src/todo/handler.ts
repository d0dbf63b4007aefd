import { derivePanelSummary } from "@raw/panel";
import type { HandlerResult, ToolHandlerContext } from "@raw/tool-api";
import { panelErrorResult } from "../shared/panels.js";
import { textResult } from "../shared/results.js";
import { TODO_PANEL, TODO_TITLE } from "./constants.js";
import { buildDocument, buildPatches, type TodoArgs } from "./items.js";

/** The update body (without `panel`) for `args` given whether the panel already has a document. */
function updateBody(args: TodoArgs, hasDocument: boolean): Record<string, unknown> {
  if (args.mode === "replace" || !hasDocument) {
    return { op: "replace", document: buildDocument(args.title, args.items ?? []) };
  }
  return { op: "patch", patches: buildPatches(args) };
}

/**
 * The `todo` handler. `replace` publishes a new document; `merge` upserts items by id (and removes `remove` ids)
 * with a `patch` update, or creates the list when the panel has no document yet. With `context.panels` the update
 * is applied at once and the result is one short line `todo updated (revision N): <summary>`; a rejected update
 * is an error result with the panel code. Without it the result holds only a `panel` result block, and the host
 * tells the model the outcome.
 */
export async function handler(args: TodoArgs, context: ToolHandlerContext): Promise<HandlerResult> {
  const panels = context.panels;
  if (panels === undefined) {
    return { isError: false, content: [{ type: "panel", panel: TODO_PANEL, ...updateBody(args, true) }] };
  }
  let revision: number;
  try {
    ({ revision } = await panels.update(TODO_PANEL, updateBody(args, panels.get(TODO_PANEL) !== undefined)));
  } catch (error) {
    return panelErrorResult(error);
  }
  const document = panels.get(TODO_PANEL)?.document;
  const summary = document === undefined ? "" : derivePanelSummary(document as never, TODO_TITLE);
  return textResult(`todo updated (revision ${revision})${summary === "" ? "" : `: ${summary}`}`);
}
