import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, type CommandName } from "../../src/commands/definitions.js";
import { parseCommand } from "../../src/support/args.js";
import { formUsage } from "../../src/support/usage.js";
import { appRoot, bin, cli, fixtures, lines, type Run, raw, tempDir } from "./helpers.js";

const STACK_FRAME = /^\s+at /m;

/** Every failure is a coded message: no stack trace unless --debug. */
function noStack(run: Run): Run {
  expect(run.stderr).not.toMatch(STACK_FRAME);
  expect(run.stdout).not.toMatch(STACK_FRAME);
  return run;
}

describe("usage errors exit 2", () => {
  it("no command prints the help to stderr", async () => {
    const run = noStack(await cli([]));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^usage: raw <command>/);
    expect(run.stderr).toContain(
      "Exit codes: 0 ok, 1 validation or contract failure, 2 usage error, 130 interrupted (Ctrl-C).",
    );
  });

  it("an unknown command", async () => {
    const run = noStack(await cli(["nope"]));
    expect(run.status).toBe(2);
    expect(lines(run.stderr)).toEqual([
      'raw: unknown command "nope"',
      'raw: run "raw --help" for the list of commands',
    ]);
  });

  it.each([
    [
      ["validate"],
      "raw: usage: missing argument <path>",
      "usage: raw validate <path...> [--format text|json|github] [--timeout <ms>]",
    ],
    [
      ["validate", "x", "--format", "xml"],
      'raw: usage: --format must be one of text, json, github (got "xml")',
      undefined,
    ],
    [
      ["call", "todo", "--args", "{}", "--bogus"],
      "raw: usage: unknown option --bogus; known options, nearest first: --args, --rules, --hook, --tool, --cwd, --format, --state, --approve",
      undefined,
    ],
    [
      ["call", "todo", "--args", "{}", "--tols", "x"],
      "raw: usage: unknown option --tols; did you mean --tool?",
      undefined,
    ],
    [["call", "--args", "{}"], "raw: usage: missing argument <tool>", undefined],
    [["init", "tool"], "raw: usage: missing argument <dir>", undefined],
    [
      ["policy", "test", "rules.json"],
      "raw: usage: missing argument <cases.json>",
      "usage: raw policy explain <identity> --rules <file> [--args <json|@file>] [--effects <json|@file>] [--format text|json]",
    ],
    [
      ["schema"],
      "raw: usage: missing argument <schema> (tool, hook, rules, panel-document, cases or mcp-proxy-config)",
      "usage: raw schema <tool|hook|rules|panel-document|cases|mcp-proxy-config> [--out <dir>]",
    ],
    [["schema", "tol"], 'raw: usage: unknown schema "tol": did you mean tool?', undefined],
    [["demo", "--wbe"], "raw: usage: unknown option --wbe; did you mean --web?", undefined],
    [
      ["init", "tool", "x", "--force"],
      "raw: usage: unknown option --force; this command takes no options",
      undefined,
    ],
    [["policy", "explian"], 'raw: usage: unknown subcommand "explian": did you mean explain?', undefined],
    [["mcp"], "raw: usage: missing subcommand (serve, proxy or tools)", undefined],
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
    [["panel", "draw", "x"], 'raw: usage: unknown subcommand "draw": use render or validate', undefined],
    [["schema", "tool", "extra"], 'raw: usage: unexpected argument "extra"', undefined],
  ])("raw %j", async (args, first, usage) => {
    const run = noStack(await cli(args));
    expect(run.status).toBe(2);
    expect(lines(run.stderr)[0]).toBe(first);
    if (usage !== undefined) expect(lines(run.stderr)[1]).toBe(usage);
  });

  it("inline JSON that does not parse names its line and column", async () => {
    const run = noStack(await cli(["call", "todo", "--args", '{"mode":\n  nope}']));
    expect(run.status).toBe(2);
    expect(lines(run.stderr)[0]).toBe(
      "raw: usage: --args is not valid JSON (line 2, column 3): Unexpected token 'o'",
    );
  });

  it("--help prints a command's usage and exits 0", async () => {
    const run = await cli(["call", "--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^usage: raw call <tool> --args <json\|@file>/);
    expect((await cli(["--help"])).status).toBe(0);
    expect((await cli(["--version"])).stdout).toBe(
      `${(JSON.parse(readFileSync(join(appRoot, "package.json"), "utf8")) as { version: string }).version}\n`,
    );
  });

  it("-v prints the version; raw help <command> prints that command's usage (exit 0)", async () => {
    const version = await cli(["-v"]);
    expect(version.status).toBe(0);
    expect(version.stdout).toBe((await cli(["--version"])).stdout);
    const help = await cli(["help", "validate"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe((await cli(["validate", "--help"])).stdout);
    expect(help.stdout).toMatch(/^usage: raw validate /);
    const unknown = await cli(["help", "nosuch"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(
      'raw: unknown command "nosuch"\nraw: run "raw --help" for the list of commands\n',
    );
    expect((await cli(["help"])).stdout).toBe((await cli(["--help"])).stdout);
  });
});

describe("bad input exits 1 with a coded message", () => {
  it("a missing @file", async () => {
    const run = noStack(await cli(["call", "todo", "--args", "@missing.json"], { cwd: tempDir() }));
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("raw: file_missing: missing.json: no such file\n");
  });

  it("invalid JSON in an @file reports the line and column of the syntax error", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "args.json"), '{\n  "mode": "replace",\n  "items": [,]\n}\n');
    const run = noStack(await cli(["call", "todo", "--args", "@args.json"], { cwd }));
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("raw: json_invalid: args.json:3:13: Unexpected token ','\n");
  });

  it("a folder where a file is expected", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "doc.json"));
    const run = noStack(await cli(["panel", "render", "doc.json"], { cwd }));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("doc.json:1:1  not_a_file  doc.json is not a regular file\n");
  });

  it("a FIFO, a socket and a device where a file is expected are refused, never waited on", async () => {
    const cwd = tempDir();
    execFileSync("mkfifo", [join(cwd, "pipe.json")]);
    const socket = createServer();
    await new Promise<void>((resolve) => socket.listen(join(cwd, "socket.json"), resolve));
    try {
      for (const [path, shown] of [
        [join(cwd, "pipe.json"), "pipe.json"],
        [join(cwd, "socket.json"), "socket.json"],
        ["/dev/zero", "/dev/zero"],
      ] as const) {
        const run = noStack(await cli(["panel", "render", path], { cwd }));
        expect(run.status, shown).toBe(1);
        expect(run.stderr).toContain(`not_a_file  ${shown} is not a regular file\n`);
      }
    } finally {
      socket.close();
    }
  });

  it("missing paths and folders that are neither tools nor hooks", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "empty"));
    const run = noStack(await cli(["validate", "gone/", "empty", "--format", "json"], { cwd }));
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

  it("a huge file is refused before it is read", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "big-rules.json"), Buffer.alloc(9 * 1024 * 1024, 0x20));
    const validate = noStack(await cli(["validate", "big-rules.json"], { cwd }));
    expect(validate.status).toBe(1);
    expect(validate.stdout).toContain(
      "big-rules.json:1:1  file_too_large  big-rules.json is 9437184 bytes; the limit is 8388608\n",
    );
    const call = noStack(await cli(["call", "todo", "--args", "{}", "--rules", "big-rules.json"], { cwd }));
    expect(call.status).toBe(1);
    expect(call.stderr).toContain("file_too_large");
  });

  it("a rules file with a syntax error, a missing --cwd and a missing --hook folder", async () => {
    const cwd = join(fixtures, "validate");
    const rules = noStack(
      await cli(["call", "todo", "--args", "{}", "--rules", "other/broken-rules.json"], { cwd }),
    );
    expect(rules.status).toBe(1);
    expect(rules.stderr).toMatch(
      /^other\/broken-rules\.json {2}failed \(1 error\)\nother\/broken-rules\.json:3:3 {2}json_invalid {2}/,
    );
    const missingCwd = noStack(await cli(["call", "todo", "--args", "{}", "--cwd", "/nonexistent/raw"]));
    expect(missingCwd.status).toBe(1);
    expect(missingCwd.stderr).toBe("raw: cwd_missing: /nonexistent/raw is not a folder\n");
    const hook = noStack(await cli(["call", "todo", "--args", "{}", "--hook", "/nonexistent/hook"]));
    expect(hook.status).toBe(1);
    expect(hook.stderr).toMatch(/:1:1 {2}hook_folder_missing {2}missing selected hook local\/hook: /);
  });

  it("a --tool folder that does not load is reported like raw validate, and nothing runs", async () => {
    const run = noStack(
      await cli(["call", "no_handler", "--args", "{}", "--tool", "tools/no-handler"], {
        cwd: join(fixtures, "validate"),
      }),
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "tools/no-handler/tool.json:8:3  handler_invalid  invalid selected tool handler or validator: local/no-handler\n",
    );
  });

  it("--debug adds the stack to a coded failure", async () => {
    const run = await cli(["call", "todo", "--args", "@missing.json", "--debug"], { cwd: tempDir() });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^raw: file_missing: missing\.json: no such file\n/);
    expect(run.stderr).toMatch(STACK_FRAME);
  });
});

