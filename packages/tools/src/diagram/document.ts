import type { ToolInput } from "@raw/tool-api";
import { CHAT_DIAGRAM_PANEL, DIAGRAM_BLOCK, SIDEBAR_DIAGRAM_PANEL } from "./constants.js";
import type { DIAGRAM_INPUT_SCHEMA } from "./manifest.js";

/** The arguments of `diagram`, as its input schema guarantees them (`placement`: `chat`, the default, or `sidebar`). */
export type DiagramArgs = ToolInput<typeof DIAGRAM_INPUT_SCHEMA>;

/** The panel a call publishes on. */
export function diagramPanel(args: DiagramArgs): string {
  return args.placement === "sidebar" ? SIDEBAR_DIAGRAM_PANEL : CHAT_DIAGRAM_PANEL;
}

/** The document: `{ title?, blocks: [{ id: "diagram", kind: "mermaid", source }] }`. */
export function diagramDocument(args: DiagramArgs): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  if (args.title !== undefined) document.title = args.title;
  document.blocks = [{ id: DIAGRAM_BLOCK, kind: "mermaid", source: args.source }];
  return document;
}
