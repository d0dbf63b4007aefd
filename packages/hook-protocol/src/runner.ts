import { type ChildProcess, spawn } from "node:child_process";
import { ContractError } from "@raw/schema";
import {
  HOOK_KILL_GRACE_MS,
  HOOK_PROTOCOL_VERSION,
  HOOK_SETTLE_GRACE_MS,
  MAX_HOOK_INPUT_BYTES,
  MAX_HOOK_OUTPUT_BYTES,
  MAX_HOOK_STDERR_BYTES,
} from "./limits.js";
import type { HookManifest } from "./manifest.js";
import { sessionProcesses, signalSession, sweepSession } from "./process-session.js";
import {
  type HookErrorCode,
  type HookOutcome,
  type HookResponse,
  type HookRunFailure,
  hookErrorResponse,
  parseHookResponse,
} from "./response.js";

/** What the runner needs of a hook: its selection ID and the command part of its (relocated) manifest. */
export interface RunnableHook {
  /** The hook's selection ID. */
  readonly id: string;
  /** The manifest; `command` and `args` are spawned as they are (owned paths already relocated). */
  readonly manifest: Pick<HookManifest, "command" | "args" | "timeoutMs">;
}

/** The request `runHook` writes to stdin: at least the envelope's version and event. */
export interface RunnableHookPayload {
  readonly protocol_version: number;
  readonly event: string;
  readonly cwd?: string;
}

/** A hurry request: when `signal` fires, the hook keeps at most `graceMs` more milliseconds (hooks.md §9). */
export interface HookHurry {
  signal: AbortSignal;
  graceMs: number;
}

/** Options of `runHook`. */
export interface RunHookOptions {
  /** Working directory of the process (default: the request's `cwd`). */
  cwd?: string | undefined;
  /** The environment, passed as is (default: `process.env`); no variables are added. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Aborting it stops the hook with `aborted`; already aborted means nothing is spawned. */
  signal?: AbortSignal | undefined;
  /** Caller timeout in milliseconds; the effective timeout is `min(timeout_ms, timeoutMs)`. */
  timeoutMs?: number | undefined;
  /** Shortens the remaining time to `graceMs` once its signal fires. */
  hurry?: HookHurry | undefined;
}

/** The receipt every executed hook leaves (hooks.md §13). */
export interface HookReceipt {
  /** The hook's selection ID. */
  id: string;
  /** The event name. */
  event: string;
  /** `continued`, `denied` or `error`. */
  outcome: HookOutcome;
  /** Elapsed time in integer milliseconds. */
  durationMs: number;
  /** The hook's non-empty message (outcomes `continued` and `denied`). */
  message?: string;
  /** The error code (outcome `error`). */
  code?: HookErrorCode;
  /** The last at most 4096 bytes of stderr (outcome `error`, non-empty stderr); never sent to a model or hook. */
  stderr?: string;
}

/** The result of one hook run: the interpreted response and its receipt. */
export interface HookRunResult extends HookResponse {
  /** The receipt of this run. */
  receipt: HookReceipt;
}

const isWindows = process.platform === "win32";
const stderrDecoder = new TextDecoder("utf-8");

/** Makes the receipt and the result of a run. */
function finish(
  id: string,
  event: string,
  start: number,
  response: HookResponse,
  stderr: string | undefined,
): HookRunResult {
  const receipt: HookReceipt = {
    id,
    event,
    outcome: response.outcome,
    durationMs: Math.round(performance.now() - start),
  };
  if (response.outcome === "error") {
    if (response.code) receipt.code = response.code;
    if (stderr) receipt.stderr = stderr;
  } else if (response.message) {
    receipt.message = response.message;
  }
  return { ...response, receipt };
}

