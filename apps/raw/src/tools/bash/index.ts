/** The bundled `bash` tool: runs shell commands in order, each in its own process group. */
export { handler } from "./handler.js";
export { validateArgs } from "./validate-args.js";
