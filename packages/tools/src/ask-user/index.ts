/** The reference `ask_user` tool (`panels.md` §13.8): asks the user 1–3 questions in a chat form. */
import { ASK_USER_TOOL } from "./tool.js";

/** The `ask_user` handler (`ASK_USER_TOOL.handler`). */
export const handler = ASK_USER_TOOL.handler;
/** `validateArgs` of `ask_user` (`ASK_USER_TOOL.validateArgs`): the checks its input schema cannot express. */
export const validateArgs = ASK_USER_TOOL.validateArgs;
