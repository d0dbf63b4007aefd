import type { HandlerResult, ToolHandlerContext } from "@raw/tool-api";
import { panelErrorResult } from "../shared/panels.js";
import { textResult } from "../shared/results.js";
import { type DiagramArgs, diagramDocument, diagramPanel } from "./document.js";

/**
 * The `diagram` handler: publishes one `mermaid` block on the chat panel `chat_diagram` (default) or the sidebar
 * panel `diagram`. With `context.panels` the result is one line `diagram published on <panel> (revision N)` (a
 * rejected update is an error result with the panel code); without it the result holds only a `panel` result
 * block.
 */
export async function handler(args: DiagramArgs, context: ToolHandlerContext): Promise<HandlerResult> {
  const panel = diagramPanel(args);
  const body = { op: "replace", document: diagramDocument(args) };
  if (context.panels === undefined) return { isError: false, content: [{ type: "panel", panel, ...body }] };
  try {
    const { revision } = await context.panels.update(panel, body);
    return textResult(`diagram published on ${panel} (revision ${revision})`);
  } catch (error) {
    return panelErrorResult(error);
  }
}
