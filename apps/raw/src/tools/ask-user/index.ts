/** The reference `ask_user` tool (`panels.md` §13.8): asks the user 1–3 questions in a chat form. */
export { handler } from "./handler.js";
export { validateArgs } from "./validate-args.js";
