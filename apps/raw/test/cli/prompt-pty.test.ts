import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtures, tempDir } from "./helpers.js";
import { RAW_CONTROL, runOnScreen } from "./screen.js";

const askWrites = join(fixtures, "call", "rules", "ask-writes.json");
const WRITE = JSON.stringify({ operations: [{ path: "a.txt", mode: "overwrite", content: "x" }] });
const PROMPT = "approve? [y/N] ";
/** A line of a stack trace (`    at f (file:1:2)`). */
const STACK_FRAME = /^\s+at .*:\d+:\d+\)?$/m;

/** `raw call write_file` asking for approval in a real pseudo-terminal, with `script` typed at its questions. */
async function callAt(cwd: string, script: ReadonlyArray<readonly [string, string]>) {
  const screen = await runOnScreen(
    ["call", "write_file", "--rules", askWrites, "--cwd", cwd, "--args", WRITE],
    script,
  );
  const text = screen.lines.join("\n");
  // Whatever happened, no stack trace and no raw control reached the screen.
  expect(text).not.toMatch(STACK_FRAME);
  expect(text).not.toMatch(RAW_CONTROL);
  expect(text).not.toContain("[pty-run:");
  return { ...screen, text };
}

describe("raw call in a real pseudo-terminal: manners of the y/N approval prompt", () => {
  it("Ctrl-C at the prompt ends the line and exits 130; nothing is written", async () => {
    const cwd = tempDir();
    const screen = await callAt(cwd, [[PROMPT, "\u0003"]]);
    expect(screen.status, screen.text).toBe(130);
    // The prompt's line ends with ^C; everything after it starts on a line of its own.
    const at = screen.lines.indexOf("approve? [y/N] ^C");
    expect(at, screen.text).toBeGreaterThan(0);
    expect(screen.lines.filter((line) => line.startsWith(PROMPT))).toEqual(["approve? [y/N] ^C"]);
    expect(screen.lines[at + 1], screen.text).toMatch(/^ {2}approval {4}/);
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });

  it("`yes please` is not an answer: the question is asked again, and y then approves", async () => {
    const cwd = tempDir();
    const screen = await callAt(cwd, [
      [PROMPT, "yes please\r"],
      ["please answer y (yes) or n (no)", ""],
      [PROMPT, "  YES \r"],
    ]);
    expect(screen.status, screen.text).toBe(0);
    expect(screen.lines.filter((line) => line.startsWith(PROMPT))).toEqual([
      "approve? [y/N] yes please",
      "approve? [y/N]   YES ",
    ]);
    expect(screen.lines).toContain("  please answer y (yes) or n (no)");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("x");
  });

  it("answers that are neither yes nor no are asked again a bounded number of times, then mean no", async () => {
    const cwd = tempDir();
    const screen = await callAt(cwd, [
      [PROMPT, "ok\r"],
      [PROMPT, "sure\r"],
      [PROMPT, "yep\r"],
    ]);
    expect(screen.status, screen.text).toBe(1);
    expect(screen.lines.filter((line) => line.startsWith(PROMPT))).toHaveLength(3);
    expect(screen.lines).toContain("  no clear answer after 3 tries: taken as no");
    expect(screen.text).toContain("  approval    denied     by the terminal");
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });

  it("end of input (Ctrl-D) at the prompt means no", async () => {
    const cwd = tempDir();
    const screen = await callAt(cwd, [[PROMPT, "\u0004"]]);
    expect(screen.status, screen.text).toBe(1);
    expect(screen.text).toContain("  approval    denied     by the terminal");
    expect(screen.text).toContain("approval_denied");
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });
});

describe("raw call in a real pseudo-terminal: Ctrl-C at a form question", () => {
  it("ends the line, cancels the request and exits 130", async () => {
    const question = {
      title: "Setup",
      questions: [{ id: "note", label: "Anything to add?", kind: "text", required: true }],
    };
    const screen = await runOnScreen(
      ["call", "ask_user", "--args", JSON.stringify(question)],
      [["> ", "\u0003"]],
    );
    const text = screen.lines.join("\n");
    expect(screen.status, text).toBe(130);
    expect(text).not.toMatch(STACK_FRAME);
    expect(text).not.toContain("[pty-run:");
    const at = screen.lines.indexOf("> ^C");
    expect(at, text).toBeGreaterThan(0);
    expect(screen.lines.slice(at + 1).join("\n")).toMatch(/interaction_(cancelled|aborted)|aborted/);
  });
});
