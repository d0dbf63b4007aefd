import { basename, extname, resolve } from "node:path";
import {
  type PanelDocument,
  type RenderablePanel,
  renderPanelsText,
  validatePanelDocument,
} from "@raw/panel";
import { choiceOption, parseCommandArgs, stringOption } from "../support/args.js";
import { displayPath, readJsonFile } from "../support/files.js";
import { CliFailure, type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK, UsageError } from "../support/io.js";
import { formatReports, formatText, locate, REPORT_FORMATS } from "../support/report.js";
import { usageOf } from "../support/usage.js";
import { validateJsonFile } from "../support/validate-files.js";

/** Most documents one `raw panel render` reads. */
const MAX_RENDER_FILES = 64;

/** `raw panel render <file...> [--title t] [--select id]` and `raw panel validate <file> [--format text|json|github]`. */
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
    const args = parseCommandArgs(rest, { title: { type: "string" }, select: { type: "string" } }, usage, {
      min: 1,
      max: MAX_RENDER_FILES,
    });
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
          : (checked && !checked.ok ? checked.issues : []).map((issue) =>
              locate(issue, issue.path === undefined ? undefined : read.source.positionOf(issue.path)),
            );
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
  throw new UsageError(
    sub === undefined
      ? "missing subcommand (render or validate)"
      : `unknown subcommand ${JSON.stringify(sub)}`,
    usage,
  );
}
