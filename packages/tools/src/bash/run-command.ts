import { type ChildProcess, spawn } from "node:child_process";
import { signalSession, sweepSession } from "@raw/hook-protocol";
import { thrownCode } from "../shared/results.js";
import { type CapturedText, StreamCapture } from "./capture.js";
import { BASH_KILL_GRACE_MS, BASH_SETTLE_GRACE_MS } from "./limits.js";

/** How one command ended. */
export interface CommandOutcome {
  /** The exit status, when the shell exited normally. */
  readonly exitCode?: number;
  /** The signal that ended the shell. */
  readonly signal?: string;
  /** The per-command timeout elapsed and the process group was stopped. */
  readonly timedOut: boolean;
  /** The call's signal aborted and the process group was stopped. */
  readonly aborted: boolean;
  /** The shell could not be started: the OS error code (or `spawn_error`). */
  readonly spawnError?: string;
  readonly stdout: CapturedText;
  readonly stderr: CapturedText;
}

/** Options of `runCommand`. */
export interface RunCommandOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Bytes kept per stream while streaming. */
  readonly captureBytes: number;
  readonly signal?: AbortSignal | undefined;
  /** Grace between `SIGTERM` and `SIGKILL` (default `BASH_KILL_GRACE_MS`). */
  readonly killGraceMs?: number;
}

const SPAWN_CODE = /^[A-Za-z0-9_]{1,64}$/;

/** Sends `signal` to the command's process group and (Linux) to every other process of its session (A7). */
function sendToSession(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid !== undefined) signalSession(child.pid, signal);
}

/**
 * Runs `command` with `/bin/sh -c` as the leader of a new session from `cwd`, stdin closed, stdout and stderr
 * captured separately and bounded while streaming. The timeout and `signal` stop the whole session: `SIGTERM`,
 * then `SIGKILL` after the grace period. When the shell ends by itself, whatever it left running in its session is
 * stopped the same way, and before the outcome resolves every process still in the session is killed
 * (`sweepSession` of `@raw/hook-protocol`, amendment A7; on Linux it finds background jobs and `setpgid` children
 * in groups of their own). A process that calls `setsid` leaves the session and is not found.
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandOutcome> {
  const stdout = new StreamCapture(options.captureBytes);
  const stderr = new StreamCapture(options.captureBytes);
  const killGrace = options.killGraceMs ?? BASH_KILL_GRACE_MS;
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn("/bin/sh", ["-c", command], {
        cwd: options.cwd,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      const code = thrownCode(error);
      resolve({
        timedOut: false,
        aborted: false,
        spawnError: code !== undefined && SPAWN_CODE.test(code) ? code : "spawn_error",
        stdout: stdout.text(),
        stderr: stderr.text(),
      });
      return;
    }
    let settled = false;
    let stopping = false;
    let timedOut = false;
    let aborted = false;
    let spawnError: string | undefined;
    let exitCode: number | undefined;
    let exitSignal: string | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let settleTimer: NodeJS.Timeout | undefined;

    const stop = () => {
      if (stopping) return;
      stopping = true;
      sendToSession(child, "SIGTERM");
      killTimer = setTimeout(() => sendToSession(child, "SIGKILL"), killGrace);
      settleTimer = setTimeout(finish, killGrace + BASH_SETTLE_GRACE_MS);
    };
    const onAbort = () => {
      if (settled || stopping) return;
      aborted = true;
      stop();
    };
    const timer = setTimeout(() => {
      if (settled || stopping) return;
      timedOut = true;
      stop();
    }, options.timeoutMs);

    function finish() {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (settleTimer !== undefined) clearTimeout(settleTimer);
      options.signal?.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (killTimer !== undefined) clearTimeout(killTimer);
      const outcome: {
        -readonly [K in keyof CommandOutcome]: CommandOutcome[K];
      } = { timedOut, aborted, stdout: stdout.text(), stderr: stderr.text() };
      if (exitCode !== undefined) outcome.exitCode = exitCode;
      if (exitSignal !== undefined) outcome.signal = exitSignal;
      if (spawnError !== undefined) outcome.spawnError = spawnError;
      // Nothing of the command outlives it: whatever is still in its session is killed before it resolves.
      if (child.pid === undefined) resolve(outcome);
      else
        void sweepSession(child.pid).then(
          () => resolve(outcome),
          () => resolve(outcome),
        );
    }

    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdout?.on("error", () => undefined);
    child.stderr?.on("error", () => undefined);
    child.once("error", (error) => {
      if (child.pid === undefined) {
        const code = thrownCode(error);
        spawnError = code !== undefined && SPAWN_CODE.test(code) ? code : "spawn_error";
        finish();
      }
    });
    child.once("exit", (code, signal) => {
      if (code !== null) exitCode = code;
      if (signal !== null) exitSignal = signal;
      // Stop whatever the command left running in its group (background jobs holding the pipes included).
      stop();
    });
    child.once("close", finish);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
