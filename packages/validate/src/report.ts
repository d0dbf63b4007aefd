import { escapeDisplayText, stringifyForDisplay } from "@raw/schema";
import type { SourcePosition } from "./json-source.js";

/** An untrusted single-line item (a path, a name, a code, a message) as one screen line (amendment A1). */
function displayLine(text: string): string {
  return escapeDisplayText(text, {});
}

/** What a validated file holds. */
export type FileKind = "tool" | "hook" | "rules" | "panel-document" | "cases" | "unknown";

/** One issue of a validated file, placed in its source. */
export interface LocatedIssue {
  code: string;
  message: string;
  /** The issue's JSON Pointer into the file, as the validating package reported it; `null` when it has none. */
  pointer: string | null;
  /** 1-based line of the pointer (or of the place the issue concerns), 1 when unknown. */
  line: number;
  /** 1-based column (UTF-16 code units), 1 when unknown. */
  column: number;
  /** Guidance beside the contract text (one sentence), when the validating package gave one. */
  hint?: string;
  /** The file the line and column are in, when it is not the report's own (a syntax error in a tool's entry). */
  file?: string;
  /** For a schema issue: the pointer of the offending keyword inside the schema (where line and column point). */
  keywordPointer?: string;
}

/** An issue as the packages report it: the contract's fields plus the optional guidance and keyword pointer. */
export type ReportedIssue = {
  code: string;
  message: string;
  path?: string | undefined;
  hint?: string | undefined;
  keywordPath?: string | undefined;
};

/** A name a validated file declares (a tool's `name` or `id`, a hook's `name`) and where, for cross-folder checks. */
export interface DeclaredName {
  what: "tool name" | "tool id" | "hook name";
  value: string;
  pointer: string;
  /**
   * Where the name stands in its file. Computed on demand: only a name declared twice is reported, and locating it
   * means parsing the file's source positions, which a clean run never needs.
   */
  position(): SourcePosition;
}

/** The validation report of one file. */
export interface FileReport {
  file: string;
  kind: FileKind;
  ok: boolean;
  issues: LocatedIssue[];
  warnings: LocatedIssue[];
  /** Names the file declares (not printed): what `raw validate` compares across the folders of one run. */
  declared?: DeclaredName[];
}

/** The output formats of `raw validate` and `raw panel validate`. */
export type ReportFormat = "text" | "json" | "github";

/** The formats a report can be written in. */
export const REPORT_FORMATS: readonly ReportFormat[] = ["text", "json", "github"];

/** A located issue from an issue and the position of its pointer. */
export function locate(issue: ReportedIssue, position: SourcePosition | undefined): LocatedIssue {
  const located: LocatedIssue = {
    code: issue.code,
    message: issue.message,
    pointer: issue.path ?? null,
    line: position?.line ?? 1,
    column: position?.column ?? 1,
  };
  if (typeof issue.hint === "string" && issue.hint !== "") located.hint = issue.hint;
  if (typeof issue.keywordPath === "string") located.keywordPointer = issue.keywordPath;
  return located;
}

/** Places an issue in a parsed source: at its schema keyword when it names one, else at its pointer. */
export function placeIssue(
  issue: ReportedIssue,
  source: { positionOf(pointer: string): SourcePosition },
): LocatedIssue {
  const at = issue.keywordPath ?? issue.path;
  return locate(issue, at === undefined ? undefined : source.positionOf(at));
}

