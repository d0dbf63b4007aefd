import { readdirSync, readFileSync } from "node:fs";
import { MAX_SESSION_SWEEP_ROUNDS, SESSION_SWEEP_INTERVAL_MS } from "./limits.js";

/** The fields of `/proc/<pid>/stat` a session sweep needs (proc(5): fields 1, 3, 4, 5 and 6). */
export interface ProcessStat {
  /** Field 1: the process id. */
  readonly pid: number;
  /** Field 3: the state letter (`R`, `S`, `D`, `T`, `Z`, `X`, ...). */
  readonly state: string;
  /** Field 4: the parent's pid. */
  readonly ppid: number;
  /** Field 5: the process group id. */
  readonly pgrp: number;
  /** Field 6: the session id (the pid of the session leader). */
  readonly session: number;
}

/** What `sweepSession` did: how many kill signals it sent, and the processes still in the session at the end. */
export interface SessionSweepResult {
  /** `SIGKILL`s delivered. */
  readonly killed: number;
  /** Pids still in the session after the last round (empty when the sweep emptied it; always empty off Linux). */
  readonly survivors: readonly number[];
}

const DIGITS = /^[1-9][0-9]*$/;
const isLinux = process.platform === "linux";

function integer(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?[0-9]+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Parses the text of `/proc/<pid>/stat`. The second field, `(comm)`, is the executable name, which may contain
 * spaces and parentheses: the fields after it are read from the last `)`. Returns `undefined` for malformed text.
 */
export function parseProcStat(text: string): ProcessStat | undefined {
  const open = text.indexOf(" (");
  const close = text.lastIndexOf(")");
  if (open <= 0 || close < open + 1) return undefined;
  const pid = integer(text.slice(0, open));
  const rest = text.slice(close + 2).split(" ");
  const state = rest[0];
  const ppid = integer(rest[1]);
  const pgrp = integer(rest[2]);
  const session = integer(rest[3]);
  if (pid === undefined || state === undefined || !/^[A-Za-z]$/.test(state)) return undefined;
  if (ppid === undefined || pgrp === undefined || session === undefined) return undefined;
  return { pid, state, ppid, pgrp, session };
}

/** Reads and parses `/proc/<pid>/stat`; `undefined` when the process is gone, off Linux, or the text is malformed. */
export function readProcessStat(pid: number): ProcessStat | undefined {
  if (!isLinux || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

let ownSession: number | undefined;

/** The session id of this process (never swept). */
function hostSession(): number | undefined {
  ownSession ??= readProcessStat(process.pid)?.session;
  return ownSession;
}

/**
 * The live processes of session `sid` on Linux (found through `/proc/<pid>/stat`, field 6), in `/proc` order.
 * Zombies (`Z`) and dead entries (`X`) are left out: they have exited already. Never lists this process. Empty off
 * Linux.
 */
export function sessionProcesses(sid: number): number[] {
  if (!isLinux || !Number.isSafeInteger(sid) || sid <= 1) return [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of entries) {
    if (!DIGITS.test(entry)) continue;
    const stat = readProcessStat(Number(entry));
    if (stat === undefined || stat.session !== sid || stat.pid === process.pid) continue;
    if (stat.state === "Z" || stat.state === "X") continue;
    pids.push(stat.pid);
  }
  return pids;
}

/** True when `sid` names a session other than the host's own, so that signalling it cannot hit the host. */
function sweepable(sid: number): boolean {
  return Number.isSafeInteger(sid) && sid > 1 && sid !== process.pid && sid !== hostSession();
}

function send(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sends `signal` once to the process group `sid` and to every process of session `sid` (`/proc` on Linux; only the
 * group elsewhere). Returns how many processes of the session were signalled. Refuses (returns 0) the host's own
 * session and ids that cannot be a child's session.
 */
export function signalSession(sid: number, signal: NodeJS.Signals): number {
  if (!sweepable(sid)) return 0;
  send(-sid, signal);
  let sent = 0;
  for (const pid of sessionProcesses(sid)) if (send(pid, signal)) sent++;
  return sent;
}

/**
 * Kills every process left in session `sid` (amendment A7): the group `sid` first, then, on Linux, rounds of
 * listing the session through `/proc`, stopping each process (`SIGSTOP`: a stopped process cannot fork), listing
 * again to catch children forked meanwhile, and `SIGKILL` to all of them, until the session is empty or
 * `MAX_SESSION_SWEEP_ROUNDS` rounds have passed. A process that left the session (`setsid`, a daemon) is not
 * found: that is the limit of a session sweep. Never rejects; never signals the host's own session.
 */
export async function sweepSession(sid: number): Promise<SessionSweepResult> {
  if (!sweepable(sid)) return { killed: 0, survivors: [] };
  send(-sid, "SIGKILL");
  if (!isLinux) return { killed: 0, survivors: [] };
  let killed = 0;
  for (let round = 0; round < MAX_SESSION_SWEEP_ROUNDS; round++) {
    const first = sessionProcesses(sid);
    if (first.length === 0) return { killed, survivors: [] };
    for (const pid of first) send(pid, "SIGSTOP");
    const all = new Set([...first, ...sessionProcesses(sid)]);
    for (const pid of all) {
      send(pid, "SIGSTOP");
      if (send(pid, "SIGKILL")) killed++;
    }
    await new Promise((resolve) => setTimeout(resolve, SESSION_SWEEP_INTERVAL_MS));
  }
  return { killed, survivors: sessionProcesses(sid) };
}
