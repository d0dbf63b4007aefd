/**
 * Issue 13 item 6 through the real CLI: a `write_file` patch written in another format gets `invalid_arguments`
 * whose first line is still the parser code (effects.md §7.8, §9) and whose second line is the hint the model sees
 * in the tool result; following the hint gives a patch that applies.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { raw, tempDir } from "./helpers.js";

type Result = { isError: boolean; code?: string; content: Array<{ type: string; text?: string }> };

function callWriteFile(
  cwd: string,
  patch: string,
): { status: number | null; result: Result; stdout: string } {
  const run = raw(
    [
      "call",
      "write_file",
      "--args",
      JSON.stringify({ patch }),
      "--cwd",
      cwd,
      "--approve",
      "yes",
      "--format",
      "json",
    ],
    { cwd },
  );
  expect(run.stderr).toBe("");
  return {
    status: run.status,
    result: (JSON.parse(run.stdout) as { result: Result }).result,
    stdout: run.stdout,
  };
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
const SOURCE = "def f():\n    return 1\n";

describe("write_file: the model sees a hint for a patch in another format", () => {
  it("@@ def f(): gets patch_missing_hunk plus the hint; the corrected patch applies", () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "a.py"), SOURCE);
    const bad = callWriteFile(
      cwd,
      patch("*** Update File: a.py", "@@ def f():", "-    return 1", "+    return 2"),
    );
    expect(bad.status).toBe(1);
    expect(bad.result).toEqual({
      isError: true,
      code: "invalid_arguments",
      content: [
        {
          type: "text",
          text:
            "patch_missing_hunk\n" +
            'hint: line 3: a hunk starts with a line that is exactly "@@", followed by lines starting with " " (context), "-" (remove) or "+" (add); write "@@" alone on the line and put " def f():" on the next line as a context line (the file\'s line, prefixed with a space)',
        },
      ],
    });
    expect(readFileSync(join(cwd, "a.py"), "utf8")).toBe(SOURCE);

    // What the hint says to write.
    const good = callWriteFile(
      cwd,
      patch("*** Update File: a.py", "@@", " def f():", "-    return 1", "+    return 2"),
    );
    expect(good.result.isError).toBe(false);
    expect(good.status).toBe(0);
    expect(readFileSync(join(cwd, "a.py"), "utf8")).toBe("def f():\n    return 2\n");
  });

  it("a unified-diff hunk header and git headers each get their hint under the unchanged code", () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "a.py"), SOURCE);
    const unified = callWriteFile(
      cwd,
      patch("*** Update File: a.py", "@@ -1,2 +1,2 @@", " def f():", "-    return 1"),
    );
    expect(unified.result.code).toBe("invalid_arguments");
    expect(unified.result.content[0]?.text).toBe(
      'patch_missing_hunk\nhint: line 3 is a unified-diff hunk header: this format has no line numbers; write "@@" alone on the line; the context (" ") and removed ("-") lines locate the change',
    );
    const git = callWriteFile(cwd, patch("diff --git a/a.py b/a.py", "--- a/a.py", "+++ b/a.py", "@@", "-x"));
    expect(git.result.content[0]?.text).toMatch(
      /^patch_invalid_header\nhint: line 2 is a unified-diff or git header: this format names files with "\*\*\* Add File: <path>", "\*\*\* Update File: <path>" or "\*\*\* Delete File: <path>"; /,
    );
    expect(readFileSync(join(cwd, "a.py"), "utf8")).toBe(SOURCE);
  });

  it("a failure with nothing to teach keeps the bare code (no hint line)", () => {
    const cwd = tempDir();
    const run = callWriteFile(cwd, patch("*** Update File: a.py", "@@"));
    expect(run.result.content).toEqual([{ type: "text", text: "patch_empty_hunk" }]);
  });

  it("text output: the hint is a line of its own, and the model's text in it is escaped", () => {
    const cwd = tempDir();
    const run = raw(
      [
        "call",
        "write_file",
        "--args",
        JSON.stringify({ patch: patch("*** Update File: a.py", "@@ \u001b[31mred\u202e", "-x", "+y") }),
        "--cwd",
        cwd,
        "--approve",
        "yes",
      ],
      { cwd },
    );
    expect(run.status).toBe(1);
    expect(run.stdout).not.toMatch(/[\u001b\u202e]/);
    const hintLines = run.stdout
      .split("\n")
      .filter((line) => line.trim().startsWith("hint: line 3: a hunk starts"));
    expect(hintLines.length).toBeGreaterThan(0);
    for (const line of hintLines) expect(line).toContain('put " \\u001b[31mred\\u202e" on the next line');
  });
});
