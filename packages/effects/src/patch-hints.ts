import type { PatchCode } from "./patch-error.js";

/** Longest excerpt of the offending line a hint quotes (in UTF-16 code units; a longer one is cut with `…`). */
export const MAX_PATCH_HINT_EXCERPT = 60;

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const HEADERS = '"*** Add File: <path>", "*** Update File: <path>" or "*** Delete File: <path>"';
const HUNK =
  'a hunk starts with a line that is exactly "@@", followed by lines starting with " " (context), "-" (remove) or "+" (add)';

/** A unified-diff hunk header: `@@ -1,3 +1,4 @@` with optional text after it. */
const UNIFIED_HUNK = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$/;
/** A unified-diff or git file header line. */
const DIFF_FILE_HEADER =
  /^(?:--- |\+\+\+ |diff --git |index [0-9a-f]+\.\.[0-9a-f]+|new file mode |deleted file mode |similarity index |rename (?:from|to) )/;
/** A near miss of one of the three section headers (wrong case, missing space, another verb). */
const NEAR_HEADER = /^\*\*\*\s*(?:add|update|delete|modify|edit|change|create|remove|rename)\b/i;

/**
 * One line a model can act on for a failed patch (effects.md §7), or undefined when the failure gives no clue about
 * what was meant. `offset` is where the offending line starts (`PatchError.offset`). Hints exist for the failures a
 * model makes by writing another patch or diff format: a unified-diff or git header (`--- a/x`, `+++ b/x`,
 * `diff --git`), a unified hunk header (`@@ -1,3 +1,4 @@`), text after `@@` (`@@ def f():`), a repeated envelope
 * line, a near-miss section header, a blank line between sections, hunk lines without their `@@`. The hint never
 * changes the error's code or message. Pure, bounded by the text's size (at most `MAX_PATCH_BYTES`); only called on
 * the error path.
 */
export function patchHint(text: string, code: PatchCode, offset: number | undefined): string | undefined {
  if (code === "patch_invalid_envelope") return envelopeHint(text);
  if (code !== "patch_invalid_header" && code !== "patch_missing_hunk") return undefined;
  if (offset === undefined || offset < 0 || offset > text.length) return undefined;
  const nl = text.indexOf("\n", offset);
  let line = text.slice(offset, nl < 0 ? text.length : nl);
  if (line.endsWith("\r")) line = line.slice(0, -1);
  const at = `line ${lineNumber(text, offset)}`;
  return code === "patch_missing_hunk" ? missingHunkHint(line, at) : headerHint(line, at);
}

function headerHint(line: string, at: string): string | undefined {
  const foreign = foreignLineHint(line, at);
  if (foreign !== undefined) return foreign;
  if (line === BEGIN || line === END) {
    return `${at} is "${line}" inside the patch: write one "${BEGIN}" as the first line and one "${END}" as the last, with every file section between them`;
  }
  if (line === "") {
    return `${at} is empty: remove blank lines between file sections; inside a hunk a blank context line is written as a single space " "`;
  }
  if (line.startsWith("*** Move to: ")) {
    return `${at}: "*** Move to: <path>" is allowed only directly after an "*** Update File: <path>" header`;
  }
  if (NEAR_HEADER.test(line) || line.startsWith("***")) {
    return `${at} is not a file header: write exactly ${HEADERS} (this capitalization, one space after the colon)`;
  }
  if (line.startsWith("@@") || line.startsWith(" ") || line.startsWith("-")) {
    return `${at} is a hunk line where a file header is expected: hunks belong after an "*** Update File: <path>" header, and an "*** Add File: <path>" takes only "+" lines`;
  }
  return `${at} is not a file header: each file section starts with ${HEADERS}`;
}

function missingHunkHint(line: string, at: string): string | undefined {
  const foreign = foreignLineHint(line, at);
  if (foreign !== undefined) return foreign;
  if (line.startsWith(" ") || line.startsWith("-") || line.startsWith("+")) {
    return `${at} is a hunk line without its hunk start: write a line that is exactly "@@" before it`;
  }
  const where = line === END ? `the section ends at ${at}` : `${at} is not one`;
  return `an "*** Update File: <path>" needs at least one hunk (${where}): ${HUNK}; to only rename a file, add a hunk that keeps one line as context`;
}

/** The hint for a line written in another patch or diff format, or undefined. */
function foreignLineHint(line: string, at: string): string | undefined {
  const unified = UNIFIED_HUNK.exec(line);
  if (unified) {
    const context = unified[1] ?? "";
    const tail =
      context === ""
        ? ""
        : `, then ${JSON.stringify(` ${excerpt(context)}`)} as a context line if that line is in the file`;
    return `${at} is a unified-diff hunk header: this format has no line numbers; write "@@" alone on the line${tail}; the context (" ") and removed ("-") lines locate the change`;
  }
  if (line.startsWith("@@") && line !== "@@") {
    const rest = line.slice(2).trim();
    const tail =
      rest === ""
        ? ""
        : ` and put ${JSON.stringify(` ${excerpt(rest)}`)} on the next line as a context line (the file's line, prefixed with a space)`;
    return `${at}: ${HUNK}; write "@@" alone on the line${tail}`;
  }
  if (DIFF_FILE_HEADER.test(line)) {
    return `${at} is a unified-diff or git header: this format names files with ${HEADERS}; drop the "diff --git", "index", "--- a/..." and "+++ b/..." lines and start each change with its "***" header, followed by "@@" hunks`;
  }
  return undefined;
}

function envelopeHint(text: string): string | undefined {
  const nl = text.indexOf("\n");
  let first = text.slice(0, nl < 0 ? text.length : nl);
  if (first.endsWith("\r")) first = first.slice(0, -1);
  if (DIFF_FILE_HEADER.test(first) || UNIFIED_HUNK.test(first)) {
    return `this is a unified diff: write "${BEGIN}" as the first line, then for each file "*** Update File: <path>" followed by "@@" hunks (" " context, "-" remove, "+" add lines, no line numbers), and "${END}" as the last line`;
  }
  if (first !== BEGIN && first.trim() === BEGIN) {
    return `the first line must be exactly "${BEGIN}" (no spaces around it), and the last exactly "${END}"`;
  }
  if (first !== BEGIN) return `the first line must be exactly "${BEGIN}" and the last line exactly "${END}"`;
  return `the last line must be exactly "${END}" (one final newline after it at most)`;
}

/** The 1-based number of the line starting at `offset`. */
function lineNumber(text: string, offset: number): number {
  let count = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

function excerpt(text: string): string {
  return text.length <= MAX_PATCH_HINT_EXCERPT ? text : `${text.slice(0, MAX_PATCH_HINT_EXCERPT)}…`;
}
