import { defineTool } from "@raw/tool-api";
import { handler } from "./handler.js";
import { DIAGRAM_INPUT_SCHEMA } from "./manifest.js";
import { validateArgs } from "./validate-args.js";

/** The `diagram` tool as authored: its handler and `validateArgs` typed by its input schema (`defineTool`). */
export const DIAGRAM_TOOL = defineTool({ inputSchema: DIAGRAM_INPUT_SCHEMA, validateArgs, handler });
