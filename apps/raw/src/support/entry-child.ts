import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import type { Issue } from "@raw/schema";
import type { EntryImporter, ToolSourceLocation } from "@raw/tool-api";
import { cliRoot } from "./paths.js";
import {
  leftoverPrestartedChild,
  type SpawnedValidateChild,
  spawnValidateChild,
  takePrestartedChild,
} from "./validate-prestart.js";

/** How long `raw validate` waits for one entry to import in its child process, by default (`--timeout`). */
export const ENTRY_IMPORT_TIMEOUT_MS = 10_000;

/** After the timeout, how long a child has to answer a ping (answering means its event loop is free). */
const PING_GRACE_MS = 250;

/**
 * How many child processes import entries at the same time. One: the entries of a run are small modules imported
 * one after the other in a process that is already running, and the second core is this process's own (reading and
 * checking the folders).
 */
const MAX_SHARED_CHILDREN = 1;

/**
 * The child script: `dist/validate-child.cjs` of the package (a small CommonJS script of its own, no `@raw/*` code,
 * loaded synchronously so that it listens before the first message is read).
 */
export function validateChildScript(): string {
  return join(cliRoot(), "dist", "validate-child.cjs");
}

interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One started child process and what it has done so far. */
interface Child {
  readonly process: ChildProcess;
  /** The two keys of its answers' MAC (sent to it before any entry is imported). */
  readonly k1: string;
  readonly k2: string;
  /** True while an import request is in flight (its window). */
  busy: boolean;
  /** Entries it was asked to import so far: a child with none is fresh. */
  imports: number;
  /** Killed, or to be killed: never given another entry. */
  retired: boolean;
  /** Bytes it wrote to stdout during the current window (and, before the first, since start). */
  stdoutBytes: number;
  spawnError: Error | undefined;
  readonly exited: Promise<ChildExit>;
}

function startChild(cwd: string): Child {
  return track(spawnValidateChild(validateChildScript(), cwd));
}

/** Takes a spawned child in hand: its keys (sent at once, before any import request), stdout count and exit. */
function track(spawned: SpawnedValidateChild): Child {
  const child = spawned.process;
  const state: Child = {
    process: child,
    k1: randomBytes(32).toString("hex"),
    k2: randomBytes(32).toString("hex"),
    busy: false,
    imports: 0,
    retired: false,
    stdoutBytes: 0,
    spawnError: spawned.spawnError,
    exited: new Promise((resolve) => {
      // It may have ended before this process listened (a prestarted child).
      if (spawned.spawnError !== undefined) resolve({ code: null, signal: null });
      else if (child.exitCode !== null || child.signalCode !== null)
        resolve({ code: child.exitCode, signal: child.signalCode });
      child.once("exit", (code, signal) => resolve({ code, signal }));
      child.once("error", (error) => {
        state.spawnError = error;
        resolve({ code: null, signal: null });
      });
    }),
  };
  child.stdout?.on("data", (chunk: Buffer) => {
    state.stdoutBytes += chunk.length;
    // Bytes between two imports cannot be attributed to an entry: the child is not used again.
    if (!state.busy) retire(state);
  });
  child.stderr?.resume();
  // The keys go first, before any import request: no entry's code is loaded in the child yet.
  if (child.connected) child.send({ type: "key", k1: state.k1, k2: state.k2 }, () => undefined);
  void state.exited.then(() => {
    state.retired = true;
  });
  return state;
}

/**
 * Retires a child: kills its whole process group (it is a session leader) and the child itself, and lets go of its
 * pipes without waiting for them to close (a daemon the entry started may hold them open).
 */
function retire(child: Child): void {
  if (child.retired && child.process.killed) return;
  child.retired = true;
  const pid = child.process.pid;
  if (pid !== undefined) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  child.process.kill("SIGKILL");
  child.process.stdout?.destroy();
  child.process.stderr?.destroy();
  if (child.process.connected) child.process.disconnect();
  child.process.unref();
}

/** A line and column in the entry file, as the child found them for a syntax error. */
interface EntryPosition {
  line: number;
  column: number;
}

type Outcome =
  | { kind: "imported"; exports: Record<string, string>; pristine: boolean }
  | { kind: "failed"; message: string; location: EntryPosition | undefined }
  | { kind: "exited"; exit: ChildExit }
  | { kind: "timeout"; responsive: boolean };

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** The answer's body when its MAC is the child's (`sha256(k2 + sha256(k1 + body))`), else undefined. */
function authenticated(child: Child, message: { body?: unknown; mac?: unknown }): unknown {
  if (typeof message.body !== "string" || typeof message.mac !== "string") return undefined;
  const expected = Buffer.from(sha256(child.k2 + sha256(child.k1 + message.body)), "hex");
  const given = Buffer.from(message.mac, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(message.body) as unknown;
  } catch {
    return undefined;
  }
}

