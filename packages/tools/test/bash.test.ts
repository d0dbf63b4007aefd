import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLength, renderWithin, shareBudget } from "../src/bash/fit.js";
import { echoCommand } from "../src/bash/handler.js";
import { handler, validateArgs } from "../src/bash/index.js";
import { BASH_INPUT_SCHEMA } from "../src/bash/manifest.js";
import { contextFor, rowsOf, schemaRejects, tempDir } from "./helpers.js";

/** True while `pid` exists and is not a zombie (PID 1 here does not reap orphans: a zombie counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !alive(pid);
}

function pidFrom(dir: string): number {
  return Number(readFileSync(join(dir, "pid"), "utf8").trim());
}

describe("bash: running commands", () => {
  it("runs the commands in order from the working directory, stdout and stderr apart", async () => {
    const dir = tempDir();
    const result = await handler(
      {
        commands: [
          { command: "echo first > order.txt; pwd" },
          { command: "echo second >> order.txt; cat order.txt" },
          { command: "echo out; echo err 1>&2; printf 'no newline'" },
        ],
      },
      contextFor(dir),
    );
    expect(result.isError).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(rowsOf(result)).toEqual([
      {
        index: 0,
        command: "echo first > order.txt; pwd",
        status: "ok",
        exit_code: 0,
        stdout: `${dir}\n`,
        stderr: "",
      },
      {
        index: 1,
        command: "echo second >> order.txt; cat order.txt",
        status: "ok",
        exit_code: 0,
        stdout: "first\nsecond\n",
        stderr: "",
      },
      {
        index: 2,
        command: "echo out; echo err 1>&2; printf 'no newline'",
        status: "ok",
        exit_code: 0,
        stdout: "out\nno newline",
        stderr: "err\n",
      },
    ]);
  });

  it("stops at the first failing command: later commands are skipped, not run", async () => {
    const dir = tempDir();
    const result = await handler(
      {
        commands: [{ command: "true" }, { command: "echo failing >&2; exit 3" }, { command: "touch marker" }],
      },
      contextFor(dir),
    );
    expect(result).toMatchObject({
      isError: true,
      code: "command_failed",
      exitCode: 3,
      signal: null,
      timedOut: false,
    });
    expect(rowsOf(result)).toEqual([
      { index: 0, command: "true", status: "ok", exit_code: 0, stdout: "", stderr: "" },
      {
        index: 1,
        command: "echo failing >&2; exit 3",
        status: "error",
        exit_code: 3,
        stdout: "",
        stderr: "failing\n",
      },
      {
        index: 2,
        command: "touch marker",
        status: "skipped",
        error: "prior_command_failure",
        stdout: "",
        stderr: "",
      },
    ]);
    expect(existsSync(join(dir, "marker"))).toBe(false);
  });

  it("a missing working directory is a spawn error row", async () => {
    const dir = tempDir();
    const result = await handler({ commands: [{ command: "true" }] }, contextFor(join(dir, "missing")));
    expect(result.code).toBe("spawn_error");
    expect(rowsOf(result)).toEqual([
      { index: 0, command: "true", status: "error", error: "ENOENT", stdout: "", stderr: "" },
    ]);
  });

  it("echoes at most 256 bytes of a command", async () => {
    const long = `echo ${"x".repeat(400)} > /dev/null`;
    const dir = tempDir();
    const result = await handler({ commands: [{ command: long }] }, contextFor(dir));
    const echoed = rowsOf(result)[0]?.command as string;
    expect(echoed).toBe(echoCommand(long));
    expect(Buffer.byteLength(echoed)).toBeLessThanOrEqual(256);
    expect(echoed.endsWith("…")).toBe(true);
  });
});

describe("bash: timeouts and abort stop the whole process group", () => {
  it("a timeout kills the shell and its grandchild", async () => {
    const dir = tempDir();
    const result = await handler(
      {
        commands: [
          { command: "sleep 1000 & echo $! > pid; sleep 1000", timeout_ms: 300 },
          { command: "true" },
        ],
      },
      contextFor(dir),
    );
    expect(result).toMatchObject({ isError: true, code: "command_timeout", timedOut: true });
    const rows = rowsOf(result);
    expect(rows[0]).toMatchObject({ status: "error", timed_out: true, signal: "SIGTERM" });
    expect(rows[1]).toMatchObject({ status: "skipped", error: "prior_command_failure" });
    expect(await gone(pidFrom(dir), 2_000)).toBe(true);
  });

  it("a grandchild that ignores SIGTERM is killed with SIGKILL after the grace period", async () => {
    const dir = tempDir();
    const result = await handler(
      { commands: [{ command: "(trap '' TERM; exec sleep 1000) & echo $! > pid; wait", timeout_ms: 200 }] },
      contextFor(dir),
    );
    expect(rowsOf(result)[0]).toMatchObject({ status: "error", timed_out: true });
    expect(await gone(pidFrom(dir), 3_000)).toBe(true);
  });

  it("the call's abort signal kills the running command and skips the rest", async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const running = handler(
      { commands: [{ command: "sleep 1000 & echo $! > pid; wait" }, { command: "touch marker" }] },
      contextFor(dir, { signal: controller.signal }),
    );
    while (!existsSync(join(dir, "pid")) || readFileSync(join(dir, "pid"), "utf8") === "") {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    controller.abort();
    const result = await running;
    expect(result.code).toBe("aborted");
    expect(rowsOf(result).map((row) => [row.status, row.error])).toEqual([
      ["error", "aborted"],
      ["skipped", "aborted"],
    ]);
    expect(existsSync(join(dir, "marker"))).toBe(false);
    expect(await gone(pidFrom(dir), 2_000)).toBe(true);
  });

  it("an abort before the start runs nothing", async () => {
    const dir = tempDir();
    const result = await handler(
      { commands: [{ command: "touch marker" }] },
      contextFor(dir, { signal: AbortSignal.abort() }),
    );
    expect(rowsOf(result)).toEqual([
      { index: 0, command: "touch marker", status: "skipped", error: "aborted", stdout: "", stderr: "" },
    ]);
    expect(existsSync(join(dir, "marker"))).toBe(false);
  });

  it("background processes left by a finished command are stopped", async () => {
    const dir = tempDir();
    const result = await handler(
      { commands: [{ command: "sleep 1000 > /dev/null 2>&1 & echo $! > pid" }] },
      contextFor(dir),
    );
    expect(rowsOf(result)[0]).toMatchObject({ status: "ok", exit_code: 0 });
    expect(await gone(pidFrom(dir), 3_000)).toBe(true);
  });
});

describe("bash: bounded output", () => {
  it("fits the rows to the output budget with a visible marker, keeping the start and the end", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "gen.sh"), "i=0; while [ $i -lt 5000 ]; do echo line$i; i=$((i+1)); done\n");
    const maxOutputBytes = 4096;
    const result = await handler(
      { commands: [{ command: "sh gen.sh" }, { command: "sh gen.sh 1>&2" }] },
      contextFor(dir, { maxOutputBytes }),
    );
    expect(result.isError).toBe(false);
    expect(result.truncated).toBe(true);
    const rows = rowsOf(result);
    expect(Buffer.byteLength(JSON.stringify({ results: rows }))).toBeLessThanOrEqual(maxOutputBytes);
    const out = rows[0]?.stdout as string;
    const err = rows[1]?.stderr as string;
    expect(rows[0]?.truncated).toBe(true);
    expect(rows[1]?.truncated).toBe(true);
    expect(out.startsWith("line0\nline1\n")).toBe(true);
    expect(out.endsWith("line4999\n")).toBe(true);
    expect(out).toMatch(/\n\[… \d+ bytes omitted …\]\n/);
    expect(err.startsWith("line0\n")).toBe(true);
    // The budget is shared: both outputs got a similar part.
    expect(Math.abs(out.length - err.length)).toBeLessThan(64);
  });

  it("keeps memory bounded while streaming a large output and never exceeds the budget", async () => {
    const dir = tempDir();
    const result = await handler(
      { commands: [{ command: "head -c 5000000 /dev/zero | tr '\\0' a; echo; echo tail-end" }] },
      contextFor(dir),
    );
    const rows = rowsOf(result);
    expect(Buffer.byteLength(JSON.stringify({ results: rows }))).toBeLessThanOrEqual(65_536);
    const out = rows[0]?.stdout as string;
    expect(out.endsWith("tail-end\n")).toBe(true);
    const omitted = Number(/\[… (\d+) bytes omitted …\]/.exec(out)?.[1]);
    expect(omitted + Buffer.byteLength(out.replace(/\n\[… \d+ bytes omitted …\]\n/, ""))).toBe(
      5_000_000 + 10,
    );
  });

  it("output_budget_too_small when even the rows without output cannot fit: nothing runs", async () => {
    const dir = tempDir();
    const result = await handler(
      { commands: [{ command: "touch marker" }] },
      contextFor(dir, { maxOutputBytes: 120 }),
    );
    expect(result).toEqual({
      isError: true,
      code: "output_budget_too_small",
      content: [{ type: "text", text: "batch status exceeds output budget" }],
    });
    expect(existsSync(join(dir, "marker"))).toBe(false);
  });

  it("renderWithin and shareBudget respect their budgets exactly", () => {
    expect(shareBudget([10, 1000, 1000], 610)).toEqual([10, 300, 300]);
    expect(shareBudget([5, 5], 100)).toEqual([5, 5]);
    const text = 'quote " back\\slash \t tab é 𝄞 \u0001 '.repeat(50);
    for (const budget of [0, 10, 40, 41, 100, 333, 1000]) {
      const rendered = renderWithin({ head: text, tail: "", omitted: 0 }, budget);
      expect(jsonLength(rendered.text)).toBeLessThanOrEqual(budget);
      expect(rendered.cut).toBe(true);
    }
    expect(renderWithin({ head: "short", tail: "", omitted: 0 }, 5)).toEqual({ text: "short", cut: false });
  });
});

describe("bash: arguments", () => {
  // What the input schema guarantees; dispatch checks it first, so validateArgs no longer repeats it.
  it.each([
    [null, ""],
    [{ commands: [{ command: "ls" }], extra: 1 }, ""],
    [{ commands: [] }, "/commands"],
    [{ commands: Array.from({ length: 17 }, () => ({ command: "true" })) }, "/commands"],
    [{ commands: ["ls"] }, "/commands/0"],
    [{ commands: [{ command: "ls", cwd: "/" }] }, "/commands/0"],
    [{ commands: [{ command: "" }] }, "/commands/0/command"],
    [{ commands: [{ command: "ls", timeout_ms: 0 }] }, "/commands/0/timeout_ms"],
    [{ commands: [{ command: "ls", timeout_ms: 600_001 }] }, "/commands/0/timeout_ms"],
    [{ commands: [{ command: "ls", timeout_ms: 1.5 }] }, "/commands/0/timeout_ms"],
  ])("the input schema rejects %j at %j", (args, path) => {
    expect(schemaRejects(BASH_INPUT_SCHEMA, args)).toContain(path);
  });

  // What only validateArgs checks: the schema accepts these.
  it.each([
    [{ commands: [{ command: "é".repeat(8193) }] }, "commands[0].command must be at most 16384 bytes"],
    [{ commands: [{ command: "ls" }, { command: "a\u0000b" }] }, "commands[1].command must not contain NUL"],
  ])("validateArgs(%j) → %s", (args, message) => {
    expect(schemaRejects(BASH_INPUT_SCHEMA, args)).toEqual([]);
    expect(validateArgs(args)).toBe(message);
  });

  it("accepts valid arguments", () => {
    const args = { commands: [{ command: "a".repeat(16_384), timeout_ms: 600_000 }] };
    expect(schemaRejects(BASH_INPUT_SCHEMA, args)).toEqual([]);
    expect(validateArgs(args)).toBeUndefined();
  });
});
