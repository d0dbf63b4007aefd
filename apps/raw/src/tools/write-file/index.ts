/** The reference `write_file` tool (effects.md §6–§9): handler, `validateArgs` and `describeEffects`. */
export {
  describeWriteFileEffects as describeEffects,
  validateWriteFileArgs as validateArgs,
} from "@raw/effects";
export { handler } from "./handler.js";
