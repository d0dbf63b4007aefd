/**
 * Issue 11, surface 7 (amendment A7): a hook starts as the leader of a new session, and when its run ends for any
 * reason every process still in that session is killed — not only its process group. A `set -m` background job,
 * a `setpgrp` (perl) or `os.setpgid(0, 0)` (python) child has its own process group but stays in the session: it
 * must not survive the run (checked by pid through /proc). A process that calls `setsid` leaves the session: that
 * is the documented limit, and a test pins it down.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runHook } from "../../src/index.js";
import { hookOf, isGone, prePayload, tempFolder, waitGone } from "../helpers.js";

/** Pids a test saw escape; killed afterwards so that a failing run leaves nothing behind. */
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

/** Field `index` (1-based, as in proc(5)) of /proc/<pid>/stat, read past the `(comm)` field. */
function statField(pid: number, index: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return Number(rest[index - 3]);
}

/** The pid a hook's escaping child wrote to `escaped.pid` (the hook waits for it before it ends). */
function escapedPid(dir: string): number {
  const pid = Number(readFileSync(join(dir, "escaped.pid"), "utf8").trim());
  expect(Number.isSafeInteger(pid) && pid > 1).toBe(true);
  leftovers.push(pid);
  return pid;
}

/** Shell lines that wait (5 s at most) until the escaping child has written its pid. */
const WAIT_FOR_PID = "i=0; while [ ! -s escaped.pid ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done";

/**
 * Children that leave the hook's process group but stay in its session. Each writes its own pid once it has its
 * own group, so the hook ends only after the escape happened.
 */
const GROUP_ESCAPES: Array<[string, string]> = [
  [
    "a `set -m` background job",
    `bash -c 'set -m; sleep 300 </dev/null >/dev/null 2>&1 & echo $! > escaped.pid'`,
  ],
  [
    "a perl child that calls setpgrp",
    `perl -e 'setpgrp(0, 0); open(my $f, ">", "escaped.pid.tmp"); print $f $$; close($f); rename("escaped.pid.tmp", "escaped.pid"); sleep 300' </dev/null >/dev/null 2>&1 &\n${WAIT_FOR_PID}`,
  ],
  [
    "a python child that calls os.setpgid(0, 0)",
    `python3 -c 'import os, time; os.setpgid(0, 0); open("escaped.pid.tmp", "w").write(str(os.getpid())); os.rename("escaped.pid.tmp", "escaped.pid"); time.sleep(300)' </dev/null >/dev/null 2>&1 &\n${WAIT_FOR_PID}`,
  ],
];

async function hookScript(body: string): Promise<string> {
  return tempFolder({ "hook.sh": `#!/bin/sh\ncat >/dev/null\n${body}\n` }, "raw-hook-session-");
}

describe("A7: no process of a hook's session outlives the run", () => {
  for (const [name, body] of GROUP_ESCAPES) {
    it(`a hook that exits cleanly leaving ${name}: the child is killed`, async () => {
      const dir = await hookScript(`${body}\necho '{}'`);
      const result = await runHook(hookOf(join(dir, "hook.sh"), [], 10_000), prePayload(dir));
      expect(result.outcome).toBe("continued");
      const pid = escapedPid(dir);
      expect(await waitGone(pid)).toBe(true);
    });
  }

  it("the escaped child really had left the hook's process group (while the hook still ran)", async () => {
    const dir = await hookScript(
      `bash -c 'set -m; sleep 300 </dev/null >/dev/null 2>&1 & echo $! > escaped.pid'\necho $$ > hook.pid\ncat /proc/$(cat escaped.pid)/stat > escaped.stat\necho '{}'`,
    );
    await runHook(hookOf(join(dir, "hook.sh"), [], 10_000), prePayload(dir));
    const pid = escapedPid(dir);
    const hook = Number(readFileSync(join(dir, "hook.pid"), "utf8"));
    const stat = readFileSync(join(dir, "escaped.stat"), "utf8");
    const [pgrp, session] = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .slice(2, 4)
      .map(Number);
    expect(pgrp).toBe(pid);
    expect(session).toBe(hook);
    expect(await waitGone(pid)).toBe(true);
  });

  it("a timed-out hook whose setpgid child holds stdout open: the run ends and the child is killed", async () => {
    const dir = await hookScript(
      `python3 -c 'import os, time; os.setpgid(0, 0); open("escaped.pid.tmp", "w").write(str(os.getpid())); os.rename("escaped.pid.tmp", "escaped.pid"); time.sleep(300)' &\n${WAIT_FOR_PID}\necho '{}'`,
    );
    // The hook and its child sleep 300 s and the child holds stdout: a run that waited for either would outlast the
    // test's own timeout, so the run's end itself shows the timeout ended it (no clock needed). The timeout leaves
    // python time to start and escape even on a loaded machine (over a second at a load of 12 on two cores).
    const result = await runHook(hookOf(join(dir, "hook.sh"), [], 3_000), prePayload(dir));
    expect(result.code).toBe("timeout");
    expect(await waitGone(escapedPid(dir))).toBe(true);
  });

  it("an aborted hook with a `set -m` job that ignores SIGTERM: the job is killed", async () => {
    const dir = await hookScript(
      `bash -c 'set -m; (trap "" TERM; exec sleep 300) & echo $! > escaped.pid'\nsleep 300`,
    );
    const controller = new AbortController();
    const running = runHook(hookOf(join(dir, "hook.sh"), [], 30_000), prePayload(dir), {
      signal: controller.signal,
    });
    // The shell creates escaped.pid before it writes the pid into it: wait for the pid itself.
    const written = () =>
      existsSync(join(dir, "escaped.pid")) && /\d/.test(readFileSync(join(dir, "escaped.pid"), "utf8"));
    for (let i = 0; i < 200 && !written(); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    controller.abort();
    expect((await running).code).toBe("aborted");
    expect(await waitGone(escapedPid(dir))).toBe(true);
  });

  it("documented limit: a child that calls setsid leaves the session and survives the run", async () => {
    const dir = await hookScript(
      `setsid sh -c 'echo $$ > escaped.pid.tmp; mv escaped.pid.tmp escaped.pid; exec sleep 300' </dev/null >/dev/null 2>&1 &\n${WAIT_FOR_PID}\necho $$ > hook.pid\necho '{}'`,
    );
    await runHook(hookOf(join(dir, "hook.sh"), [], 10_000), prePayload(dir));
    const pid = escapedPid(dir);
    const hook = Number(readFileSync(join(dir, "hook.pid"), "utf8"));
    // Precisely the limit: the process is alive and is the leader of a session other than the hook's.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isGone(pid)).toBe(false);
    expect(statField(pid, 6)).toBe(pid);
    expect(statField(pid, 6)).not.toBe(hook);
  });
});
