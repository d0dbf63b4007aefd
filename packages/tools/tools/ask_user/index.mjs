export { handler, validateArgs } from "../../dist/tools/ask_user.js";
