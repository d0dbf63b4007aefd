export { handler, validateArgs } from "../../dist/tools/todo.js";
