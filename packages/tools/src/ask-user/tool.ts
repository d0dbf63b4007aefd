import { defineTool } from "@raw/tool-api";
import { handler } from "./handler.js";
import { ASK_USER_INPUT_SCHEMA } from "./manifest.js";
import { validateArgs } from "./validate-args.js";

/** The `ask_user` tool as authored: its handler and `validateArgs` typed by its input schema (`defineTool`). */
export const ASK_USER_TOOL = defineTool({ inputSchema: ASK_USER_INPUT_SCHEMA, validateArgs, handler });
