import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseCommand, stringOption } from "../support/args.js";
import { ENTRY_IMPORT_TIMEOUT_MS, EntryImportPool } from "../support/entry-child.js";
import { suggestFolderGlob } from "../support/folder-glob.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK, UsageError } from "../support/io.js";
import type { FileReport, ReportFormat } from "../support/report.js";
import { ValidateSnapshots } from "../support/validate-snapshots.js";

/** How many paths name a tool folder (or its `tool.json`): how many entries will probably be imported. */
function toolPathCount(paths: readonly string[], cwd: string): number {
  let count = 0;
  for (const input of paths) {
    const path = resolve(cwd, input);
    if (basename(path) === "tool.json" || existsSync(join(path, "tool.json"))) count++;
  }
  return count;
}

/** `--timeout <ms>`: a positive whole number of milliseconds. */
function timeoutOption(value: string | undefined, usage: string): number {
  if (value === undefined) return ENTRY_IMPORT_TIMEOUT_MS;
  const ms = Number(value);
  if (!/^[1-9][0-9]{0,8}$/.test(value) || !Number.isSafeInteger(ms)) {
    throw new UsageError(
      `--timeout must be a whole number of milliseconds, got ${JSON.stringify(value)}`,
      usage,
    );
  }
  return ms;
}

/**
 * `raw validate <path...> [--format text|json|github] [--timeout <ms>]`: validates every path in one run (tool
 * folders, hook folders, rules files, panel documents, policy cases) and exits 1 when any has an error. Tool entries
 * are imported for the export checks in a child process (`EntryImportPool`), in the order of the paths, never in this
 * process.
 * A tool name, tool id or hook name declared by two of the folders is an error in both (`checkAcrossFolders`).
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("validate", argv);
  const format = stringOption(args, "format") as ReportFormat;
  const timeoutMs = timeoutOption(stringOption(args, "timeout"), args.usage);
  const cwd = cwdOf(io);
  // The child processes start now, while this process loads the validators and reads the folders.
  const pool = new EntryImportPool(toolPathCount(args.positionals, cwd), cwd, timeoutMs);
  // Entries are imported from copies in Raw's cache, kept for the next run and cleaned to their bounds at the end.
  const snapshots = new ValidateSnapshots();
  try {
    // The validators (Ajv and the contract packages) load while the child processes start.
    const [{ mapConcurrent }, { checkAcrossFolders, validatePath }, { formatReports }] = await Promise.all([
      import("../support/concurrency.js"),
      import("../support/validate-files.js"),
      import("../support/report.js"),
    ]);
    // Paths are validated concurrently (their file I/O overlaps); the reports keep the order of the arguments.
    const reports: FileReport[] = (
      await mapConcurrent(
        args.positionals.map((input, order) => ({ input, order })),
        8,
        async ({ input, order }) => {
          try {
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
    // Names and ids must be unique across the folders of one run: they load together.
    checkAcrossFolders(reports);
    io.stdout.write(formatReports(reports, format));
    return reports.every((r) => r.ok) ? EXIT_OK : EXIT_FAILURE;
  } finally {
    pool.close();
    await snapshots.clean();
  }
}
