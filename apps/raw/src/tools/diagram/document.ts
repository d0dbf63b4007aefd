import { CHAT_DIAGRAM_PANEL, DIAGRAM_BLOCK, SIDEBAR_DIAGRAM_PANEL } from "./constants.js";

/** The arguments of `diagram`. */
export interface DiagramArgs {
  readonly source: string;
  readonly title?: string;
  /** `chat` (default) or `sidebar`. */
  readonly placement?: "chat" | "sidebar";
}

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
