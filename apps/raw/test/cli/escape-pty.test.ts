import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtures, tempDir } from "./helpers.js";
import { RAW_CONTROL, render, runOnScreen } from "./screen.js";

const askWrites = join(fixtures, "call", "rules", "ask-writes.json");

/** Hostile paths a model can choose; each ends in `.txt`, so the rules ask before the write. */
const ATTACKS = {
  // Erase the line, go back to its start and print a harmless-looking line in its place.
  eraseLine: "bashrc-hook\u001b[2K\r    write SAFE/notes.txt",
  // Move the cursor up and overwrite the line above, then erase below.
  cursorUp: "x\u001b[1A\u001b[2K\u001b[999D  intended effects: none\u001b[J.txt",
  // Set the window title and ring the bell.
  title: "t\u001b]0;pwned title\u0007.txt",
  // A hyperlink whose visible text differs from the target.
  link: "\u001b]8;;https://evil.example/\u001b\\harmless\u001b]8;;\u001b\\.txt",
  // The 8-bit CSI (U+009B): erase the line and go to column 1, as ESC [ would.
  csi8: "c1\u009b2K\u009b1Gcsi8-hidden.txt",
  // Right-to-left override: `exe.txt` reads as `txt.exe` reversed.
  bidi: "report\u202etxt.exe\u202c.txt",
};

/** The escaped form a person must read for each attack. */
const SHOWN: Record<keyof typeof ATTACKS, string> = {
  eraseLine: "bashrc-hook\\x1b[2K\\r    write SAFE/notes.txt",
  cursorUp: "x\\x1b[1A\\x1b[2K\\x1b[999D  intended effects: none\\x1b[J.txt",
  title: "t\\x1b]0;pwned title\\x07.txt",
  // The path is shown normalized (`//` is one separator).
  link: "\\x1b]8;;https:/evil.example/\\x1b\\harmless\\x1b]8;;\\x1b\\.txt",
  csi8: "c1\\x9b2K\\x9b1Gcsi8-hidden.txt",
  bidi: "report\\u202etxt.exe\\u202c.txt",
};

describe("raw call in a real pseudo-terminal: what a person reads at the approval prompt (A1)", () => {
  it("shows every intended effect, escaped, one per line and whole, before the arguments; n writes nothing", async () => {
    const cwd = tempDir();
    const long = `${"deep/".repeat(700)}very-long-name.txt`;
    const operations = [
      ...Object.values(ATTACKS).map((path) => ({ path, mode: "overwrite", content: "x" })),
      { path: long, mode: "overwrite", content: "\u001b]0;content title\u0007\u009b2J\u202e" },
    ];
    const screen = await runOnScreen(
      ["call", "write_file", "--rules", askWrites, "--cwd", cwd, "--args", JSON.stringify({ operations })],
      [["approve? [y/N] ", "n\r"]],
    );
    const text = screen.lines.join("\n");
    expect(screen.status, text).toBe(1);
    expect(readdirSync(cwd)).toEqual([]);

    // Nothing set a title, opened a link or rang the bell, and no raw control reached the screen.
    expect(screen.titles).toEqual([]);
    expect(screen.links).toEqual([]);
    expect(screen.bells).toBe(0);
    expect(text).not.toMatch(RAW_CONTROL);

    const start = screen.lines.lastIndexOf("approval needed: write_file (builtin/write_file)");
    const end = screen.lines.findIndex((line, i) => i > start && line.startsWith("approve? [y/N]"));
    expect(start, text).toBeGreaterThanOrEqual(0);
    expect(end, text).toBeGreaterThan(start);
    const prompt = screen.lines.slice(start, end);
    const effects = [...Object.values(SHOWN), long].map((path) => `    write ${cwd}/${path}`);
    // The effects come first, one screen line each (the long path wraps but is one logical line, never shortened).
    expect(prompt.slice(0, 2 + effects.length)).toEqual([
      "approval needed: write_file (builtin/write_file)",
      "  intended effects:",
      ...effects,
    ]);
    expect(prompt[2 + effects.length]).toBe("  arguments:");
    // No forged line anywhere on the screen.
    expect(screen.lines.filter((line) => /^\s*write SAFE\/notes\.txt$/.test(line))).toEqual([]);
    expect(screen.lines.filter((line) => line.trim() === "intended effects: none")).toEqual([]);
    // The trace printed the same escaped effects lines.
    // The trace printed the same escaped effects lines: each one is on the screen twice, once in the trace.
    for (const line of effects) {
      const shown = screen.lines.filter((l) => l.endsWith(line.trimStart()));
      expect(shown.length, line).toBe(2);
      expect(shown[0], line).toMatch(/^( {2}effects {5}ok {9}| {25})write /);
    }
  });

  it("y approves exactly what was shown", async () => {
    const cwd = tempDir();
    const path = "ok\u009b2K\u202etxt.exe\u202c.txt";
    const screen = await runOnScreen(
      [
        "call",
        "write_file",
        "--rules",
        askWrites,
        "--cwd",
        cwd,
        "--args",
        JSON.stringify({ operations: [{ path, mode: "overwrite", content: "x" }] }),
      ],
      [["approve? [y/N] ", "y\r"]],
    );
    const text = screen.lines.join("\n");
    expect(screen.status, text).toBe(0);
    expect(screen.lines).toContain(`    write ${cwd}/ok\\x9b2K\\u202etxt.exe\\u202c.txt`);
    expect(text).not.toMatch(RAW_CONTROL);
    expect(existsSync(join(cwd, path))).toBe(true);
  });
});

describe("raw call in a real pseudo-terminal: a 24-row screen at the approval question (A1)", () => {
  it("huge arguments are shortened so the effects stay in view right above the question", async () => {
    const cwd = tempDir();
    const content = `${"line of content\n".repeat(20_000)}\u001b]0;end\u0007`;
    const argsFile = join(tempDir(), "args.json");
    writeFileSync(
      argsFile,
      JSON.stringify({ operations: [{ path: "big.txt", mode: "overwrite", content }] }),
    );
    const screen = await runOnScreen(
      ["call", "write_file", "--rules", askWrites, "--cwd", cwd, "--args", `@${argsFile}`],
      [["approve? [y/N] ", "n\r"]],
      undefined,
      24,
      "approve? [y/N] ",
    );
    expect(screen.status, screen.lines.join("\n")).toBe(1);
    const view = screen.visible;
    expect(view.at(-1)?.trimEnd()).toBe("approve? [y/N]");
    expect(view).toContain("  intended effects:");
    expect(view).toContain(`    write ${cwd}/big.txt`);
    // The arguments say how much was left out.
    expect(view.some((line) => /… [\d,]+ more bytes$/.test(line))).toBe(true);
    const left = Number(/… ([\d,]+) more bytes/.exec(view.join("\n"))?.[1]?.replaceAll(",", ""));
    expect(left).toBeGreaterThan(300_000);
    expect(screen.titles).toEqual([]);
  });
});

describe("the screen reader itself", () => {
  it("interprets what the old prompt wrote: the erase-line attack hides the real path", async () => {
    const screen = await render(`    write /w/${ATTACKS.eraseLine}\r\n\u001b]0;x\u0007\u009b1Gz\r\n`);
    expect(screen.lines[0]).toBe("    write SAFE/notes.txt");
    expect(screen.titles).toEqual(["x"]);
    expect(screen.lines[1]).toBe("z");
    const link = await render(`${ATTACKS.link}\u0007\r\n`);
    expect(link.links).toEqual(["https://evil.example/"]);
    expect(link.lines).toEqual(["harmless.txt"]);
    expect(link.bells).toBe(1);
  });
});
