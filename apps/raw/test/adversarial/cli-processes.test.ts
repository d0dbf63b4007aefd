/**
 * Issue 11, surfaces 3 and 7 end to end: the built `raw` binary, run as a subprocess. `raw call write_file` on a
 * FIFO must end at once with `not_regular_file` (A3; before, the process never exited); `raw call bash` and
 * `raw hook run` must leave no process of the command's or hook's session behind when the CLI is done (A7).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bin, tempDir } from "../cli/helpers.js";

const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
});

/** Runs `raw` from `cwd` with a 15 s limit (a hung CLI fails the test instead of the suite). */
function raw(args: readonly string[], cwd: string) {
  const started = Date.now();
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    input: "",
    encoding: "utf8",
    timeout: 15_000,
  });
  return { ...run, ms: Date.now() - started };
}

function alive(pid: number): boolean {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = text.slice(text.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && alive(pid)) await new Promise((resolve) => setTimeout(resolve, 25));
  return !alive(pid);
}

function escaped(dir: string): number {
  const pid = Number(readFileSync(join(dir, "escaped.pid"), "utf8").trim());
  expect(Number.isSafeInteger(pid) && pid > 1).toBe(true);
  leftovers.push(pid);
  return pid;
}

const SET_M_JOB = `bash -c 'set -m; sleep 300 </dev/null >/dev/null 2>&1 & echo $! > escaped.pid'`;

describe("A3 end to end: raw call write_file on a FIFO", () => {
  it("ends at once with not_regular_file, in every mode", () => {
    const cwd = tempDir();
    spawnSync("mkfifo", [join(cwd, "pipe")]);
    const operations = [
      { path: "pipe", mode: "overwrite", content: "x" },
      { path: "pipe", mode: "append", content: "x" },
      { path: "pipe", mode: "replace_text", old_text: "a", new_text: "b" },
      {
        path: "pipe",
        mode: "replace_lines",
        start_line: 1,
        end_line: 1,
        content: "x",
        expected_sha256: "0".repeat(64),
      },
    ];
    const run = raw(
      [
        "call",
        "write_file",
        "--args",
        JSON.stringify({ operations }),
        "--format",
        "json",
        "--approve",
        "yes",
      ],
      cwd,
    );
    expect(run.error).toBeUndefined();
    expect(run.ms).toBeLessThan(10_000);
    const trace = JSON.parse(run.stdout) as { result: { code: string; content: Array<{ value: unknown }> } };
    expect(trace.result.code).toBe("not_regular_file");
    expect(trace.result.content[0]?.value).toEqual({
      results: operations.map((op, index) => ({
        index,
        path: "pipe",
        mode: op.mode,
        status: "error",
        error: "not_regular_file",
      })),
    });
  });
});

describe("A7 end to end: nothing of a run's session outlives the CLI", () => {
  it("raw call bash: a `set -m` job of the command is gone when raw exits", async () => {
    const cwd = tempDir();
    const args = { commands: [{ command: SET_M_JOB, timeout_ms: 10_000 }] };
    const run = raw(
      ["call", "bash", "--args", JSON.stringify(args), "--format", "json", "--approve", "yes"],
      cwd,
    );
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(0);
    expect(await goneWithin(escaped(cwd), 2_000)).toBe(true);
  });

  it("raw hook run: a `set -m` job of the hook is gone when raw exits", async () => {
    const cwd = tempDir();
    const folder = join(cwd, "leaver");
    mkdirSync(folder);
    writeFileSync(
      join(folder, "hook.json"),
      JSON.stringify({
        protocol_version: 2,
        name: "leaver",
        events: [{ name: "Stop" }],
        command: "sh",
        args: ["./hook.sh"],
        timeout_ms: 10_000,
      }),
    );
    writeFileSync(join(folder, "hook.sh"), `cat >/dev/null\n${SET_M_JOB}\necho '{}'\n`);
    chmodSync(join(folder, "hook.sh"), 0o755);
    const payload = JSON.stringify({ run: { status: "completed", steps: 1 } });
    const run = raw(
      ["hook", "run", folder, "--event", "Stop", "--payload", payload, "--format", "json"],
      cwd,
    );
    expect(run.error).toBeUndefined();
    expect(JSON.parse(run.stdout).receipt).toMatchObject({ outcome: "continued" });
    expect(existsSync(join(cwd, "escaped.pid"))).toBe(true);
    expect(await goneWithin(escaped(cwd), 2_000)).toBe(true);
  });
});
