import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundledToolFolders } from "@raw/tools";

let root: string | undefined;

/** The `@raw/cli` package folder (found from this module: `dist/` when built, `src/support/` in tests). */
export function cliRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "@raw/cli") {
          root = dir;
          return dir;
        }
      } catch {
        // Not ours; keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find the @raw/cli package folder");
    dir = parent;
  }
}

/**
 * The bundled tool folders' root: the folder of `@raw/tools` that holds them (the parent of every folder of
 * `bundledToolFolders()`, a real path).
 */
export function bundledToolsRoot(): string {
  const [first] = bundledToolFolders();
  if (first === undefined) throw new Error("@raw/tools lists no bundled tool");
  return dirname(first.dir);
}

/** The bundled hook folders' root: `hooks/` of the package. */
export function bundledHooksRoot(): string {
  return join(cliRoot(), "hooks");
}

/** The shipped examples (the demo's rules): `examples/` of the package. */
export function examplesRoot(): string {
  return join(cliRoot(), "examples");
}

/** The CLI's own JSON Schemas (`schemas/cases.schema.json`). */
export function cliSchemasRoot(): string {
  return join(cliRoot(), "schemas");
}

/** The version of `@raw/cli`. */
export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(join(cliRoot(), "package.json"), "utf8")) as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "0.0.0";
}
