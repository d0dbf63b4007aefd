import type { FileEffect, FilesEffects } from "./files-effects.js";
import { normalizePath } from "./normalize-path.js";
import { parsePatch } from "./parse-patch.js";

/** The second parameter of an effects descriptor: the absolute, normalized session working directory. */
export interface DescribeEffectsContext {
  readonly cwd: string;
}

/**
 * The `describeEffects` of the reference `write_file` tool (effects.md §6.2–6.3). Operations: every `path`
 * normalized against `cwd`, de-duplicated in first-seen order, each a `write`. Patch: parsed in resolved-target
 * mode; Add and Update give `write`, a Move `rename_source` then `rename_destination`, Delete `delete`. Throws the
 * parser's `PatchError` for a bad patch, and a `TypeError` for arguments that have neither form.
 */
export function describeWriteFileEffects(args: unknown, context: DescribeEffectsContext): FilesEffects {
  const cwd = context.cwd;
  const input = (typeof args === "object" && args !== null ? args : {}) as {
    operations?: unknown;
    patch?: unknown;
  };
  const files: FileEffect[] = [];
  if (typeof input.patch === "string") {
    for (const change of parsePatch(input.patch, { cwd })) {
      if (change.kind === "delete") files.push({ path: change.path, operation: "delete" });
      else if (change.destination === undefined) files.push({ path: change.path, operation: "write" });
      else {
        files.push({ path: change.path, operation: "rename_source" });
        files.push({ path: change.destination, operation: "rename_destination" });
      }
    }
    return { files };
  }
  if (Array.isArray(input.operations)) {
    const seen = new Set<string>();
    for (const operation of input.operations) {
      const path = normalizePath(cwd, (operation as { path?: unknown } | null)?.path as string);
      if (seen.has(path)) continue;
      seen.add(path);
      files.push({ path, operation: "write" });
    }
    return { files };
  }
  throw new TypeError("write_file arguments must have operations or patch");
}
