import { ENTRY_IMPORT_TIMEOUT_MS, formatReport, type ReportFormat, validatePaths } from "@raw/validate";
import { parseCommand, stringOption } from "../support/args.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK, UsageError } from "../support/io.js";

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
 * `raw validate <path...> [--format text|json|github] [--timeout <ms>]`: `validatePaths` of `@raw/validate` over
 * the paths (tool folders, hook folders, rules files, panel documents, policy cases; entries imported in a child
 * process, never in this one), the report written in the format, exit 1 when any file has an error.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("validate", argv);
  const format = stringOption(args, "format") as ReportFormat;
  const timeoutMs = timeoutOption(stringOption(args, "timeout"), args.usage);
  const report = await validatePaths(args.positionals, { cwd: cwdOf(io), timeoutMs });
  io.stdout.write(formatReport(report, format));
  return report.ok ? EXIT_OK : EXIT_FAILURE;
}
