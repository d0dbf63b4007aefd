/**
 * The session sweep of amendment A7 (`process-session.ts`) against real processes: `/proc/<pid>/stat` parsed past a
 * `(comm)` holding spaces and parentheses, a session's processes found in every process group, killed in bounded
 * rounds, and the host's own session never touched.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  parseProcStat,
  readProcessStat,
  sessionProcesses,
  signalSession,
  sweepSession,
} from "../src/index.js";
import { isGone, tempFolder, waitGone } from "./helpers.js";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    if (child.pid === undefined) continue;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
});

/** Starts `command args` as the leader of a new session (`detached`), stdio ignored except stdout. */
function leader(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { detached: true, stdio: ["ignore", "pipe", "ignore"] });
  started.push(child);
  return child;
}

/** The first line the child prints. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const end = text.indexOf("\n");
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.once("error", reject);
  });
}

describe("parseProcStat", () => {
  it("reads the fields after the last `)`: comm may hold spaces and parentheses", () => {
    const text = "4242 (evil) 1 2 3 (x) y) S 17 4242 4240 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0\n";
    expect(parseProcStat(text)).toEqual({ pid: 4242, state: "S", ppid: 17, pgrp: 4242, session: 4240 });
  });

  it("refuses malformed text", () => {
    for (const text of ["", "garbage", "12 (x", "12 (x) S a b c", "x (y) S 1 2 3", "12 (x) 7 1 2 3"]) {
      expect(parseProcStat(text)).toBeUndefined();
    }
  });
});

describe("readProcessStat and sessionProcesses on real processes", () => {
  it("a process whose name holds spaces and parentheses: its session and group are read correctly", async () => {
    const dir = await tempFolder({}, "raw-proc-name-");
    // comm is the executable's base name (at most 15 bytes): ") S 1 2 (3) 4" looks like stat fields.
    const odd = join(dir, ") S 1 2 (3) 4");
    copyFileSync("/bin/sleep", odd);
    execFileSync("chmod", ["755", odd]);
    const child = leader("/bin/sh", ["-c", `"$0" 30 & echo $!; wait`, odd]);
    const pid = Number(await firstLine(child));
    const comm = () => readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    // Until the forked shell has called exec, its name is still `sh`.
    for (let i = 0; i < 100 && comm() !== ") S 1 2 (3) 4"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(comm()).toBe(") S 1 2 (3) 4");
    const stat = readProcessStat(pid);
    expect(stat).toMatchObject({ pid, pgrp: child.pid, session: child.pid });
    expect(stat?.ppid).toBe(child.pid);
    expect(sessionProcesses(child.pid as number).sort()).toEqual([child.pid, pid].sort());
  });

  it("finds a session's processes in every process group; sweepSession kills them all", async () => {
    const child = leader("/bin/sh", [
      "-c",
      `bash -c 'set -m; sleep 300 & echo $!'; perl -e 'setpgrp(0,0); print "$$\\n"; exec "sleep", "300"' & wait $!; sleep 300`,
    ]);
    const job = Number(await firstLine(child));
    let perl: number | undefined;
    for (let i = 0; i < 100 && perl === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      perl = sessionProcesses(child.pid as number).find(
        (pid) => pid !== child.pid && pid !== job && readProcessStat(pid)?.pgrp === pid,
      );
    }
    expect(perl).toBeDefined();
    expect(readProcessStat(job)?.pgrp).toBe(job);
    const members = sessionProcesses(child.pid as number);
    expect(members).toEqual(expect.arrayContaining([child.pid, job, perl]));
    const result = await sweepSession(child.pid as number);
    expect(result.survivors).toEqual([]);
    // The leader's own group (the shell) is killed first, in one signal; the two other groups by pid.
    expect(result.killed).toBeGreaterThanOrEqual(2);
    for (const pid of [child.pid as number, job, perl as number]) expect(await waitGone(pid)).toBe(true);
    expect(sessionProcesses(child.pid as number)).toEqual([]);
  });

  it("catches children forked while the sweep runs (a shell forking setpgid children in a loop)", async () => {
    const child = leader("/bin/sh", [
      "-c",
      `echo start; i=0; while [ $i -lt 400 ]; do perl -e 'setpgrp(0,0); sleep 300' & i=$((i+1)); sleep 0.01; done; wait`,
    ]);
    await firstLine(child);
    // Wait until the shell has forked a few children (slower on a loaded machine), then sweep while it forks more.
    // Short-lived `sleep` children come and go, so the count is judged on the value the loop saw: the shell plus at
    // least three more (two of them, at least, setpgid children that stay).
    const until = Date.now() + 10_000;
    let seen = sessionProcesses(child.pid as number).length;
    while (seen < 4 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen = sessionProcesses(child.pid as number).length;
    }
    expect(seen).toBeGreaterThanOrEqual(4);
    const result = await sweepSession(child.pid as number);
    expect(result.survivors).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sessionProcesses(child.pid as number)).toEqual([]);
  });

  it("never signals the host's own session, its own pid or ids that cannot be a child's session", async () => {
    // In a container the session leader can sit outside the pid namespace: /proc then reports session 0.
    const own = readProcessStat(process.pid)?.session as number;
    expect(own).toBeGreaterThanOrEqual(0);
    expect(signalSession(own, "SIGCONT")).toBe(0);
    expect(await sweepSession(own)).toEqual({ killed: 0, survivors: [] });
    expect(await sweepSession(process.pid)).toEqual({ killed: 0, survivors: [] });
    for (const id of [0, 1, -1, Number.NaN, 2 ** 53]) {
      expect(await sweepSession(id)).toEqual({ killed: 0, survivors: [] });
      expect(sessionProcesses(id)).toEqual([]);
    }
    expect(isGone(process.pid)).toBe(false);
  });

  it("a host that leads its own session (session id > 1) never signals or sweeps it", async () => {
    // A detached child leads a new session whatever the container does, so the own-session refusal is exercised
    // with a real, positive session id; the child runs the built package and reports what it saw.
    const script = `
      import { readProcessStat, signalSession, sweepSession } from ${JSON.stringify(join(import.meta.dirname, "../dist/index.js"))};
      const own = readProcessStat(process.pid)?.session;
      const signalled = signalSession(own, "SIGTERM");
      const swept = await sweepSession(own);
      console.log(JSON.stringify({ own, pid: process.pid, signalled, swept }));
    `;
    const child = leader(process.execPath, ["--input-type=module", "-e", script]);
    const report = JSON.parse(await firstLine(child)) as Record<string, unknown>;
    expect(report.own).toBe(report.pid);
    expect(report.own as number).toBeGreaterThan(1);
    expect(report.signalled).toBe(0);
    expect(report.swept).toEqual({ killed: 0, survivors: [] });
  });

  it("signalSession sends a signal once to every process of the session", async () => {
    const child = leader("/bin/sh", ["-c", `bash -c 'set -m; sleep 300 & echo $!'; sleep 300`]);
    const job = Number(await firstLine(child));
    // A harmless signal reaches every process (the shell, its children, the job in its own group)...
    expect(signalSession(child.pid as number, "SIGCONT")).toBeGreaterThanOrEqual(2);
    // ...and SIGTERM ends both. The group signal can end the shell before the walk of the session counts it, but the
    // job sits in its own group, which the group signal never reaches: the walk signals it, so the count is at least 1.
    expect(signalSession(child.pid as number, "SIGTERM")).toBeGreaterThanOrEqual(1);
    expect(await waitGone(job)).toBe(true);
    expect(await waitGone(child.pid as number)).toBe(true);
  });
});