/** The last at most 4096 bytes of stderr, starting on a UTF-8 character boundary. */
function stderrTail(chunks: Buffer[], trimmed: boolean): string | undefined {
  if (chunks.length === 0) return undefined;
  let bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  if (bytes.length > MAX_HOOK_STDERR_BYTES) {
    bytes = bytes.subarray(bytes.length - MAX_HOOK_STDERR_BYTES);
    trimmed = true;
  }
  if (trimmed) {
    let skip = 0;
    while (skip < 3 && skip < bytes.length && ((bytes[skip] as number) & 0xc0) === 0x80) skip++;
    bytes = bytes.subarray(skip);
  }
  return bytes.length > 0 ? stderrDecoder.decode(bytes) : undefined;
}

/**
 * Sends `sig` to the child's whole session (POSIX: its process group, and on Linux every process whose session id
 * is the child's pid, A7) or kills its tree (Windows).
 */
function killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (isWindows) {
    if (sig !== "SIGTERM") return;
    try {
      const killer = spawn("taskkill", ["/pid", String(pid), "/T", "/F"], {
        stdio: "ignore",
        windowsHide: true,
      });
      killer.on("error", () => child.kill());
    } catch {
      child.kill();
    }
    return;
  }
  signalSession(pid, sig);
}

/** True while the child's process group or (Linux) any process of its session is alive. */
function sessionAlive(child: ChildProcess): boolean {
  const pid = child.pid;
  if (pid === undefined || isWindows) return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return sessionProcesses(pid).length > 0;
  }
}

/**
 * Runs one hook as a real process (hooks.md §9): `command` and `args` spawned with no shell, from the request's
 * `cwd`, as the leader of a new session, with the request as one JSON line on stdin. Output is bounded while it
 * streams; the timeout, the abort signal and every other failure stop the whole session (`SIGTERM`, then `SIGKILL`
 * 500 ms later), and when the run ends for any reason every process still in the session is killed (A7). Resolves to the interpreted response and its receipt; rejects only for a request that is not a
 * `protocol_version: 2` object or cannot be serialized.
 */
