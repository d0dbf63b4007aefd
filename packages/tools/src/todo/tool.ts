import { defineTool } from "@raw/tool-api";
import { handler } from "./handler.js";
import { TODO_INPUT_SCHEMA } from "./manifest.js";
import { validateArgs } from "./validate-args.js";

/** The `todo` tool as authored: its handler and `validateArgs` typed by its input schema (`defineTool`). */
export const TODO_TOOL = defineTool({ inputSchema: TODO_INPUT_SCHEMA, validateArgs, handler });
