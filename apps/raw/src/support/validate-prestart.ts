import { type ChildProcess, spawn } from "node:child_process";

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

let early: { cwd: string; child: SpawnedValidateChild } | undefined;

/**
 * Starts the child process of `raw validate` before the command's modules load (called by the binary when its first
 * argument is `validate`); `script` is the child script next to the binary. The first pool of the process with the
 * same `cwd` takes it (`takePrestartedChild`).
 */
export function prestartValidateChild(script: string, cwd: string): void {
  early ??= { cwd, child: spawnValidateChild(script, cwd) };
}

/** The child started by `prestartValidateChild` for `cwd`, once; undefined when there is none (or another cwd). */
export function takePrestartedChild(cwd: string): SpawnedValidateChild | undefined {
  const taken = early?.cwd === cwd ? early.child : undefined;
  if (taken !== undefined) early = undefined;
  return taken;
}

/** The started child nobody took (the run imported no entry), to be killed. */
export function leftoverPrestartedChild(): SpawnedValidateChild | undefined {
  const left = early?.child;
  early = undefined;
  return left;
}
