export { handler, validateArgs } from "../../dist/tools/diagram.js";
