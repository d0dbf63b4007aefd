import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Issue } from "@raw/schema";
import type { EntryImporter, ToolSourceLocation } from "@raw/tool-api";
import { cliRoot } from "./paths.js";

/** How long `raw validate` waits for one entry to import in its child process, by default (`--timeout`). */
export const ENTRY_IMPORT_TIMEOUT_MS = 10_000;

/** After the timeout, how long a child has to answer a ping (answering means its event loop is free). */
const PING_GRACE_MS = 250;

/** After the child's group was killed, how long its output pipes may stay open before they are destroyed. */
const CLOSE_GRACE_MS = 200;

/** How many child processes are started ahead of need. */
const MAX_WARM_CHILDREN = 2;

/** The child script: `dist/validate-child.js` of the package (a small script of its own, no `@raw/*` code). */
export function validateChildScript(): string {
  return join(cliRoot(), "dist", "validate-child.js");
}

interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One started child process and what it has done so far. */
interface Child {
  readonly process: ChildProcess;
  ready: boolean;
  stdoutBytes: number;
  spawnError: Error | undefined;
  readonly exited: Promise<ChildExit>;
  readonly closed: Promise<void>;
}

function startChild(cwd: string): Child {
  const child = spawn(process.execPath, [validateChildScript()], {
    cwd,
    // The CI job's environment: validation runs entry code with it (see SECURITY.md).
    env: process.env,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    serialization: "json",
    // Its own session and process group, so that everything it starts is killed with it.
    detached: true,
  });
  const state: Child = {
    process: child,
    ready: false,
    stdoutBytes: 0,
    spawnError: undefined,
    exited: new Promise((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
      child.once("error", (error) => {
        state.spawnError = error;
        resolve({ code: null, signal: null });
      });
    }),
    closed: new Promise((resolve) => child.once("close", () => resolve())),
  };
  child.stdout?.on("data", (chunk: Buffer) => {
    state.stdoutBytes += chunk.length;
  });
  child.stderr?.resume();
  child.on("message", (message: { type?: unknown } | null) => {
    if (message?.type === "ready") state.ready = true;
  });
  return state;
}

/** Kills the child's whole process group (it is a session leader), then the child itself. */
function killChild(child: Child): void {
  const pid = child.process.pid;
  if (pid !== undefined) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  child.process.kill("SIGKILL");
}

async function settle(child: Child): Promise<void> {
  killChild(child);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    child.closed,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_GRACE_MS);
    }),
  ]);
  clearTimeout(timer);
  child.process.stdout?.destroy();
  child.process.stderr?.destroy();
  if (child.process.connected) child.process.disconnect();
}

/** A line and column in the entry file, as the child found them for a syntax error. */
interface EntryPosition {
  line: number;
  column: number;
}

type Outcome =
  | { kind: "imported"; exports: Record<string, string> }
  | { kind: "failed"; message: string; location: EntryPosition | undefined }
  | { kind: "exited"; exit: ChildExit }
  | { kind: "timeout"; responsive: boolean };

function runImport(child: Child, url: string, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const nonce = randomUUID();
    let sent = false;
    let pong = false;
    let done = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (outcome: Outcome) => {
      if (done) return;
      done = true;
      for (const timer of timers) clearTimeout(timer);
      child.process.off("message", onMessage);
      resolve(outcome);
    };
    const request = () => {
      if (sent || !child.process.connected) return;
      sent = true;
      child.process.send({ type: "import", url, nonce }, () => undefined);
    };
    const onMessage = (message: {
      type?: unknown;
      nonce?: unknown;
      exports?: unknown;
      message?: unknown;
      location?: { line?: unknown; column?: unknown };
    }) => {
      if (message === null || typeof message !== "object") return;
      if (message.type === "ready") request();
      else if (message.type === "pong") pong = true;
      else if (message.nonce !== nonce) return;
      else if (
        message.type === "imported" &&
        typeof message.exports === "object" &&
        message.exports !== null
      ) {
        finish({ kind: "imported", exports: message.exports as Record<string, string> });
      } else if (message.type === "failed") {
        const { line, column } = message.location ?? {};
        const location =
          Number.isSafeInteger(line) &&
          Number.isSafeInteger(column) &&
          (line as number) > 0 &&
          (column as number) > 0
            ? { line: line as number, column: column as number }
            : undefined;
        finish({ kind: "failed", message: String(message.message), location });
      }
    };
    child.process.on("message", onMessage);
    child.exited.then((exit) => finish({ kind: "exited", exit }));
    timers.push(
      setTimeout(() => {
        if (child.process.connected) child.process.send({ type: "ping" }, () => undefined);
        timers.push(setTimeout(() => finish({ kind: "timeout", responsive: pong }), PING_GRACE_MS));
      }, timeoutMs),
    );
    if (child.ready) request();
  });
}

