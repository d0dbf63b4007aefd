/**
 * Issue 13 item 6 — patch errors that teach: a patch written in another format keeps the contract's code and
 * message (effects.md §7.6: the message is the code), and the `PatchError` carries one hint line saying what to
 * write instead.
 */
import { describe, expect, it } from "vitest";
import {
  MAX_PATCH_HINT_EXCERPT,
  type PatchCode,
  PatchError,
  parsePatch,
  safeParsePatch,
  validateWriteFileArgs,
  writeFileArgsHint,
} from "../src/index.js";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");

function failure(text: string): PatchError {
  try {
    parsePatch(text);
  } catch (error) {
    if (error instanceof PatchError) return error;
    throw error;
  }
  throw new Error("the patch parsed");
}

const HUNK =
  'a hunk starts with a line that is exactly "@@", followed by lines starting with " " (context), "-" (remove) or "+" (add)';
const HEADERS = '"*** Add File: <path>", "*** Update File: <path>" or "*** Delete File: <path>"';

const CASES: Array<[name: string, text: string, code: PatchCode, hint: string]> = [
  [
    "a context header after @@ (@@ def f():)",
    patch("*** Update File: a.py", "@@ def f():", "-    return 1", "+    return 2"),
    "patch_missing_hunk",
    `line 3: ${HUNK}; write "@@" alone on the line and put " def f():" on the next line as a context line (the file's line, prefixed with a space)`,
  ],
  [
    "a unified-diff hunk header",
    patch("*** Update File: a.py", "@@ -1,3 +1,4 @@", " a", "-b", "+c"),
    "patch_missing_hunk",
    'line 3 is a unified-diff hunk header: this format has no line numbers; write "@@" alone on the line; the context (" ") and removed ("-") lines locate the change',
  ],
  [
    "a unified-diff hunk header with a function name after it",
    patch("*** Update File: a.py", "@@ -10,2 +10,2 @@ def f():", "-x", "+y"),
    "patch_missing_hunk",
    'line 3 is a unified-diff hunk header: this format has no line numbers; write "@@" alone on the line, then " def f():" as a context line if that line is in the file; the context (" ") and removed ("-") lines locate the change',
  ],
  [
    "--- a/x and +++ b/x file headers",
    patch("--- a/src/x.ts", "+++ b/src/x.ts", "@@", "-a", "+b"),
    "patch_invalid_header",
    `line 2 is a unified-diff or git header: this format names files with ${HEADERS}; drop the "diff --git", "index", "--- a/..." and "+++ b/..." lines and start each change with its "***" header, followed by "@@" hunks`,
  ],
  [
    "a diff --git header",
    patch("diff --git a/x b/x", "index 83db48f..bf269f4 100644"),
    "patch_invalid_header",
    `line 2 is a unified-diff or git header: this format names files with ${HEADERS}; drop the "diff --git", "index", "--- a/..." and "+++ b/..." lines and start each change with its "***" header, followed by "@@" hunks`,
  ],
  [
    "--- a/x after an Update header, where a hunk is expected",
    patch("*** Update File: x", "--- a/x", "+++ b/x", "@@", "-a", "+b"),
    "patch_missing_hunk",
    `line 3 is a unified-diff or git header: this format names files with ${HEADERS}; drop the "diff --git", "index", "--- a/..." and "+++ b/..." lines and start each change with its "***" header, followed by "@@" hunks`,
  ],
  [
    "two patches concatenated (a second *** Begin Patch)",
    `${patch("*** Add File: a", "+x").replace("*** End Patch\n", "")}*** Begin Patch\n*** Add File: b\n+y\n*** End Patch\n`,
    "patch_invalid_header",
    'line 4 is "*** Begin Patch" inside the patch: write one "*** Begin Patch" as the first line and one "*** End Patch" as the last, with every file section between them',
  ],
  [
    "a near-miss header (no space after the colon)",
    patch("*** Update File:x", "@@", "-a", "+b"),
    "patch_invalid_header",
    `line 2 is not a file header: write exactly ${HEADERS} (this capitalization, one space after the colon)`,
  ],
  [
    "another verb (*** Modify File:)",
    patch("*** Modify File: x", "@@", "-a", "+b"),
    "patch_invalid_header",
    `line 2 is not a file header: write exactly ${HEADERS} (this capitalization, one space after the colon)`,
  ],
  [
    "a blank line between sections",
    patch("*** Add File: a", "+x", "", "*** Add File: b", "+y"),
    "patch_invalid_header",
    'line 4 is empty: remove blank lines between file sections; inside a hunk a blank context line is written as a single space " "',
  ],
  [
    "hunk lines without their @@",
    patch("*** Update File: x", "-a", "+b"),
    "patch_missing_hunk",
    'line 3 is a hunk line without its hunk start: write a line that is exactly "@@" before it',
  ],
  [
    "a pure move",
    patch("*** Update File: x", "*** Move to: y"),
    "patch_missing_hunk",
    `an "*** Update File: <path>" needs at least one hunk (the section ends at line 4): ${HUNK}; to only rename a file, add a hunk that keeps one line as context`,
  ],
  [
    "a raw unified diff without the envelope",
    "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
    "patch_invalid_envelope",
    'this is a unified diff: write "*** Begin Patch" as the first line, then for each file "*** Update File: <path>" followed by "@@" hunks (" " context, "-" remove, "+" add lines, no line numbers), and "*** End Patch" as the last line',
  ],
];

