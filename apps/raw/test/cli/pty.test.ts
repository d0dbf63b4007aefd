import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtures, rawInPty, tempDir } from "./helpers.js";

/** Terminal output without ANSI control sequences (readline redraws the prompt line). */
function plain(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
}

const askWrites = join(fixtures, "call", "rules", "ask-writes.json");
const WRITE = JSON.stringify({ operations: [{ path: "a.txt", mode: "overwrite", content: "x" }] });

describe("raw call in a real pseudo-terminal: the approval prompt", () => {
  it("shows the intended effects apart from the raw arguments, and y approves (ask is the default in a TTY)", () => {
    const cwd = tempDir();
    const run = rawInPty(
      ["call", "write_file", "--rules", askWrites, "--cwd", cwd, "--args", WRITE],
      [["approve? [y/N] ", "y\r"]],
    );
    const out = plain(run.stdout);
    expect(run.status, out).toBe(0);
    const prompt = out.slice(out.indexOf("approval needed:"), out.indexOf("approve? [y/N]"));
    expect(prompt).toBe(
      [
        "approval needed: write_file (builtin/write_file)",
        "  intended effects:",
        `    write ${join(cwd, "a.txt")}`,
        "  arguments:",
        "    {",
        '      "operations": [',
        "        {",
        '          "path": "a.txt",',
        '          "mode": "overwrite",',
        '          "content": "x"',
        "        }",
        "      ]",
        "    }",
        "",
      ].join("\n"),
    );
    expect(out).toContain("  approval    approved   by the terminal\n");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("x");
  });

  it("n denies: approval_denied, nothing written", () => {
    const cwd = tempDir();
    const run = rawInPty(
      ["call", "write_file", "--rules", askWrites, "--cwd", cwd, "--args", WRITE],
      [["approve? [y/N] ", "n\r"]],
    );
    const out = plain(run.stdout);
    expect(run.status, out).toBe(1);
    expect(out).toContain("  approval    denied     by the terminal\n");
    expect(out).toContain("  result      error      approval_denied\n");
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });

  it("--approve no never prompts, even in a terminal", () => {
    const cwd = tempDir();
    const run = rawInPty(
      ["call", "write_file", "--rules", askWrites, "--cwd", cwd, "--approve", "no", "--args", WRITE],
      [],
    );
    const out = plain(run.stdout);
    expect(run.status, out).toBe(1);
    expect(out).not.toContain("approve?");
    expect(out).toContain("approval_denied");
  });
});

describe("raw call in a real pseudo-terminal: forms", () => {
  const QUESTIONS = {
    title: "Setup",
    questions: [
      {
        id: "env",
        label: "Which environment?",
        kind: "single_select",
        options: [
          { id: "staging", label: "Staging" },
          { id: "prod", label: "Production" },
        ],
      },
      { id: "note", label: "Notes", kind: "text", required: false },
      {
        id: "colors",
        label: "Colors",
        kind: "multi_select",
        options: [
          { id: "red", label: "Red" },
          { id: "blue", label: "Blue" },
        ],
      },
    ],
  };

  it("asks each field, re-asks after an invalid value, skips a blank optional field, and answers the tool", () => {
    const run = rawInPty(
      ["call", "ask_user", "--args", JSON.stringify(QUESTIONS)],
      [
        ["> ", "3\r"],
        ["pick one option by its number or id", ""],
        ["> ", "prod\r"],
        ["> ", "\r"],
        ["> ", "blue, 1\r"],
      ],
    );
    const out = plain(run.stdout);
    expect(run.status, out).toBe(0);
    expect(out).toContain(
      [
        "Setup",
        "Enter /cancel to cancel. Blank skips an optional field.",
        "Which environment? (required)",
        "  1. Staging [id:staging]",
        "  2. Production [id:prod]",
      ].join("\n"),
    );
    expect(out).toContain("Notes (optional)\n  at most ");
    const result = out.slice(out.indexOf("  result"));
    expect(result).toContain('"status": "answered"');
    // Multi-select answers come back in declared option order.
    expect(result.replace(/\s+/g, "")).toContain('"answers":{"env":"prod","colors":["red","blue"]}');
  });

  it("/cancel cancels the request: interaction_cancelled", () => {
    const run = rawInPty(["call", "ask_user", "--args", JSON.stringify(QUESTIONS)], [["> ", "/cancel\r"]]);
    const out = plain(run.stdout);
    expect(run.status, out).toBe(1);
    expect(out).toContain("  result      error      interaction_cancelled\n");
    expect(out.replace(/\s+/g, "")).toContain('{"status":"cancelled"}');
  });
});
