import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLED_TOOL_NAMES, type BundledToolName } from "./names.js";

/** One bundled tool folder, as `loadToolFolders` of `@raw/tool-api` takes it (a `ToolSelection`). */
export interface BundledToolFolder {
  /** The tool's name: its folder name, and its `id` and `name` in `tool.json`. */
  readonly name: BundledToolName;
  /** Its builtin identity, `builtin/<name>` (tool-api.md §9.4). */
  readonly identity: `builtin/${BundledToolName}`;
  /** The folder (absolute, its real path): `tool.json` and the entry `index.mjs`. */
  readonly dir: string;
}

/**
 * The bundled tool folders, in the order of `BUNDLED_TOOL_NAMES`: `tools/<name>/` of this package, found from this
 * module's own file (`dist/index.js`, `dist/index.cjs` or, in the repository's tests, `src/folders.ts`), so they are
 * found wherever the package is installed, through links too (each `dir` is a real path). Pass them to
 * `loadToolFolders` to load them as builtin tools. Throws when the package's `tools/` folder is missing (an install
 * that dropped it).
 */
export function bundledToolFolders(): BundledToolFolder[] {
  const root = fileURLToPath(new URL("../tools/", import.meta.url));
  return BUNDLED_TOOL_NAMES.map((name) => ({
    name,
    identity: `builtin/${name}` as const,
    dir: realpathSync.native(join(root, name)),
  }));
}
