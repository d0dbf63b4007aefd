import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { runCli } from "../../src/cli.js";

/** The `@raw/cli` package folder. */
export const appRoot = fileURLToPath(new URL("../../", import.meta.url));
/** The built binary the end-to-end tests run. */
export const bin = join(appRoot, "dist", "bin.js");
/** The fixtures folder. */
export const fixtures = join(appRoot, "test", "fixtures");

/** What one run of `raw` produced. */
export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `raw` binary as a subprocess (stdin is a pipe: never a terminal). */
export function raw(args: readonly string[], options: { cwd?: string; input?: string } = {}): Run {
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? appRoot,
    input: options.input ?? "",
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Runs `raw` in this process through `runCli(argv, io)`: the same code as the binary, with standard output and
 * error collected, `input` as standard input (never a terminal) and `cwd` as the working folder. For tests that
 * check what a command prints and its exit code; exit codes after signals, terminals and process isolation are
 * checked with `raw` (the built binary).
 */
export async function cli(
  args: readonly string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const status = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: () => Readable.from([options.input ?? ""]),
    interactive: false,
    cwd: options.cwd ?? appRoot,
    env: options.env ?? {},
  });
  return { status, stdout, stderr };
}

/**
 * Runs the built `raw` binary inside a real pseudo-terminal (python's `pty`), typing `script`'s answers when the
 * terminal shows the expected texts. Line endings are normalized to `\n`.
 */
export function rawInPty(
  args: readonly string[],
  script: ReadonlyArray<readonly [string, string]>,
  cwd = appRoot,
): Run {
  const run = spawnSync(
    "python3",
    [join(fixtures, "pty-run.py"), JSON.stringify(script), process.execPath, bin, ...args],
    { cwd, encoding: "utf8", timeout: 60_000 },
  );
  return { status: run.status, stdout: run.stdout.replaceAll("\r\n", "\n"), stderr: run.stderr };
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder (its real path), removed after the test. */
export function tempDir(prefix = "raw-cli-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/**
 * Writes the tool folder `<root>/<id>`: a valid manifest whose id and name are the folder's (with `manifest`'s
 * fields on top) and `index.mjs` holding `entry`. Returns the folder.
 */
export function writeToolFolder(
  root: string,
  id: string,
  entry: string,
  options: { description?: string; manifest?: Record<string, unknown> } = {},
): string {
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "tool.json"),
    JSON.stringify({
      api_version: 2,
      id,
      version: "1.0.0",
      name: id,
      description: options.description ?? "A tool written by a test.",
      input_schema: { type: "object" },
      entry: "./index.mjs",
      ...options.manifest,
    }),
  );
  writeFileSync(join(dir, "index.mjs"), entry);
  return dir;
}

/**
 * Writes one tool folder per entry under a new workspace (`id` → the source of its `index.mjs`), each with a valid
 * manifest whose id and name are the folder's; returns the workspace.
 */
export function toolWorkspace(
  prefix: string,
  entries: Iterable<readonly [string, string]>,
  description = "A tool written by a test.",
): string {
  const root = tempDir(prefix);
  for (const [id, source] of entries) writeToolFolder(root, id, source, { description });
  return root;
}

/** The lines of a text output, without the trailing empty line. */
export function lines(text: string): string[] {
  const all = text.split("\n");
  if (all.at(-1) === "") all.pop();
  return all;
}