/** The text format's second line of an issue with a hint: `    hint: ...` (escaped, one screen line). */
function hintLines(issue: LocatedIssue): string[] {
  return issue.hint === undefined ? [] : [`    hint: ${displayLine(issue.hint)}`];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The summary line: `N passed, N failed`. */
export function summaryLine(reports: readonly FileReport[]): string {
  const failed = reports.filter((r) => !r.ok).length;
  return `${reports.length - failed} passed, ${failed} failed`;
}

/**
 * Text: per file a header (`<file>  ok` or `<file>  N errors`), then one `file:line:col  code  message` line per issue
 * (the file is the issue's own `file` when it sits in another file of the folder)
 * (and an indented `    hint: ...` line under an issue with a hint)
 * (warnings as `file:line:col  code  warning: message`), a blank line between files with issues, and the summary.
 * File names, codes and messages are escaped (amendment A1): one issue is always one screen line.
 */
export function formatText(reports: readonly FileReport[]): string {
  const out: string[] = [];
  for (const shown of reports) {
    const report = { ...shown, file: displayLine(shown.file) };
    const counts = [
      report.issues.length > 0 ? plural(report.issues.length, "error") : "",
      report.warnings.length > 0 ? plural(report.warnings.length, "warning") : "",
    ].filter(Boolean);
    out.push(
      `${report.file}  ${report.ok ? "ok" : "failed"}${counts.length ? ` (${counts.join(", ")})` : ""}`,
    );
    const at = (issue: LocatedIssue) =>
      `${issue.file === undefined ? report.file : displayLine(issue.file)}:${issue.line}:${issue.column}`;
    for (const issue of report.issues) {
      out.push(
        `${at(issue)}  ${displayLine(issue.code)}  ${displayLine(issue.message)}`,
        ...hintLines(issue),
      );
    }
    for (const warning of report.warnings) {
      out.push(
        `${at(warning)}  ${displayLine(warning.code)}  warning: ${displayLine(warning.message)}`,
        ...hintLines(warning),
      );
    }
    if (report.issues.length + report.warnings.length > 0) out.push("");
  }
  if (out.at(-1) !== "") out.push("");
  out.push(summaryLine(reports));
  return `${out.join("\n")}\n`;
}

/**
 * JSON: `{ ok, summary: { passed, failed }, files: [{ file, kind, ok, issues: [...], warnings: [...] }] }` where each
 * issue is `{ code, message, pointer, line, column }` plus `hint` when there is one and `file` when its line and
 * column are in another file of the folder; two-space indentation and a final newline. Always one
 * well-formed document; controls, bidi and zero-width code points inside strings are `\uXXXX` escapes.
 */
export function formatJson(reports: readonly FileReport[]): string {
  const failed = reports.filter((r) => !r.ok).length;
  const body = {
    ok: failed === 0,
    summary: { passed: reports.length - failed, failed },
    files: reports.map((r) => ({
      file: r.file,
      kind: r.kind,
      ok: r.ok,
      issues: r.issues,
      warnings: r.warnings,
    })),
  };
  return `${stringifyForDisplay(body, 2)}\n`;
}

/**
 * Encodes a workflow-command message (GitHub Actions: `%` → `%25`, CR → `%0D`, LF → `%0A`) after the display
 * escaping of amendment A1 (as a block: LF and TAB kept, every other control visible), so the log line holds no
 * raw control and a message never ends its command early.
 */
export function escapeData(text: string): string {
  return encodeData(escapeDisplayText(text, { multiline: true }));
}

function encodeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/**
 * Encodes a workflow-command property value (a file name, a title): display-escaped as one line, then the data
 * encoding plus `:` → `%3A` and `,` → `%2C`.
 */
export function escapeProperty(text: string): string {
  return encodeData(escapeDisplayText(text)).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** The hint appended to an annotation message: a new line `hint: ...`, escaped as one line. */
function annotationHint(issue: LocatedIssue): string {
  return issue.hint === undefined ? "" : `%0Ahint: ${encodeData(escapeDisplayText(issue.hint))}`;
}

/**
 * GitHub Actions workflow annotations: `::error file=<file>,line=<l>,col=<c>,title=<code>::<message>` per issue
 * (`::warning ...` per warning), then the summary line.
 */
export function formatGithub(reports: readonly FileReport[]): string {
  const out: string[] = [];
  const annotate = (level: string, file: string, issue: LocatedIssue) =>
    out.push(
      `::${level} file=${escapeProperty(issue.file ?? file)},line=${issue.line},col=${issue.column},title=${escapeProperty(issue.code)}::${escapeData(issue.message)}${annotationHint(issue)}`,
    );
  for (const report of reports) {
    for (const issue of report.issues) annotate("error", report.file, issue);
    for (const warning of report.warnings) annotate("warning", report.file, warning);
  }
  out.push(summaryLine(reports));
  return `${out.join("\n")}\n`;
}

/** Formats reports in `format`. */
export function formatReports(reports: readonly FileReport[], format: ReportFormat): string {
  if (format === "json") return formatJson(reports);
  if (format === "github") return formatGithub(reports);
  return formatText(reports);
}
