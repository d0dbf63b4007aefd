/**
 * Issue 11, surface 7 (amendment A7) for the bundled `bash` tool: every command starts as the leader of a new
 * session, and when it ends for any reason (exit, timeout, abort) every process still in that session is killed —
 * not only its process group. Background jobs under `set -m` and `setpgid` children (perl, python) have groups of
 * their own and must not survive the call (checked by pid through /proc). A `setsid` child leaves the session:
 * the documented limit, pinned down by a test.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { handler } from "../../src/bash/index.js";
import { BASH_DESCRIPTION } from "../../src/bash/manifest.js";
import { contextFor, rowsOf, tempDir } from "../helpers.js";

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

/** Fields 3–6 of /proc/<pid>/stat (state, ppid, pgrp, session), read past the `(comm)` field. */
function stat(pid: number): { state: string; pgrp: number; session: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, , pgrp, session] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: state as string, pgrp: Number(pgrp), session: Number(session) };
  } catch {
    return undefined;
  }
}

/** True while `pid` runs (a zombie left for an init that does not reap counts as gone). */
function alive(pid: number): boolean {
  const s = stat(pid);
  return s !== undefined && s.state !== "Z" && s.state !== "X";
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !alive(pid);
}

/** The pid an escaping child wrote to `escaped.pid` in `dir`. */
function escaped(dir: string): number {
  const pid = Number(readFileSync(join(dir, "escaped.pid"), "utf8").trim());
  expect(Number.isSafeInteger(pid) && pid > 1).toBe(true);
  leftovers.push(pid);
  return pid;
}

const WAIT_FOR_PID = "i=0; while [ ! -s escaped.pid ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done";
const PERL = `perl -e 'setpgrp(0, 0); open(my $f, ">", "escaped.pid.tmp"); print $f $$; close($f); rename("escaped.pid.tmp", "escaped.pid"); sleep 300'`;
const PYTHON = `python3 -c 'import os, time; os.setpgid(0, 0); open("escaped.pid.tmp", "w").write(str(os.getpid())); os.rename("escaped.pid.tmp", "escaped.pid"); time.sleep(300)'`;

const ESCAPES: Array<[string, string]> = [
  [
    "a `set -m` background job",
    `bash -c 'set -m; sleep 300 </dev/null >/dev/null 2>&1 & echo $! > escaped.pid'`,
  ],
  ["a perl child that calls setpgrp", `${PERL} </dev/null >/dev/null 2>&1 &\n${WAIT_FOR_PID}`],
  ["a python child that calls os.setpgid(0, 0)", `${PYTHON} </dev/null >/dev/null 2>&1 &\n${WAIT_FOR_PID}`],
];

describe("A7: no process of a bash command's session outlives the command", () => {
  for (const [name, command] of ESCAPES) {
    it(`a command that exits 0 leaving ${name}: the child is killed`, async () => {
      const dir = tempDir();
      const result = await handler({ commands: [{ command, timeout_ms: 10_000 }] }, contextFor(dir));
      expect(rowsOf(result)[0]).toMatchObject({ status: "ok", exit_code: 0 });
      expect(await goneWithin(escaped(dir), 2_000)).toBe(true);
    });
  }

  it("the escaped job had its own process group in the command's session", async () => {
    const dir = tempDir();
    const command = `bash -c 'set -m; sleep 300 </dev/null >/dev/null 2>&1 & echo $! > escaped.pid'; echo $$; cat /proc/$(cat escaped.pid)/stat`;
    const result = await handler({ commands: [{ command }] }, contextFor(dir));
    const [shell, text] = String(rowsOf(result)[0]?.stdout ?? "").split("\n");
    const pid = escaped(dir);
    const fields = (text as string).slice((text as string).lastIndexOf(")") + 2).split(" ");
    expect(Number(fields[2])).toBe(pid);
    expect(Number(fields[3])).toBe(Number(shell));
    expect(await goneWithin(pid, 2_000)).toBe(true);
  });

  it("a timed-out command whose setpgid child ignores SIGTERM and holds stdout: the call ends, the child dies", async () => {
    const dir = tempDir();
    const command = `perl -e '$SIG{TERM} = "IGNORE"; setpgrp(0, 0); open(my $f, ">", "escaped.pid.tmp"); print $f $$; close($f); rename("escaped.pid.tmp", "escaped.pid"); sleep 300' &\n${WAIT_FOR_PID}\nsleep 300`;
    // The command sleeps 300 s and the child holds stdout: a call that waited for either would outlast the test's own
    // timeout, so the call's end itself shows the timeout ended it (no clock needed).
    const result = await handler({ commands: [{ command, timeout_ms: 1_000 }] }, contextFor(dir));
    expect(rowsOf(result)[0]).toMatchObject({ status: "error", timed_out: true });
    expect(await goneWithin(escaped(dir), 500)).toBe(true);
  });

  it("an aborted call: a `set -m` job of the running command is killed", async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const running = handler(
      {
        commands: [
          {
            command: `bash -c 'set -m; sleep 300 </dev/null >/dev/null 2>&1 & echo $! > escaped.pid'; sleep 300`,
          },
        ],
      },
      contextFor(dir, { signal: controller.signal }),
    );
    for (let i = 0; i < 200 && !existsSync(join(dir, "escaped.pid")); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    controller.abort();
    expect((await running).code).toBe("aborted");
    expect(await goneWithin(escaped(dir), 2_000)).toBe(true);
  });

  it("documented limit: a child that calls setsid leaves the session and survives the command", async () => {
    const dir = tempDir();
    const command = `setsid sh -c 'echo $$ > escaped.pid.tmp; mv escaped.pid.tmp escaped.pid; exec sleep 300' </dev/null >/dev/null 2>&1 &\n${WAIT_FOR_PID}\necho $$`;
    const result = await handler({ commands: [{ command, timeout_ms: 10_000 }] }, contextFor(dir));
    const shell = Number(String(rowsOf(result)[0]?.stdout ?? "").trim());
    const pid = escaped(dir);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(pid)).toBe(true);
    expect(stat(pid)?.session).toBe(pid);
    expect(stat(pid)?.session).not.toBe(shell);
  });

  it("the description promises the session sweep and states the setsid limit, not more", () => {
    expect(BASH_DESCRIPTION).toMatch(/session/);
    expect(BASH_DESCRIPTION).toMatch(/setsid/);
    expect(BASH_DESCRIPTION).not.toMatch(/Processes a command leaves running in the background are stopped/);
  });
});
