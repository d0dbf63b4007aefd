/** The bundled `todo` tool: a checklist on the `todo` sidebar panel. */
export { handler } from "./handler.js";
export { validateArgs } from "./validate-args.js";
