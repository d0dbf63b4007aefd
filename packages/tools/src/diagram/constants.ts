/** The local id of the sidebar diagram panel. */
export const SIDEBAR_DIAGRAM_PANEL = "diagram";

/** The local id of the chat diagram panel (a fresh view per call). */
export const CHAT_DIAGRAM_PANEL = "chat_diagram";

/** The id of the mermaid block. */
export const DIAGRAM_BLOCK = "diagram";

/** Largest Mermaid source, in UTF-8 bytes (`panels.md` §12). */
export const MAX_DIAGRAM_SOURCE_BYTES = 16_384;