describe("hints for patches written in another format", () => {
  it.each(CASES)("%s: the code and message stay, the hint says what to write", (_name, text, code, hint) => {
    const error = failure(text);
    expect(error.code).toBe(code);
    expect(error.message).toBe(code);
    expect(error.issues).toEqual([{ code, message: code }]);
    expect(error.hint).toBe(hint);
    expect(safeParsePatch(text)).toEqual({ ok: false, code });
    expect(validateWriteFileArgs({ patch: text })).toBe(code);
    expect(writeFileArgsHint({ patch: text })).toBe(hint);
  });

  it("the hint is not enumerable: the error serializes and compares as before", () => {
    const error = failure(patch("*** Update File: a", "@@ -1 +1 @@", "-a", "+b"));
    expect(Object.keys(error)).not.toContain("hint");
    expect(JSON.stringify(error)).not.toContain("hint");
    expect(error).toEqual(new PatchError("patch_missing_hunk"));
  });

  it("CRLF input counts lines the same way", () => {
    const text = patch("*** Update File: a.py", "@@ def f():", "-x", "+y").replaceAll("\n", "\r\n");
    expect(failure(text).hint).toMatch(/^line 3: a hunk starts with a line that is exactly "@@"/);
    expect(failure(text).hint).toContain('put " def f():" on the next line');
  });

  it("quotes at most MAX_PATCH_HINT_EXCERPT code units of the model's line", () => {
    const long = "x".repeat(5000);
    const hint = failure(patch("*** Update File: a", `@@ ${long}`, "-a", "+b")).hint ?? "";
    expect(hint).toContain(`" ${"x".repeat(MAX_PATCH_HINT_EXCERPT)}…"`);
    expect(hint.length).toBeLessThan(400);
  });

  // How its cost grows with the patch is the bench row "patch hint at the end" (bench/suites/10-bounds.mjs).
  it("a failure at the end of a 1 MiB patch gets its hint, naming the line", () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => `+line ${i}`);
    const text = patch("*** Add File: big", ...lines, "diff --git a/x b/x");
    expect(text.length).toBeLessThan(1_048_576);
    const error = failure(text);
    expect(error.hint).toMatch(/^line 60003 is a unified-diff or git header/);
  });

  it("no hint for a valid patch, for the operations form, or for a failure that shows nothing", () => {
    expect(writeFileArgsHint({ patch: patch("*** Add File: a", "+x") })).toBeUndefined();
    expect(writeFileArgsHint({ operations: [] })).toBeUndefined();
    expect(writeFileArgsHint({ patch: 5 })).toBeUndefined();
    expect(writeFileArgsHint(null)).toBeUndefined();
    const empty = failure(patch("*** Update File: a", "@@"));
    expect(empty.code).toBe("patch_empty_hunk");
    expect(empty.hint).toBeUndefined();
  });
});
