/**
 * Issue 11, surface 1 (amendment A1) end to end: every command of the built CLI prints untrusted text — hook reasons,
 * messages and stderr, tool results, file names, JSON excerpts, panel strings, identities — with its controls
 * escaped, one logical item per line; `--format json` stays one well-formed document and `--format github` one
 * workflow command per issue. The `raw call` trace is read on a real pseudo-terminal through a terminal emulator.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, lines, tempDir } from "./helpers.js";
import { RAW_CONTROL, runOnScreen } from "./screen.js";

/** A text that tries every trick: title, erase, cursor up, 8-bit CSI, bidi override, a forged line. */
const EVIL = "A\u001b]0;pwned\u0007B\u001b[2K\u001b[1AC\u009b2JD\u202eE\nforged: ok\rF\u200bG";
/** The same text as a person must read it on one line. */
const EVIL_SHOWN = "A\\x1b]0;pwned\\x07B\\x1b[2K\\x1b[1AC\\x9b2JD\\u202eE\\nforged: ok\\rF\\u200bG";

/** No raw control (LF allowed: it separates lines). */
const RAW_IN_TEXT = RAW_CONTROL;

/**
 * A hook folder on `PreToolUse` of bash that writes hostile stderr and then either denies with a hostile reason and
 * message (`deny`) or fails with exit status 1 (`fail`, so its receipt keeps the stderr tail).
 */
function evilHook(root: string, mode: "deny" | "fail" = "deny"): string {
  const name = mode === "deny" ? "evil" : "broken";
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "hook.json"),
    JSON.stringify({
      protocol_version: 2,
      name,
      events: [{ name: "PreToolUse", match: "builtin/bash" }],
      command: "node",
      args: ["./index.mjs"],
      timeout_ms: 10000,
    }),
  );
  const answer = JSON.stringify({ decision: "deny", reason: EVIL, message: EVIL });
  writeFileSync(
    join(dir, "index.mjs"),
    `process.stderr.write(${JSON.stringify(`${EVIL}\nsecond stderr line\u001b[31m`)});\n` +
      (mode === "deny" ? `process.stdout.write(${JSON.stringify(answer)});\n` : "process.exitCode = 1;\n"),
  );
  return dir;
}

describe("raw call in a real pseudo-terminal: the trace (A1)", () => {
  it("hook reason, message and stderr are escaped; each item stays one line; no title, no erased line", async () => {
    const root = tempDir();
    const hook = evilHook(root);
    const screen = await runOnScreen(
      [
        "call",
        "bash",
        "--cwd",
        root,
        "--approve",
        "yes",
        "--hook",
        hook,
        "--args",
        JSON.stringify({ commands: [{ command: "true" }] }),
      ],
      [],
    );
    const text = screen.lines.join("\n");
    expect(screen.status, text).toBe(1);
    expect(screen.titles).toEqual([]);
    expect(text).not.toMatch(RAW_IN_TEXT);
    // The hook receipt: one line, with the escaped message and reason.
    expect(screen.lines.filter((line) => /^ {2}hook {8}denied {5}PreToolUse \S*evil — /.test(line))).toEqual([
      expect.stringMatching(
        new RegExp(`evil — ${EVIL_SHOWN.replace(/[\\[\]().*+?^$|]/g, "\\$&")} \\(\\d+ ms\\)$`),
      ),
    ]);
    // The denial is said once: the receipt line above (escaped); no second "blocked the call" line repeats it.
    expect(screen.lines.filter((line) => line.includes("PreToolUse blocked the call"))).toEqual([]);
    // No line a hook could forge: the reason's LF only continues the indented result block.
    expect(screen.lines.filter((line) => line.startsWith("forged: ok"))).toEqual([]);
  });

  it("a failing hook's stderr tail is an indented block with every control escaped", async () => {
    const root = tempDir();
    const hook = evilHook(root, "fail");
    const screen = await runOnScreen(
      [
        "call",
        "bash",
        "--cwd",
        root,
        "--approve",
        "yes",
        "--hook",
        hook,
        "--args",
        JSON.stringify({ commands: [{ command: "true" }] }),
      ],
      [],
    );
    const text = screen.lines.join("\n");
    expect(screen.status, text).toBe(1);
    expect(screen.titles).toEqual([]);
    expect(text).not.toMatch(RAW_IN_TEXT);
    const at = screen.lines.findIndex((line) => line.includes("PreToolUse local/broken exit"));
    expect(at, text).toBeGreaterThanOrEqual(0);
    const pad = " ".repeat(25);
    const [first, second] = EVIL_SHOWN.split("\\n");
    expect(screen.lines.slice(at + 1, at + 4)).toEqual([
      `${pad}stderr: ${first}`,
      `${pad}${second}`,
      `${pad}second stderr line\\x1b[31m`,
    ]);
  });

  it("a tool's result text is escaped: a command printing escape sequences cannot clear the screen or set a title", async () => {
    const root = tempDir();
    const command = "printf '\\033]0;pwned\\007\\033[2J\\033[Hcleared\\302\\233Hx\\342\\200\\256y'";
    const screen = await runOnScreen(
      [
        "call",
        "bash",
        "--cwd",
        root,
        "--approve",
        "yes",
        "--args",
        JSON.stringify({ commands: [{ command }] }),
      ],
      [],
    );
    const text = screen.lines.join("\n");
    expect(screen.status, text).toBe(0);
    expect(screen.titles).toEqual([]);
    expect(text).not.toMatch(RAW_IN_TEXT);
    // The screen was not cleared: the trace is all there, from the call header to the result.
    expect(screen.lines[0]).toMatch(/^call bash /);
    expect(screen.lines.some((line) => line.startsWith("  result      ok"))).toBe(true);
    expect(text).toContain("\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[Hcleared\\u009bHx\\u202ey");
  });
});

