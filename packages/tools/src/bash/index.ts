/** The bundled `bash` tool: runs shell commands in order, each as the leader of a new session that is swept when it ends. */
import { BASH_TOOL } from "./tool.js";

/** The `bash` handler (`BASH_TOOL.handler`). */
export const handler = BASH_TOOL.handler;
/** `validateArgs` of `bash` (`BASH_TOOL.validateArgs`): the checks its input schema cannot express. */
export const validateArgs = BASH_TOOL.validateArgs;
