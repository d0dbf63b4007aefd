import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";

/** A child process of `raw validate` as spawned, with what happened to it before anyone listened. */
export interface SpawnedValidateChild {
  readonly process: ChildProcess;
  /** Set when the spawn failed (`error` event). */
  spawnError: Error | undefined;
}

/**
 * Spawns the child process of `raw validate` (`script`, the built `validate-child.cjs`) in `cwd`, in a session and
 * process group of its own, with the CI job's environment, stdout and stderr as pipes and an IPC channel. Kept in a
 * module of its own with no other import, so that the binary can start the child before it loads anything else.
 */
export function spawnValidateChild(script: string, cwd: string): SpawnedValidateChild {
  const child = spawn(process.execPath, [script], {
    cwd,
    // The CI job's environment: validation runs entry code with it (see SECURITY.md).
    env: process.env,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    serialization: "json",
    // Its own session and process group, so that everything it starts is killed with it.
    detached: true,
  });
  const spawned: SpawnedValidateChild = { process: child, spawnError: undefined };
  child.once("error", (error) => {
    spawned.spawnError = error;
  });
  return spawned;
}

/**
 * The started child nobody took yet, kept on a global key: the binary loads this module through the small
 * `@raw/validate/prestart` entry and the pool through the package root, two copies of this module in one process.
 */
const EARLY = Symbol.for("@raw/validate.prestarted-child");
type Early = { cwd: string; child: SpawnedValidateChild } | undefined;
const state = globalThis as unknown as Record<typeof EARLY, Early>;

/**
 * Lets `child` keep this process's event loop alive, or not (`hold`): the process handle, its pipes and its IPC
 * channel. A pre-started child nobody took yet holds nothing, so that a run that ends before it needs the child
 * (`--help`, a usage error) exits at once.
 */
function holdLoop(child: ChildProcess, hold: boolean): void {
  // The pipes are sockets (`stdio: "pipe"`), typed as plain readables.
  const pipes = [child.stdout, child.stderr] as unknown as Array<Socket | null>;
  for (const handle of [child, ...pipes, child.channel]) {
    if (handle === null || handle === undefined) continue;
    if (hold) handle.ref();
    else handle.unref();
  }
}

/** Kills a spawned child's whole process group (it is a session leader) and the child, without waiting. */
export function killValidateChild(child: ChildProcess): void {
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  child.kill("SIGKILL");
}

/**
 * Starts the child process of `raw validate` before the command's modules load (called by the binary when its first
 * argument is `validate`); `script` is the child script next to the binary. The first pool of the process with the
 * same `cwd` takes it (`takePrestartedChild`). Until then it does not keep the process alive, and it is killed when
 * the process exits without having taken it (a usage error, `--help`, a run that imported no entry).
 */
export function prestartValidateChild(script: string, cwd: string): void {
  if (state[EARLY] !== undefined) return;
  const early = { cwd, child: spawnValidateChild(script, cwd) };
  state[EARLY] = early;
  holdLoop(early.child.process, false);
  process.once("exit", stopPrestartedChild);
}

/**
 * The child started by `prestartValidateChild` for `cwd`, once; undefined when there is none (or another cwd). The
 * taker holds the process's event loop again, like a child it started itself, and must kill it when done.
 */
export function takePrestartedChild(cwd: string): SpawnedValidateChild | undefined {
  const early = state[EARLY];
  const taken = early?.cwd === cwd ? early.child : undefined;
  if (taken !== undefined) {
    state[EARLY] = undefined;
    process.removeListener("exit", stopPrestartedChild);
    holdLoop(taken.process, true);
  }
  return taken;
}

/** Kills the started child nobody took (the run imported no entry, or ended before it needed one). */
export function stopPrestartedChild(): void {
  const left = state[EARLY]?.child;
  state[EARLY] = undefined;
  process.removeListener("exit", stopPrestartedChild);
  if (left === undefined) return;
  killValidateChild(left.process);
  left.process.stdout?.destroy();
  left.process.stderr?.destroy();
  if (left.process.connected) left.process.disconnect();
}
