import { basename, extname, resolve } from "node:path";
import { type PanelDocument, renderPanelText, validatePanelDocument } from "@raw/panel";
import { choiceOption, parseCommandArgs, stringOption } from "../support/args.js";
import { displayPath, readJsonFile } from "../support/files.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK, UsageError } from "../support/io.js";
import { formatReports, formatText, locate, REPORT_FORMATS } from "../support/report.js";
import { usageOf } from "../support/usage.js";
import { validateJsonFile } from "../support/validate-files.js";

/** `raw panel render <file> [--title t]` and `raw panel validate <file> [--format text|json|github]`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf("panel");
  const [sub, ...rest] = argv;
  const cwd = cwdOf(io);
  if (sub === "validate") {
    const args = parseCommandArgs(rest, { format: { type: "string" } }, usage, { min: 1, max: 1 });
    const format = choiceOption(args, "format", REPORT_FORMATS, "text", usage);
    const report = await validateJsonFile(resolve(cwd, args.positionals[0] as string), cwd, "panel-document");
    io.stdout.write(formatReports([report], format));
    return report.ok ? EXIT_OK : EXIT_FAILURE;
  }
  if (sub === "render") {
    const args = parseCommandArgs(rest, { title: { type: "string" } }, usage, { min: 1, max: 1 });
    const path = resolve(cwd, args.positionals[0] as string);
    const file = displayPath(path, cwd);
    const read = await readJsonFile(path, file);
    const checked = read.ok ? validatePanelDocument(read.value) : undefined;
    if (!read.ok || checked === undefined || !checked.ok) {
      const issues = !read.ok
        ? [locate({ code: read.code, message: read.detail }, read.position)]
        : (checked && !checked.ok ? checked.issues : []).map((issue) =>
            locate(issue, issue.path === undefined ? undefined : read.source.positionOf(issue.path)),
          );
      io.stderr.write(formatText([{ file, kind: "panel-document", ok: false, issues, warnings: [] }]));
      return EXIT_FAILURE;
    }
    const title = stringOption(args, "title") ?? basename(path, extname(path));
    io.stdout.write(`${renderPanelText(title, checked.document as PanelDocument)}\n`);
    return EXIT_OK;
  }
  throw new UsageError(
    sub === undefined
      ? "missing subcommand (render or validate)"
      : `unknown subcommand ${JSON.stringify(sub)}`,
    usage,
  );
}
