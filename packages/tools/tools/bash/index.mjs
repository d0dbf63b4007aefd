export { handler, validateArgs } from "../../dist/tools/bash.js";
