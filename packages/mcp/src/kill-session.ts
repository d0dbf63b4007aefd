import { readdirSync, readFileSync } from "node:fs";

/** Pids of the processes whose session id is `sessionId` (Linux `/proc/<pid>/stat`); empty where /proc is absent. */
export function sessionMembers(sessionId: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "latin1");
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[3]) === sessionId) out.push(Number(entry));
  }
  return out;
}

/**
 * Sends `signal` to the process group `leader` and to every process still in its session (a server started as a
 * session leader, amendment A7). Errors (already gone, not permitted) are ignored.
 */
export function signalSession(leader: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-leader, signal);
  } catch {
    // The group is gone.
  }
  for (const pid of sessionMembers(leader)) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}
