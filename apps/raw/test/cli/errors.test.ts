import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appRoot, fixtures, lines, type Run, raw, tempDir } from "./helpers.js";

const STACK_FRAME = /^\s+at /m;

/** Every failure is a coded message: no stack trace unless --debug. */
function noStack(run: Run): Run {
  expect(run.stderr).not.toMatch(STACK_FRAME);
  expect(run.stdout).not.toMatch(STACK_FRAME);
  return run;
}

describe("usage errors exit 2", () => {
  it("no command prints the help to stderr", () => {
    const run = noStack(raw([]));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^usage: raw <command>/);
    expect(run.stderr).toContain("Exit codes: 0 ok, 1 validation or contract failure, 2 usage error.");
  });

  it("an unknown command", () => {
    const run = noStack(raw(["nope"]));
    expect(run.status).toBe(2);
    expect(lines(run.stderr)).toEqual([
      'raw: unknown command "nope"',
      'raw: run "raw --help" for the list of commands',
    ]);
  });

  it.each([
    [
      ["validate"],
      "raw: usage: missing argument",
      "usage: raw validate <path...> [--format text|json|github] [--timeout <ms>]",
    ],
    [
      ["validate", "x", "--format", "xml"],
      'raw: usage: --format must be one of text, json, github (got "xml")',
      undefined,
    ],
    [["call", "todo", "--args", "{}", "--bogus"], "raw: usage: unknown option --bogus", undefined],
    [["call", "todo"], "raw: usage: --args is required", undefined],
    [["call", "todo", "--args"], "raw: usage: option --args needs a value", undefined],
    [
      ["call", "todo", "--args", "{}", "--approve", "maybe"],
      'raw: usage: --approve must be one of yes, no, ask (got "maybe")',
      undefined,
    ],
    [["policy"], "raw: usage: missing subcommand (explain or test)", undefined],
    [["policy", "explain", "builtin/bash"], "raw: usage: --rules is required", undefined],
    [["init", "widget", "x"], 'raw: usage: unknown kind "widget": use tool or hook', undefined],
    [["panel", "draw", "x"], 'raw: usage: unknown subcommand "draw"', undefined],
    [["schema", "tool", "extra"], 'raw: usage: unexpected argument "extra"', undefined],
  ])("raw %j", (args, first, usage) => {
    const run = noStack(raw(args));
    expect(run.status).toBe(2);
    expect(lines(run.stderr)[0]).toBe(first);
    if (usage !== undefined) expect(lines(run.stderr)[1]).toBe(usage);
  });

  it("inline JSON that does not parse names its line and column", () => {
    const run = noStack(raw(["call", "todo", "--args", '{"mode":\n  nope}']));
    expect(run.status).toBe(2);
    expect(lines(run.stderr)[0]).toBe(
      "raw: usage: --args is not valid JSON (line 2, column 3): Unexpected token 'o'",
    );
  });

  it("--help prints a command's usage and exits 0", () => {
    const run = raw(["call", "--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^usage: raw call <tool> --args <json\|@file>/);
    expect(raw(["--help"]).status).toBe(0);
    expect(raw(["--version"]).stdout).toBe(
      `${(JSON.parse(readFileSync(join(appRoot, "package.json"), "utf8")) as { version: string }).version}\n`,
    );
  });

  it("-v prints the version; raw help <command> prints that command's usage (exit 0)", () => {
    const version = raw(["-v"]);
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(raw(["--version"]).stdout);
    const help = raw(["help", "validate"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(raw(["validate", "--help"]).stdout);
    expect(help.stdout).toMatch(/^usage: raw validate /);
    const unknown = raw(["help", "nosuch"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(
      'raw: unknown command "nosuch"\nraw: run "raw --help" for the list of commands\n',
    );
    expect(raw(["help"]).stdout).toBe(raw(["--help"]).stdout);
  });
});

describe("bad input exits 1 with a coded message", () => {
  it("a missing @file", () => {
    const run = noStack(raw(["call", "todo", "--args", "@missing.json"], { cwd: tempDir() }));
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("raw: file_missing: missing.json: no such file\n");
  });

  it("invalid JSON in an @file reports the line and column of the syntax error", () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "args.json"), '{\n  "mode": "replace",\n  "items": [,]\n}\n');
    const run = noStack(raw(["call", "todo", "--args", "@args.json"], { cwd }));
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("raw: json_invalid: args.json:3:13: Unexpected token ','\n");
  });

  it("a folder where a file is expected", () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "doc.json"));
    const run = noStack(raw(["panel", "render", "doc.json"], { cwd }));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("doc.json:1:1  not_a_file  doc.json is not a regular file\n");
  });

  it("missing paths and folders that are neither tools nor hooks", () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "empty"));
    const run = noStack(raw(["validate", "gone/", "empty", "--format", "json"], { cwd }));
    expect(run.status).toBe(1);
    const files = JSON.parse(run.stdout).files;
    expect(files.map((f: { issues: Array<{ code: string; message: string }> }) => f.issues[0])).toEqual([
      { code: "path_missing", message: "gone: no such file or folder", pointer: null, line: 1, column: 1 },
      {
        code: "folder_unrecognized",
        message: "empty holds neither a tool.json nor a hook.json",
        pointer: null,
        line: 1,
        column: 1,
      },
    ]);
  });

  it("a huge file is refused before it is read", () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "big-rules.json"), Buffer.alloc(9 * 1024 * 1024, 0x20));
    const validate = noStack(raw(["validate", "big-rules.json"], { cwd }));
    expect(validate.status).toBe(1);
    expect(validate.stdout).toContain(
      "big-rules.json:1:1  file_too_large  big-rules.json is 9437184 bytes; the limit is 8388608\n",
    );
    const call = noStack(raw(["call", "todo", "--args", "{}", "--rules", "big-rules.json"], { cwd }));
    expect(call.status).toBe(1);
    expect(call.stderr).toContain("file_too_large");
  });

  it("a rules file with a syntax error, a missing --cwd and a missing --hook folder", () => {
    const cwd = join(fixtures, "validate");
    const rules = noStack(
      raw(["call", "todo", "--args", "{}", "--rules", "other/broken-rules.json"], { cwd }),
    );
    expect(rules.status).toBe(1);
    expect(rules.stderr).toMatch(
      /^other\/broken-rules\.json {2}failed \(1 error\)\nother\/broken-rules\.json:3:3 {2}json_invalid {2}/,
    );
    const missingCwd = noStack(raw(["call", "todo", "--args", "{}", "--cwd", "/nonexistent/raw"]));
    expect(missingCwd.status).toBe(1);
    expect(missingCwd.stderr).toBe("raw: cwd_missing: /nonexistent/raw is not a folder\n");
    const hook = noStack(raw(["call", "todo", "--args", "{}", "--hook", "/nonexistent/hook"]));
    expect(hook.status).toBe(1);
    expect(hook.stderr).toMatch(/:1:1 {2}hook_folder_missing {2}missing selected hook local\/hook: /);
  });

  it("a --tool folder that does not load is reported like raw validate, and nothing runs", () => {
    const run = noStack(
      raw(["call", "no_handler", "--args", "{}", "--tool", "tools/no-handler"], {
        cwd: join(fixtures, "validate"),
      }),
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "tools/no-handler/tool.json:8:3  handler_invalid  invalid selected tool handler or validator: local/no-handler\n",
    );
  });

  it("--debug adds the stack to a coded failure", () => {
    const run = raw(["call", "todo", "--args", "@missing.json", "--debug"], { cwd: tempDir() });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^raw: file_missing: missing\.json: no such file\n/);
    expect(run.stderr).toMatch(STACK_FRAME);
  });
});
