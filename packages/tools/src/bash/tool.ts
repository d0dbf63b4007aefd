import { defineTool } from "@raw/tool-api";
import { handler } from "./handler.js";
import { BASH_INPUT_SCHEMA } from "./manifest.js";
import { validateArgs } from "./validate-args.js";

/** The `bash` tool as authored: its handler and `validateArgs` typed by its input schema (`defineTool`). */
export const BASH_TOOL = defineTool({ inputSchema: BASH_INPUT_SCHEMA, validateArgs, handler });
