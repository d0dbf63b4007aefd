/** The bundled `bash` tool: runs shell commands in order, each as the leader of a new session that is swept when it ends. */
export { handler } from "./handler.js";
export { validateArgs } from "./validate-args.js";
