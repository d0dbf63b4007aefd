export { describeEffects, handler, validateArgs } from "../../dist/tools/write_file.js";
