import { dirname } from "node:path";
import { bundledToolFolders } from "@raw/tools";

/**
 * The bundled tool folders' root: the folder of `@raw/tools` that holds them (the parent of every folder of
 * `bundledToolFolders()`, a real path). A tool folder under it is validated as `builtin/<name>`.
 */
export function bundledToolsRoot(): string {
  const [first] = bundledToolFolders();
  if (first === undefined) throw new Error("@raw/tools lists no bundled tool");
  return dirname(first.dir);
}