function positionOf(location: unknown): EntryPosition | undefined {
  if (typeof location !== "object" || location === null) return undefined;
  const { line, column } = location as { line?: unknown; column?: unknown };
  return Number.isSafeInteger(line) &&
    Number.isSafeInteger(column) &&
    (line as number) > 0 &&
    (column as number) > 0
    ? { line: line as number, column: column as number }
    : undefined;
}

/** Waits for pipe data already on its way (a write of the entry happens before its answer is sent). */
function drain(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * One import window: sends the request, and resolves with the first of the authenticated answer, the child's exit
 * or the timeout (after which a ping tells a busy event loop from a promise that never settles).
 */
function runImport(child: Child, url: string, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const nonce = randomUUID();
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
    const onMessage = (message: { type?: unknown; body?: unknown; mac?: unknown } | null) => {
      if (message === null || typeof message !== "object") return;
      if (message.type === "pong") {
        pong = true;
        return;
      }
      if (message.type !== "answer") return;
      const body = authenticated(child, message) as {
        url?: unknown;
        nonce?: unknown;
        kind?: unknown;
        exports?: unknown;
        message?: unknown;
        location?: unknown;
        pristine?: unknown;
      } | null;
      // Anything the child's own script did not send for this very request is ignored.
      if (typeof body !== "object" || body === null || body.nonce !== nonce || body.url !== url) return;
      if (body.kind === "imported" && typeof body.exports === "object" && body.exports !== null) {
        finish({
          kind: "imported",
          exports: body.exports as Record<string, string>,
          pristine: body.pristine === true,
        });
      } else if (body.kind === "failed") {
        finish({ kind: "failed", message: String(body.message), location: positionOf(body.location) });
      }
    };
    child.process.on("message", onMessage);
    void child.exited.then((exit) => finish({ kind: "exited", exit }));
    timers.push(
      setTimeout(() => {
        if (child.process.connected) child.process.send({ type: "ping" }, () => undefined);
        timers.push(setTimeout(() => finish({ kind: "timeout", responsive: pong }), PING_GRACE_MS));
      }, timeoutMs),
    );
    if (child.process.connected) child.process.send({ type: "import", url, nonce }, () => undefined);
  });
}

/** What one attempt found: the outcome, the stdout bytes of its window, and whether the child was fresh. */
interface Attempt {
  outcome: Outcome;
  stdoutBytes: number;
  fresh: boolean;
  child: Child;
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
    if (!Object.hasOwn(exports, name)) continue;
    const kind = exports[name];
    if (kind === undefined || kind === "absent") continue;
    module[name] = (SAMPLES[kind] ?? SAMPLES.object)?.();
  }
  return module;
}

/** True when an attempt is a clean import: exports reported, no stdout byte, the child's loader untouched. */
function clean(attempt: Attempt): boolean {
  return attempt.outcome.kind === "imported" && attempt.outcome.pristine && attempt.stdoutBytes === 0;
}

/**
 * Imports tool entries for `raw validate` in a child process (a session leader, killed with everything it started
 * once the run is over), never in this process. One child imports the entries of a run in turn, with a timeout each;
 * its answers are authenticated with keys only it and this process know (see `validate-child.ts`).
 *
 * Attribution: an entry's outcome is its own only when it is a clean import, or when it happened on a fresh child
 * (one that imported nothing before). Any other outcome (a failure, an exit, a timeout, a byte on stdout, a changed
 * module loader) on a child that imported another entry before retires that child, and the entry is imported again
 * on a fresh child, whose outcome is reported. Stdout bytes belong to the window of the import in flight (the
 * parent waits for pipe data already on its way after each answer); bytes that arrive between two windows retire
 * the child without blaming anyone. After any outcome other than a clean import, the child is retired. An entry that
 * exits the process, writes to stdout, throws, never settles or keeps its event loop busy thus gives a coded issue
 * on its own folder and nothing else.
 */
export class EntryImportPool {
  private readonly shared: Child[] = [];
  private readonly waiting: Array<() => void> = [];
  private readonly all = new Set<Child>();
  private closed = false;
  /** The order (`importerFor`) whose turn it is to import, and the orders done before their turn came. */
  private turn = 0;
  private readonly finished = new Set<number>();
  private readonly turnWaiters = new Map<number, () => void>();

  constructor(
    expected: number,
    private readonly cwd: string,
    private readonly timeoutMs: number = ENTRY_IMPORT_TIMEOUT_MS,
  ) {
    // The child the binary started before loading this command (`prestartValidateChild`), if any.
    const early = takePrestartedChild(cwd);
    if (early !== undefined) this.adopt(track(early));
    else if (expected > 0) this.adopt(startChild(cwd));
  }

