import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { EntryImportPool } from "./entry-child.js";
import type { FileReport } from "./report.js";
import { ValidateSnapshots } from "./validate-snapshots.js";

/** How many paths are validated at the same time (their file I/O overlaps); reports keep the order of the paths. */
export const MAX_CONCURRENT_PATHS = 8;

/** How many paths name a tool folder (or its `tool.json`): how many entries will probably be imported. */
function toolPathCount(paths: readonly string[], cwd: string): number {
  let count = 0;
  for (const input of paths) {
    const path = resolve(cwd, input);
    if (basename(path) === "tool.json" || existsSync(join(path, "tool.json"))) count++;
  }
  return count;
}

/** The settled options of one run (checked by `validatePaths`). */
export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * Validates every path in one run (tool folders, hook folders, rules files, panel documents, policy cases) and
 * returns one report per file, in the order of the paths. Tool entries are imported for the export checks in a child
 * process (`EntryImportPool`), in the order of the paths, never in this process; a tool name, tool id or hook name
 * declared by two of the folders is an error in both (`checkAcrossFolders`). An abort ends the child processes.
 */
export async function runValidation(paths: readonly string[], options: RunOptions): Promise<FileReport[]> {
  const { cwd, timeoutMs, signal } = options;
  // The child processes start now, while this process loads the validators and reads the folders.
  const pool = new EntryImportPool(toolPathCount(paths, cwd), cwd, timeoutMs);
  // Entries are imported from copies in Raw's cache, kept for the next run and cleaned to their bounds at the end.
  const snapshots = new ValidateSnapshots();
  const abort = () => pool.close();
  signal?.addEventListener("abort", abort, { once: true });
  try {
    // The validators (Ajv and the contract packages) load while the child processes start.
    const [{ mapConcurrent }, { checkAcrossFolders, validatePath }, { suggestFolderGlob }] =
      await Promise.all([
        import("./concurrency.js"),
        import("./validate-files.js"),
        import("./folder-glob.js"),
      ]);
    const reports: FileReport[] = (
      await mapConcurrent(
        paths.map((input, order) => ({ input, order })),
        MAX_CONCURRENT_PATHS,
        async ({ input, order }) => {
          try {
            signal?.throwIfAborted();
            const found = await validatePath(input, cwd, {
              importEntry: pool.importerFor(order),
              snapshotDir: snapshots.dir,
              hookSnapshotDir: snapshots.hookDir,
            });
            return suggestFolderGlob(found, input, cwd);
          } finally {
            // Entries are imported in the order of the paths: the next one may go.
            pool.finish(order);
          }
        },
      )
    ).flat();
    signal?.throwIfAborted();
    // Names and ids must be unique across the folders of one run: they load together.
    checkAcrossFolders(reports);
    return reports;
  } finally {
    signal?.removeEventListener("abort", abort);
    pool.close();
    await snapshots.clean();
  }
}