/** A value of each export type the child reports, for the stand-in. */
const SAMPLES: Readonly<Record<string, () => unknown>> = {
  undefined: () => undefined,
  null: () => null,
  array: () => [],
  object: () => ({}),
  function: () => () => undefined,
  string: () => "",
  number: () => 0,
  bigint: () => 0n,
  boolean: () => false,
  symbol: () => Symbol("export"),
};

/**
 * A stand-in for the entry's module namespace whose exports have the same types as the real ones (what the loader
 * checks, and names in its hints): a string export is a string, a missing one is missing.
 */
function standIn(exports: Record<string, string>): Record<string, unknown> {
  const module: Record<string, unknown> = {};
  for (const name of ["handler", "validateArgs", "describeEffects", "default"]) {
    const kind = exports[name];
    if (kind === undefined || kind === "absent") continue;
    module[name] = (SAMPLES[kind] ?? SAMPLES.object)?.();
  }
  return module;
}

/**
 * Imports tool entries for `raw validate`, each in a fresh child process of its own (a session leader, killed with
 * everything it started once the answer is in): an entry that exits the process, writes to stdout, throws, never
 * settles or keeps its event loop busy gives a coded issue on its own folder and nothing else. Children are started
 * ahead of need (at most two), as soon as the command knows that entries will be imported.
 */
export class EntryImportPool {
  private readonly warm: Child[] = [];

  constructor(
    private expected: number,
    private readonly cwd: string,
    private readonly timeoutMs: number = ENTRY_IMPORT_TIMEOUT_MS,
  ) {
    this.fill();
  }

  private fill(): void {
    while (this.warm.length < Math.min(this.expected, MAX_WARM_CHILDREN))
      this.warm.push(startChild(this.cwd));
  }

  /** The `importEntry` option of `validateToolFolder`. */
  readonly importEntry: EntryImporter = async (url, tool) => {
    this.expected = Math.max(0, this.expected - 1);
    const child = this.warm.shift() ?? startChild(this.cwd);
    this.fill();
    const outcome = await runImport(child, url, this.timeoutMs);
    await settle(child);
    // Loaded only now: the child starts before this process loads the validators (`@raw/schema` holds Ajv).
    const { ContractError } = await import("@raw/schema");
    const id = tool.identity;
    if (outcome.kind === "exited") {
      if (child.spawnError !== undefined) {
        throw new Error(`cannot start the validation process: ${child.spawnError.message}`);
      }
      const how =
        outcome.exit.signal !== null ? `signal ${outcome.exit.signal}` : `exit code ${outcome.exit.code}`;
      throw new ContractError(
        "entry_exited",
        `selected tool entry ended the validation process while loading: ${id}: ${how}`,
      );
    }
    if (outcome.kind === "timeout") {
      const what = outcome.responsive ? "it never settled" : "it kept the event loop busy";
      throw new ContractError(
        "entry_timeout",
        `selected tool entry did not finish loading within ${this.timeoutMs} ms: ${id}: ${what}`,
      );
    }
    // The message is the entry's own text: every printer escapes issue messages as untrusted (A1).
    if (outcome.kind === "failed") {
      const message = `selected tool entry failed to load: ${id}: ${outcome.message}`;
      const issue: Issue & { location?: ToolSourceLocation } = {
        code: "entry_load_failed",
        message,
        path: "/entry",
      };
      if (outcome.location !== undefined) issue.location = { file: tool.manifest.entry, ...outcome.location };
      throw new ContractError("entry_load_failed", message, [issue]);
    }
    if (child.stdoutBytes > 0) {
      throw new ContractError(
        "entry_wrote_stdout",
        `selected tool entry wrote ${child.stdoutBytes} bytes to stdout while loading: ${id}`,
      );
    }
    return standIn(outcome.exports);
  };

  /** Kills the children started ahead of need that were not used. */
  close(): void {
    for (const child of this.warm.splice(0)) void settle(child);
  }
}
