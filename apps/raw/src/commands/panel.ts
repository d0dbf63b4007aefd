import { basename, extname, resolve } from "node:path";
import { type PanelDocument, validatePanelDocument } from "@raw/panel";
import { type RenderablePanel, renderPanelsText } from "@raw/panel/host";
import {
  displayPath,
  formatReports,
  formatText,
  locate,
  placeIssue,
  type ReportFormat,
  readJsonFile,
  validateJsonFile,
} from "@raw/validate";
import { parseCommand, stringOption } from "../support/args.js";
import { CliFailure, type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK } from "../support/io.js";

/** `raw panel render <file...> [--title t] [--select id]` and `raw panel validate <file> [--format text|json|github]`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("panel", argv);
  const cwd = cwdOf(io);
  if (args.sub === "validate") {
    const format = stringOption(args, "format") as ReportFormat;
    const report = await validateJsonFile(resolve(cwd, args.positionals[0] as string), cwd, "panel-document");
    io.stdout.write(formatReports([report], format));
    return report.ok ? EXIT_OK : EXIT_FAILURE;
  }
  // raw panel render
  const title = stringOption(args, "title");
  const panels: RenderablePanel[] = [];
  for (const given of args.positionals) {
    const path = resolve(cwd, given);
    const file = displayPath(path, cwd);
    const read = await readJsonFile(path, file);
    const checked = read.ok ? validatePanelDocument(read.value) : undefined;
    if (!read.ok || checked === undefined || !checked.ok) {
      const issues = !read.ok
        ? [locate({ code: read.code, message: read.detail }, read.position)]
        : (checked && !checked.ok ? checked.issues : []).map((issue) => placeIssue(issue, read.source));
      io.stderr.write(formatText([{ file, kind: "panel-document", ok: false, issues, warnings: [] }]));
      return EXIT_FAILURE;
    }
    const name = basename(path, extname(path));
    panels.push({
      fullId: file,
      id: name,
      declaration: { title: (args.positionals.length === 1 ? title : undefined) ?? name },
      document: checked.document as PanelDocument,
      closed: false,
    });
  }
  // Several files render as several panels (`panels.md` §14.3): a full id is the file's path, a local id its name.
  const select = stringOption(args, "select");
  const rendered = renderPanelsText(panels, select === undefined ? {} : { select });
  if (!rendered.ok) throw new CliFailure(rendered.code, rendered.message);
  io.stdout.write(`${rendered.text}\n`);
  return EXIT_OK;
}
