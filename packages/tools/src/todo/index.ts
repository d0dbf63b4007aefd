/** The bundled `todo` tool: a checklist on the `todo` sidebar panel. */
import { TODO_TOOL } from "./tool.js";

/** The `todo` handler (`TODO_TOOL.handler`). */
export const handler = TODO_TOOL.handler;
/** `validateArgs` of `todo` (`TODO_TOOL.validateArgs`): the checks its input schema cannot express. */
export const validateArgs = TODO_TOOL.validateArgs;