describe("raw hook run (A1)", () => {
  it("text: outcome, message, reason and stderr escaped, one item per line", async () => {
    const root = tempDir();
    const hook = evilHook(root);
    const run = await cli([
      "hook",
      "run",
      hook,
      "--event",
      "PreToolUse",
      "--cwd",
      root,
      "--payload",
      JSON.stringify({ tool: { name: "bash", identity: "builtin/bash", arguments: { commands: [] } } }),
    ]);
    expect(run.stdout).not.toMatch(RAW_IN_TEXT);
    const out = lines(run.stdout);
    expect(out, run.stderr).toContain(`  message   ${EVIL_SHOWN}`);
    expect(out).toContain(`  blocked   denied: ${EVIL_SHOWN}`);
    expect(out.filter((line) => line.startsWith("forged"))).toEqual([]);
    const failing = await cli([
      "hook",
      "run",
      evilHook(root, "fail"),
      "--event",
      "PreToolUse",
      "--cwd",
      root,
      "--payload",
      JSON.stringify({ tool: { name: "bash", identity: "builtin/bash", arguments: { commands: [] } } }),
    ]);
    expect(failing.stdout).not.toMatch(RAW_IN_TEXT);
    const [first, second] = EVIL_SHOWN.split("\\n");
    expect(lines(failing.stdout).slice(-4)).toEqual([
      "  stderr",
      `    ${first}`,
      `    ${second}`,
      "    second stderr line\\x1b[31m",
    ]);
  });

  it("json: one well-formed document that keeps the exact texts", async () => {
    const root = tempDir();
    const hook = evilHook(root);
    const run = await cli([
      "hook",
      "run",
      hook,
      "--event",
      "PreToolUse",
      "--cwd",
      root,
      "--format",
      "json",
      "--payload",
      JSON.stringify({ tool: { name: "bash", identity: "builtin/bash", arguments: { commands: [] } } }),
    ]);
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u200b]/);
    const body = JSON.parse(run.stdout);
    expect(body.reason).toBe(EVIL);
    expect(body.receipt.message).toBe(EVIL);
  });
});

describe("raw validate (A1): hostile file names and contents in all three formats", () => {
  function corpus(): string {
    const dir = tempDir();
    writeFileSync(join(dir, `bad${EVIL}.json`), `{"a": "\u001b[2J\u009b1A\u202e" ,,}`);
    writeFileSync(
      join(dir, "rules.json"),
      JSON.stringify([{ match: "builtin/x", effect: "deny", extra: EVIL }]),
    );
    return dir;
  }
  const badName = `bad${EVIL}.json`;
  const badShown = `bad${EVIL_SHOWN}.json`;

  it("text: every file name and message escaped, one issue per line", async () => {
    const cwd = corpus();
    const run = await cli(["validate", badName, "rules.json"], { cwd });
    expect(run.status).toBe(1);
    expect(run.stdout).not.toMatch(RAW_IN_TEXT);
    const out = lines(run.stdout);
    expect(out[0]).toBe(`${badShown}  failed (1 error)`);
    expect(out[1]).toMatch(
      new RegExp(`^${badShown.replace(/[\\[\]().*+?^$|]/g, "\\$&")}:1:\\d+  json_invalid  `),
    );
    expect(out.filter((line) => line.startsWith("forged"))).toEqual([]);
    expect(out.at(-1)).toBe("0 passed, 2 failed");
  });

  it("json: one well-formed document with the exact file names", async () => {
    const cwd = corpus();
    const run = await cli(["validate", badName, "rules.json", "--format", "json"], { cwd });
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u200b]/);
    const body = JSON.parse(run.stdout);
    expect(body.files.map((file: { file: string }) => file.file)).toEqual([badName, "rules.json"]);
    expect(body.summary).toEqual({ passed: 0, failed: 2 });
  });

  it("github: one workflow command per issue, properties and messages encoded, no raw control", async () => {
    const cwd = corpus();
    const run = await cli(["validate", badName, "rules.json", "--format", "github"], { cwd });
    expect(run.stdout).not.toMatch(RAW_IN_TEXT);
    const out = lines(run.stdout);
    expect(out.at(-1)).toBe("0 passed, 2 failed");
    const commands = out.slice(0, -1);
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const line of commands)
      expect(line).toMatch(/^::error file=[^,:]*,line=\d+,col=\d+,title=[a-z_]+::/);
    const decode = (s: string) =>
      s
        .replaceAll("%2C", ",")
        .replaceAll("%3A", ":")
        .replaceAll("%0A", "\n")
        .replaceAll("%0D", "\r")
        .replaceAll("%25", "%");
    const file = /^::error file=([^,]*),/.exec(commands[0] as string)?.[1] as string;
    expect(decode(file)).toBe(badShown);
  });

  it("github: a message's LF and % are encoded, never a second command", async () => {
    const dir = tempDir();
    // A tool folder whose manifest holds a hostile description: the message quotes nothing, but the file name does.
    writeFileSync(join(dir, "100%\n::warning::x.json"), "[1,");
    const run = await cli(["validate", "100%\n::warning::x.json", "--format", "github"], { cwd: dir });
    const out = lines(run.stdout);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(
      /^::error file=100%25\\n%3A%3Awarning%3A%3Ax\.json,line=1,col=\d+,title=json_invalid::/,
    );
  });
});

