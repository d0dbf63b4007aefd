import { choiceOption, parseCommandArgs } from "../support/args.js";
import { mapConcurrent } from "../support/concurrency.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK } from "../support/io.js";
import { type FileReport, formatReports, REPORT_FORMATS } from "../support/report.js";
import { usageOf } from "../support/usage.js";
import { validatePath } from "../support/validate-files.js";

/**
 * `raw validate <path...> [--format text|json|github]`: validates every path in one run (tool folders, hook
 * folders, rules files, panel documents, policy cases) and exits 1 when any has an error.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf("validate");
  const args = parseCommandArgs(argv, { format: { type: "string" } }, usage, { min: 1, max: Infinity });
  const format = choiceOption(args, "format", REPORT_FORMATS, "text", usage);
  const cwd = cwdOf(io);
  // Paths are validated concurrently (their file I/O overlaps); the reports keep the order of the arguments.
  const reports: FileReport[] = (
    await mapConcurrent(args.positionals, 8, (input) => validatePath(input, cwd))
  ).flat();
  io.stdout.write(formatReports(reports, format));
  return reports.every((r) => r.ok) ? EXIT_OK : EXIT_FAILURE;
}
