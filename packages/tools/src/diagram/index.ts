/** The bundled `diagram` tool: publishes a Mermaid diagram on a chat or sidebar panel. */
import { DIAGRAM_TOOL } from "./tool.js";

/** The `diagram` handler (`DIAGRAM_TOOL.handler`). */
export const handler = DIAGRAM_TOOL.handler;
/** `validateArgs` of `diagram` (`DIAGRAM_TOOL.validateArgs`): the checks its input schema cannot express. */
export const validateArgs = DIAGRAM_TOOL.validateArgs;