describe("raw panel render (A1)", () => {
  it("a label with LF, TAB and zero-width characters stays one line; A2 controls are refused with a plain message", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "p.json"),
      JSON.stringify({
        title: "T\nforged",
        blocks: [
          { id: "c", kind: "checklist", items: [{ id: "a", label: "x\n[x] forged done\t\u200b\u2028" }] },
        ],
      }),
    );
    const run = await cli(["panel", "render", "p.json"], { cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual(["T\\nforged (0/1)", "[ ] x\\n[x] forged done\\t\\u200b\\u2028"]);
    writeFileSync(join(dir, "q.json"), JSON.stringify({ title: "\u009b2J\u202e", blocks: [] }));
    const refused = await cli(["panel", "render", "q.json"], { cwd: dir });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("panel_invalid  /title: contains a control character");
  });
});

describe("raw effects, raw policy explain and errors (A1)", () => {
  it("raw effects prints each path on one line, escaped; --format json is well-formed", async () => {
    const cwd = tempDir();
    const args = JSON.stringify({ operations: [{ path: `a${EVIL}.txt`, mode: "overwrite", content: "x" }] });
    const text = await cli(["effects", "write_file", "--cwd", cwd, "--args", args]);
    expect(lines(text.stdout)).toEqual([`write ${cwd}/a${EVIL_SHOWN}.txt`]);
    const json = await cli(["effects", "write_file", "--cwd", cwd, "--args", args, "--format", "json"]);
    expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u200b]/);
    expect(JSON.parse(json.stdout).effects.files[0].path).toBe(`${cwd}/a${EVIL}.txt`);
  });

  it("raw policy explain escapes the identity and the deciding rule", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "rules.json"), JSON.stringify([{ match: "*", effect: "deny" }]));
    const run = await cli(["policy", "explain", "--rules", "rules.json", `x${EVIL}`], { cwd: dir });
    expect(run.stdout).not.toMatch(RAW_IN_TEXT);
    expect(lines(run.stdout)[0]).toBe(`x${EVIL_SHOWN}`);
    const json = await cli(["policy", "explain", "--rules", "rules.json", `x${EVIL}`, "--format", "json"], {
      cwd: dir,
    });
    expect(JSON.parse(json.stdout).identity).toBe(`x${EVIL}`);
  });

  it("an error quoting a file name or an argument is one escaped line", async () => {
    const run = await cli(["call", "write_file", "--args", `@missing${EVIL}.json`]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).not.toMatch(RAW_IN_TEXT);
    expect(run.stderr.split("\n").filter((line) => line.startsWith("forged"))).toEqual([]);
    const unknown = await cli([`nope${EVIL}`]);
    expect(unknown.stderr).toContain(`raw: unknown command "nope${EVIL_SHOWN}"`);
  });
});

describe("--format json is always one well-formed document on stdout (A1)", () => {
  it("a usage error, a folder that does not load and a missing rules file still give a JSON document", async () => {
    const dir = tempDir();
    const cases: Array<[string[], string]> = [
      [["call", "write_file", "--format", "json", "--args", `{"path": "${EVIL}`], "usage"],
      [
        [
          "hook",
          "run",
          join(dir, `missing${EVIL}`),
          "--event",
          "PreToolUse",
          "--format=json",
          "--payload",
          "{}",
        ],
        "command_failed",
      ],
      [["policy", "explain", "--rules", `none${EVIL}.json`, "x", "--format", "json"], "command_failed"],
      [
        ["effects", "write_file", "--args", "{}", "--tool", join(dir, "nothing"), "--format", "json"],
        "command_failed",
      ],
    ];
    for (const [args, code] of cases) {
      const run = await cli(args, { cwd: dir });
      expect(run.status, run.stderr).not.toBe(0);
      expect(run.stdout, args.join(" ")).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u200b]/);
      const body = JSON.parse(run.stdout);
      expect(body, args.join(" ")).toMatchObject({ ok: false, exitCode: run.status, error: { code } });
      expect(body.stderr.length).toBeGreaterThan(0);
    }
  });
});