/** A command line as a shell splits it (single quotes only, as the examples write them). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
}

describe("every command is defined once, and help is generated from that definition", () => {
  it.each(Object.keys(COMMANDS) as CommandName[])(
    "raw help %s: usage of every form, the options with their summaries, and examples that parse",
    async (name) => {
      const help = await cli(["help", name]);
      expect(help.status).toBe(0);
      expect(help.stdout).toBe((await cli([name, "--help"])).stdout);
      const text = lines(help.stdout);
      const forms = COMMANDS[name].forms.map((form) => formUsage(name, form));
      expect(text.slice(0, forms.length)).toEqual(
        forms.map((form, i) => `${i === 0 ? "usage:" : "      "} ${form}`),
      );
      expect(text).toContain(COMMANDS[name].summary);
      for (const form of COMMANDS[name].forms) {
        for (const [option, definition] of Object.entries(form.options)) {
          expect(
            text.some((line) => line.startsWith(`  --${option}`) && line.includes(definition.summary)),
          ).toBe(true);
        }
      }
      const examples = text.slice(text.findIndex((line) => /^Examples?:$/.test(line)) + 1);
      expect(examples.length).toBe(COMMANDS[name].examples.length);
      for (const example of examples) {
        const [raw_, command, ...argv] = shellWords(example.trim());
        expect([raw_, command]).toEqual(["raw", name]);
        // Each example is a valid command line of its command (no usage error).
        expect(() => parseCommand(name, argv)).not.toThrow();
      }
    },
  );

  it("the global help lists every command with its summary and every usage line", async () => {
    const help = (await cli(["--help"])).stdout;
    for (const name of Object.keys(COMMANDS) as CommandName[]) {
      expect(help).toContain(`  ${name.padEnd(9)} ${COMMANDS[name].summary}\n`);
      for (const form of COMMANDS[name].forms) expect(help).toContain(`  ${formUsage(name, form)}\n`);
    }
  });

  it("an unknown command names the nearest one", async () => {
    const run = await cli(["valdate", "x"]);
    expect(run.status).toBe(2);
    expect(lines(run.stderr)).toEqual([
      'raw: unknown command "valdate" (did you mean validate?)',
      'raw: run "raw --help" for the list of commands',
    ]);
  });

  it("a parsed command line carries its defaults, the form's subcommand and what follows --", () => {
    const proxy = parseCommand("mcp", [
      "proxy",
      "--rules",
      "r.json",
      "--",
      "node",
      "server.js",
      "--port",
      "1",
    ]);
    expect(proxy.sub).toBe("proxy");
    expect(proxy.rest).toEqual(["node", "server.js", "--port", "1"]);
    expect(proxy.values.rules).toBe("r.json");
    const call = parseCommand("call", ["todo", "--args", "{}", "--hook", "a", "--hook", "b"]);
    expect(call.values).toMatchObject({ format: "text", approve: "ask", hook: ["a", "b"] });
    expect(parseCommand("schema", ["--vscode"]).values.vscode).toBe(true);
    expect(() => parseCommand("schema", ["--vscode", "tool"])).toThrow('unexpected argument "tool"');
  });
});

describe("the built binary (end to end)", () => {
  it("exit codes: 2 for a usage error, 0 for help, 1 for a coded failure", () => {
    const usage = raw(["call", "todo", "--bogus"]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^raw: usage: unknown option --bogus; /);
    expect(raw(["help", "call"]).status).toBe(0);
    const failure = noStack(raw(["call", "todo", "--args", "@missing.json"], { cwd: tempDir() }));
    expect(failure.status).toBe(1);
    expect(failure.stderr).toBe("raw: file_missing: missing.json: no such file\n");
  });
});

describe("the built binary: Ctrl-C (SIGINT) during a call", () => {
  it("aborts the running call and exits 130 without a stack trace", async () => {
    const cwd = tempDir();
    const child = spawn(
      process.execPath,
      [
        bin,
        "call",
        "bash",
        "--approve",
        "yes",
        "--cwd",
        cwd,
        "--args",
        JSON.stringify({ commands: [{ command: "echo started; sleep 300" }] }),
      ],
      { cwd, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // The handler is running once the trace shows the approval step; then Ctrl-C.
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        if (stdout.includes("  approval ")) resolve();
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill("SIGINT");
    // The command sleeps 300 s: a CLI that waited for it would outlast the test's own timeout, so the exit itself
    // shows the interrupt ended the call (no clock needed).
    expect(await exited, `${stdout}\n${stderr}`).toBe(130);
    expect(stderr).not.toMatch(STACK_FRAME);
    expect(stdout).toContain("  result      error");
  });
});
