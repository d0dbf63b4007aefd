/** The bundled `diagram` tool: publishes a Mermaid diagram on a chat or sidebar panel. */
export { handler } from "./handler.js";
export { validateArgs } from "./validate-args.js";