export function runHook(
  hook: RunnableHook,
  payload: RunnableHookPayload,
  options: RunHookOptions = {},
): Promise<HookRunResult> {
  const start = performance.now();
  const id = hook.id;
  const event = payload?.event;
  if (payload?.protocol_version !== HOOK_PROTOCOL_VERSION) {
    return Promise.reject(
      new ContractError("hook_protocol_version_unsupported", `hook ${id} requires protocol_version 2`),
    );
  }
  let line: string;
  try {
    line = `${JSON.stringify(payload)}\n`;
  } catch (error) {
    return Promise.reject(error);
  }
  const { signal, hurry } = options;
  if (signal?.aborted)
    return Promise.resolve(finish(id, event, start, hookErrorResponse(id, "aborted"), undefined));
  if (line.length * 3 > MAX_HOOK_INPUT_BYTES && Buffer.byteLength(line) > MAX_HOOK_INPUT_BYTES) {
    return Promise.resolve(finish(id, event, start, hookErrorResponse(id, "input_too_large"), undefined));
  }
  const { command, args, timeoutMs } = hook.manifest;
  const cwd = options.cwd ?? payload.cwd;
  const limit = options.timeoutMs === undefined ? timeoutMs : Math.min(timeoutMs, options.timeoutMs);

  return new Promise<HookRunResult>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(command, args as string[], {
        cwd,
        env: options.env ?? process.env,
        stdio: "pipe",
        detached: !isWindows,
        windowsHide: true,
      });
    } catch {
      resolve(finish(id, event, start, hookErrorResponse(id, "spawn"), undefined));
      return;
    }
    const stdin = child.stdin!;
    const stdout = child.stdout!;
    const stderr = child.stderr!;

    let failure: HookRunFailure | undefined;
    let settled = false;
    let closed = false;
    let killed = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let outBytes = 0;
    const outChunks: Buffer[] = [];
    const errChunks: Buffer[] = [];
    let errKept = 0;
    let errTrimmed = false;
    let deadline = performance.now() + limit;
    let timer: NodeJS.Timeout | undefined = setTimeout(() => fail("timeout"), limit);
    let killTimer: NodeJS.Timeout | undefined;
    let settleTimer: NodeJS.Timeout | undefined;

    const settle = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      clearTimeout(settleTimer);
      signal?.removeEventListener("abort", onAbort);
      hurry?.signal.removeEventListener("abort", onHurry);
      stdout.removeListener("data", onStdout);
      stderr.removeListener("data", onStderr);
      stdin.destroy();
      stdout.destroy();
      stderr.destroy();
      const stdoutBytes = outChunks.length === 1 ? (outChunks[0] as Buffer) : Buffer.concat(outChunks);
      const response = parseHookResponse(event, {
        stdout: stdoutBytes,
        exitCode,
        signal: exitSignal,
        failure,
        id,
      });
      const result = finish(id, event, start, response, stderrTail(errChunks, errTrimmed));
      // Whatever the hook left running in its session (children that let go of the pipes, background jobs and
      // `setpgid` children in groups of their own) is killed before the run resolves: no process of a hook outlives
      // its run, finished or stopped, except one that left the session (A7).
      if (isWindows || child.pid === undefined) resolve(result);
      else
        void sweepSession(child.pid).then(
          () => resolve(result),
          () => resolve(result),
        );
    };

    const fail = (code: HookRunFailure): void => {
      if (failure || settled) return;
      failure = code;
      outChunks.length = 0;
      clearTimeout(timer);
      stdin.destroy();
      killGroup(child, "SIGTERM");
      killTimer = setTimeout(() => {
        killed = true;
        killGroup(child, "SIGKILL");
        if (closed) settle();
      }, HOOK_KILL_GRACE_MS);
      settleTimer = setTimeout(settle, HOOK_SETTLE_GRACE_MS);
    };

    const onAbort = (): void => fail("aborted");
    const onHurry = (): void => {
      if (failure || settled) return;
      const grace = Math.max(0, hurry!.graceMs);
      if (deadline - performance.now() <= grace) return;
      clearTimeout(timer);
      deadline = performance.now() + grace;
      timer = setTimeout(() => fail("timeout"), grace);
    };
    const onStdout = (chunk: Buffer): void => {
      if (failure) return;
      outBytes += chunk.length;
      if (outBytes > MAX_HOOK_OUTPUT_BYTES) fail("output_too_large");
      else outChunks.push(chunk);
    };
    const onStderr = (chunk: Buffer): void => {
      if (!failure) {
        outBytes += chunk.length;
        if (outBytes > MAX_HOOK_OUTPUT_BYTES) fail("output_too_large");
      }
      errChunks.push(chunk);
      errKept += chunk.length;
      while (errChunks.length > 1 && errKept - (errChunks[0] as Buffer).length >= MAX_HOOK_STDERR_BYTES) {
        errKept -= (errChunks.shift() as Buffer).length;
        errTrimmed = true;
      }
    };

    child.on("error", () => {
      // Before a pid exists the process never started; later errors (a failed kill) change nothing.
      if (child.pid === undefined && !failure && !settled) {
        failure = "spawn";
        settle();
      }
    });
    child.on("close", (code: number | null, sig: NodeJS.Signals | null) => {
      closed = true;
      if (child.pid === undefined && !failure) failure = "spawn";
      exitCode = code;
      exitSignal = sig;
      if (!failure || killed || !sessionAlive(child)) settle();
    });
    stdin.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") fail("stdin");
    });
    stdout.on("error", () => fail("io"));
    stderr.on("error", () => fail("io"));
    stdout.on("data", onStdout);
    stderr.on("data", onStderr);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (hurry) {
      if (hurry.signal.aborted) onHurry();
      else hurry.signal.addEventListener("abort", onHurry, { once: true });
    }
    stdin.end(line);
  });
}
