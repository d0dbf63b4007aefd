export { type BundledToolFolder, bundledToolFolders } from "./folders.js";
export { BUNDLED_TOOL_NAMES, type BundledToolName } from "./names.js";
