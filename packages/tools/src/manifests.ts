import { ASK_USER_MANIFEST } from "./ask-user/manifest.js";
import { BASH_MANIFEST } from "./bash/manifest.js";
import { DIAGRAM_MANIFEST } from "./diagram/manifest.js";
import type { BundledToolName } from "./names.js";
import { TODO_MANIFEST } from "./todo/manifest.js";
import { WRITE_FILE_MANIFEST } from "./write-file/manifest.js";

/** One bundled tool: its folder id, the `tool.json` it must hold and the names its entry re-exports. */
export interface BundledTool {
  readonly id: BundledToolName;
  readonly manifest: Readonly<Record<string, unknown>>;
  readonly exports: readonly string[];
}

/**
 * The bundled tools (`tools/<id>/` of this package), in the order of `BUNDLED_TOOL_NAMES`: the TypeScript source of
 * each folder's `tool.json` and `index.mjs` (test/manifests.test.ts checks the folders against it).
 */
export const BUNDLED_TOOLS: readonly BundledTool[] = [
  {
    id: "write_file",
    manifest: WRITE_FILE_MANIFEST,
    exports: ["describeEffects", "handler", "validateArgs"],
  },
  { id: "bash", manifest: BASH_MANIFEST, exports: ["handler", "validateArgs"] },
  { id: "todo", manifest: TODO_MANIFEST, exports: ["handler", "validateArgs"] },
  { id: "ask_user", manifest: ASK_USER_MANIFEST, exports: ["handler", "validateArgs"] },
  { id: "diagram", manifest: DIAGRAM_MANIFEST, exports: ["handler", "validateArgs"] },
];

/** The text of a bundled tool's `tool.json`: two-space JSON and a final newline. */
export function manifestText(tool: BundledTool): string {
  return `${JSON.stringify(tool.manifest, null, 2)}\n`;
}

/** The text of a bundled tool's `index.mjs`: a one-line re-export of its built module (names sorted, as biome wants). */
export function entryText(tool: BundledTool): string {
  return `export { ${tool.exports.join(", ")} } from "../../dist/tools/${tool.id}.js";\n`;
}
