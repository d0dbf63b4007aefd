import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { COMMANDS, type CommandName } from "../../src/commands/definitions.js";
import { EXIT_OK, EXIT_USAGE } from "../../src/support/io.js";
import { appRoot, bin } from "./helpers.js";

/** How long one `--help` or usage error of the built binary may take to exit (whatever its command pre-starts). */
const EXIT_LIMIT_MS = 5_000;

/** A line of a JavaScript stack trace (`    at f (file.js:1:2)`), or Node's report of an uncaught error. */
const STACK = /^\s+at .+:\d+:\d+\)?$|^node:internal|^Node\.js v\d/m;

/** An option no command takes. */
const BOGUS = "--no-such-option";

/**
 * The command lines that select each form of each command, from the CLI's own table (`COMMANDS`): `raw <command>`,
 * `raw <command> <sub>` for each subcommand, `raw <command> --<flag>` for a form a flag selects. A command added to
 * the table is covered without touching this test.
 */
function formLines(): Array<{ name: CommandName; words: string[] }> {
  const found: Array<{ name: CommandName; words: string[] }> = [];
  for (const name of Object.keys(COMMANDS) as CommandName[]) {
    const forms = COMMANDS[name].forms;
    if (!forms.some((form) => form.sub !== undefined)) found.push({ name, words: [name] });
    for (const form of forms) {
      if (form.sub !== undefined) found.push({ name, words: [name, form.sub] });
      else if (form.flag !== undefined) found.push({ name, words: [name, `--${form.flag}`] });
    }
  }
  return found;
}

/** Runs the built binary with `args` (stdin a pipe, never a terminal); killed after `EXIT_LIMIT_MS`. */
function run(args: readonly string[]): { status: number | null; signal: string | null; out: string } {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: appRoot,
    input: "",
    encoding: "utf8",
    timeout: EXIT_LIMIT_MS,
    killSignal: "SIGKILL",
  });
  return { status: result.status, signal: result.signal, out: `${result.stdout}${result.stderr}` };
}

const cases = formLines();

describe("every command exits promptly on --help and on a usage error (built binary, 5 s each)", () => {
  it("the table yields every command and subcommand", () => {
    expect(new Set(cases.map((c) => c.name))).toEqual(new Set(Object.keys(COMMANDS)));
    expect(cases.map((c) => c.words.join(" "))).toEqual(
      expect.arrayContaining(["validate", "policy explain", "policy test", "mcp serve", "schema --vscode"]),
    );
  });

  it.each(cases.map((c) => [c.words.join(" "), c] as const))(
    "raw %s --help exits 0 with its usage",
    (_, c) => {
      const result = run([...c.words, "--help"]);
      expect(result.signal, `raw ${c.words.join(" ")} --help did not exit within 5 s`).toBeNull();
      expect(result.status, result.out).toBe(EXIT_OK);
      expect(result.out).toMatch(new RegExp(`^usage: raw ${c.name}\\b`));
      expect(result.out).not.toMatch(STACK);
    },
  );

  it.each(cases.map((c) => [c.words.join(" "), c] as const))(
    `raw %s ${BOGUS} exits 2 with a usage error`,
    (_, c) => {
      const result = run([...c.words, BOGUS]);
      expect(result.signal, `raw ${c.words.join(" ")} ${BOGUS} did not exit within 5 s`).toBeNull();
      expect(result.status, result.out).toBe(EXIT_USAGE);
      expect(result.out).toMatch(/^raw: usage: /);
      expect(result.out).not.toMatch(STACK);
    },
  );

  it.each(
    [
      ["validate", "--timeout", "soon", "examples/rules.json"],
      ["validate", "examples/rules.json", "--format", "xml"],
      ["validate", "examples/rules.json", "-h"],
    ].map((args) => [args.join(" "), args] as const),
  )("raw %s exits promptly (the pre-started child does not hold it)", (_, args) => {
    const result = run(args);
    expect(result.signal, `raw ${args.join(" ")} did not exit within 5 s`).toBeNull();
    expect(result.status, result.out).toBe(args.includes("-h") ? EXIT_OK : EXIT_USAGE);
    expect(result.out).not.toMatch(STACK);
  });
});