  private adopt(child: Child): Child {
    this.all.add(child);
    this.shared.push(child);
    return child;
  }

  private fresh(): Child {
    const child = startChild(this.cwd);
    this.all.add(child);
    return child;
  }

  /** A shared child that is idle and usable, starting one when fewer than the maximum are alive. */
  private async acquire(): Promise<Child> {
    for (;;) {
      for (let i = this.shared.length - 1; i >= 0; i--) if (this.shared[i]?.retired) this.shared.splice(i, 1);
      const idle = this.shared.find((child) => !child.busy);
      if (idle !== undefined) {
        idle.busy = true;
        return idle;
      }
      if (this.shared.length < MAX_SHARED_CHILDREN) {
        const child = this.adopt(startChild(this.cwd));
        child.busy = true;
        return child;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(child: Child): void {
    child.busy = false;
    this.waiting.shift()?.();
  }

  /** One import on `child` (marked busy), with its window's stdout bytes; retires the child unless it was clean. */
  private async attempt(child: Child, url: string): Promise<Attempt> {
    child.busy = true;
    const fresh = child.imports === 0;
    child.imports++;
    // Bytes written before the first window (by nobody's entry) count against the first one: it is fresh anyway.
    if (!fresh) child.stdoutBytes = 0;
    const outcome = child.retired
      ? await child.exited.then((exit): Outcome => ({ kind: "exited", exit }))
      : await runImport(child, url, this.timeoutMs);
    await drain();
    const attempt: Attempt = { outcome, stdoutBytes: child.stdoutBytes, fresh, child };
    if (!clean(attempt) || this.closed) retire(child);
    return attempt;
  }

  /**
   * Marks the path of `order` as done with the shared child (imported, or nothing to import): the next order's
   * import may start.
   */
  finish(order: number): void {
    if (order < this.turn) return;
    this.finished.add(order);
    while (this.finished.has(this.turn)) {
      this.finished.delete(this.turn);
      this.turn++;
    }
    this.turnWaiters.get(this.turn)?.();
  }

  private async waitTurn(order: number): Promise<void> {
    if (order < this.turn) return;
    while (order !== this.turn) {
      await new Promise<void>((resolve) => this.turnWaiters.set(order, resolve));
      this.turnWaiters.delete(order);
    }
  }

  /**
   * The `importEntry` option of `validateToolFolder` for the path of position `order` in the run: the shared child
   * imports the entries in the order of the paths (each path calls `finish(order)` when it is done), so that a run
   * always imports the same entries after the same ones.
   */
  importerFor(order: number): EntryImporter {
    return (url, tool) => this.importAt(order, url, tool.identity, tool.manifest.entry);
  }

  /** The `importEntry` option of `validateToolFolder`, for entries in no particular order. */
  readonly importEntry: EntryImporter = (url, tool) =>
    this.importAt(undefined, url, tool.identity, tool.manifest.entry);

  private async importAt(
    order: number | undefined,
    url: string,
    id: string,
    entry: string,
  ): Promise<Record<string, unknown>> {
    let attempt: Attempt;
    if (order !== undefined) await this.waitTurn(order);
    const child = await this.acquire();
    try {
      attempt = await this.attempt(child, url);
    } finally {
      this.release(child);
      if (order !== undefined) this.finish(order);
    }
    // Not the entry's own doing unless it happened on a fresh child: import it again on one.
    if (!clean(attempt) && !attempt.fresh) attempt = await this.attempt(this.fresh(), url);
    if (!attempt.child.retired && attempt.child !== child) retire(attempt.child);
    return this.verdict(attempt, id, entry);
  }

  private async verdict(attempt: Attempt, id: string, entry: string): Promise<Record<string, unknown>> {
    const { outcome, child } = attempt;
    // Loaded only now: the child starts before this process loads the validators (`@raw/schema` holds Ajv).
    const { ContractError } = await import("@raw/schema");
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
      if (outcome.location !== undefined) issue.location = { file: entry, ...outcome.location };
      throw new ContractError("entry_load_failed", message, [issue]);
    }
    if (attempt.stdoutBytes > 0) {
      throw new ContractError(
        "entry_wrote_stdout",
        `selected tool entry wrote ${attempt.stdoutBytes} bytes to stdout while loading: ${id}`,
      );
    }
    // On a fresh child, a changed module loader is the entry's own doing and does not change its exports.
    return standIn(outcome.exports);
  }

  /** Kills every child of the pool (and one started ahead of need that was never used), without waiting. */
  close(): void {
    this.closed = true;
    for (const child of this.all) if (!child.busy) retire(child);
    this.all.clear();
    const left = leftoverPrestartedChild();
    if (left !== undefined) retire(track(left));
  }
}
