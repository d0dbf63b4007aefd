import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Issue } from "@raw/schema";
import type { EntryImporter, ToolSourceLocation } from "@raw/tool-api";
import { childScriptPath } from "./child-path.js";
import {
  killValidateChild,
  type SpawnedValidateChild,
  spawnValidateChild,
  stopPrestartedChild,
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
 * How many import requests a shared child holds at once: the one it imports and the next, so that it starts the
 * next entry as soon as it answered instead of waiting for this process to read the answer.
 */
const MAX_PIPELINED_IMPORTS = 2;

/**
 * The child script: `dist/validate-child.cjs` of the package (a small CommonJS script of its own, no `@raw/*` code,
 * loaded synchronously so that it listens before the first message is read).
 */
export function validateChildScript(): string {
  return childScriptPath();
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
  /** Import requests sent to it and not settled yet, in the order it imports them; the first one is running. */
  readonly queue: Pending[];
  /** Authenticated answers that arrived before their request was first in the queue, by nonce. */
  readonly early: Map<string, Outcome>;
  /** Requests sent to it so far: the first one is the only one that ran on a fresh child. */
  sent: number;
  /** Killed, or to be killed: never given another entry. */
  retired: boolean;
  /** A dedicated child: it imports one entry and nothing else (a retry). */
  readonly dedicated: boolean;
  /** Bytes it wrote to stdout since the first request in the queue started. */
  stdoutBytes: number;
  /** True once it answered a ping since the current timeout fired. */
  pong: boolean;
  spawnError: Error | undefined;
  exit: ChildExit | undefined;
  readonly exited: Promise<ChildExit>;
}

/** One import request in flight on a child. */
interface Pending {
  readonly url: string;
  readonly nonce: string;
  /** The first request of its child. */
  readonly first: boolean;
  /** No other request was sent to its child while this one was in flight. */
  alone: boolean;
  readonly timeoutMs: number;
  timers: NodeJS.Timeout[];
  settling: boolean;
  readonly resolve: (attempt: Attempt) => void;
}

function startChild(cwd: string, dedicated = false): Child {
  return track(spawnValidateChild(validateChildScript(), cwd), dedicated);
}

/** Takes a spawned child in hand: its keys (sent at once, before any import request), stdout count and exit. */
function track(spawned: SpawnedValidateChild, dedicated = false): Child {
  const child = spawned.process;
  const state: Child = {
    process: child,
    k1: randomBytes(32).toString("hex"),
    k2: randomBytes(32).toString("hex"),
    queue: [],
    early: new Map(),
    sent: 0,
    retired: false,
    dedicated,
    stdoutBytes: 0,
    pong: false,
    spawnError: spawned.spawnError,
    exit: undefined,
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
    // Bytes while no import runs cannot be attributed to an entry: the child is not used again.
    if (state.queue.length === 0) retire(state);
  });
  child.stderr?.resume();
  child.on("message", (message: { type?: unknown; body?: unknown; mac?: unknown } | null) =>
    onChildMessage(state, message),
  );
  // The keys go first, before any import request: no entry's code is loaded in the child yet.
  if (child.connected) child.send({ type: "key", k1: state.k1, k2: state.k2 }, () => undefined);
  void state.exited.then((exit) => {
    state.exit = exit;
    state.retired = true;
    // Whatever was in flight ends with the child.
    for (const pending of [...state.queue]) void settle(state, pending, { kind: "exited", exit });
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
  killValidateChild(child.process);
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
  | { kind: "timeout"; responsive: boolean }
  | { kind: "retired" };

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

/** What an authenticated answer body says, or undefined when it says nothing usable. */
function outcomeOf(body: {
  kind?: unknown;
  exports?: unknown;
  message?: unknown;
  location?: unknown;
  pristine?: unknown;
}): Outcome | undefined {
  if (body.kind === "imported" && typeof body.exports === "object" && body.exports !== null) {
    return {
      kind: "imported",
      exports: body.exports as Record<string, string>,
      pristine: body.pristine === true,
    };
  }
  if (body.kind === "failed") {
    return { kind: "failed", message: String(body.message), location: positionOf(body.location) };
  }
  return undefined;
}

/**
 * A message from a child: a pong, or an answer. Only an answer the child's own script sent (its MAC) for a request
 * in flight on that child (its nonce and URL) counts; anything else is ignored.
 */
function onChildMessage(
  child: Child,
  message: { type?: unknown; body?: unknown; mac?: unknown } | null,
): void {
  if (message === null || typeof message !== "object") return;
  if (message.type === "pong") {
    child.pong = true;
    return;
  }
  if (message.type !== "answer") return;
  const body = authenticated(child, message) as
    | ({ url?: unknown; nonce?: unknown } & Parameters<typeof outcomeOf>[0])
    | null;
  if (typeof body !== "object" || body === null || typeof body.nonce !== "string") return;
  const pending = child.queue.find((entry) => entry.nonce === body.nonce);
  if (pending === undefined || body.url !== pending.url) return;
  const outcome = outcomeOf(body);
  if (outcome === undefined) return;
  if (child.queue[0] === pending) void settle(child, pending, outcome);
  else child.early.set(pending.nonce, outcome);
}

/** What one attempt found: the outcome, the stdout bytes of its window, and whether it is the entry's own doing. */
interface Attempt {
  outcome: Outcome;
  stdoutBytes: number;
  /** It ran alone on a fresh child: nothing but this entry can have caused the outcome. */
  own: boolean;
  child: Child;
}

/** Waits for pipe data already on its way (a write of the entry happens before its answer is sent). */
function drain(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** Starts the timeout of the request now first in its child's queue (the one the child is importing). */
function startHead(child: Child, timeoutMs: number): void {
  const head = child.queue[0];
  // A head that is settling (waiting for its pipe data) has its outcome already: no timer.
  if (head === undefined || head.settling || head.timers.length > 0) return;
  child.stdoutBytes = 0;
  const early = child.early.get(head.nonce);
  if (early !== undefined) {
    child.early.delete(head.nonce);
    void settle(child, head, early);
    return;
  }
  head.timers.push(
    setTimeout(() => {
      child.pong = false;
      if (child.process.connected) child.process.send({ type: "ping" }, () => undefined);
      head.timers.push(
        setTimeout(
          () => void settle(child, head, { kind: "timeout", responsive: child.pong }),
          PING_GRACE_MS,
        ),
      );
    }, timeoutMs),
  );
}

/**
 * Settles a request: for the one the child is importing, after pipe data already on its way arrived (so its stdout
 * bytes are counted); any outcome other than a clean import retires the child, and every other request in flight on
 * it ends as `retired` (imported again on a fresh child by the pool).
 */
async function settle(child: Child, pending: Pending, outcome: Outcome): Promise<void> {
  if (pending.settling) return;
  pending.settling = true;
  for (const timer of pending.timers) clearTimeout(timer);
  const head = child.queue[0] === pending;
  if (head) await drain();
  const stdoutBytes = head ? child.stdoutBytes : 0;
  const attempt: Attempt = {
    outcome,
    stdoutBytes,
    // Its own doing only when nothing else ran in that child: its first request, never sent alongside another.
    own: pending.first && pending.alone,
    child,
  };
  const index = child.queue.indexOf(pending);
  if (index >= 0) child.queue.splice(index, 1);
  if (!clean(attempt)) {
    retire(child);
    for (const other of [...child.queue]) void settle(child, other, { kind: "retired" });
  }
  pending.resolve(attempt);
  if (!child.retired) startHead(child, pending.timeoutMs);
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
 * once the run is over), never in this process. One child imports the entries of a run in turn, in the order of the
 * paths, with a timeout each; the next request is sent while one runs (at most `MAX_PIPELINED_IMPORTS` in flight),
 * so the child never waits for this process. Its answers are authenticated with keys only it and this process know
 * (see `validate-child.ts`).
 *
 * Attribution: a clean import (exports reported, the module loader untouched, no stdout byte in its window) is the
 * entry's own. Any other outcome (a failure, an exit, a timeout, a byte on stdout, a changed module loader) retires
 * the child, and is reported as the entry's own only when the entry ran alone on a fresh child (the first request of
 * that child, with no other request sent while it was in flight); otherwise the entry, and every other request in
 * flight on the retired child, is imported again on a child of its own, whose outcome is reported. Stdout bytes
 * belong to the window of the import in flight (the parent waits for pipe data already on its way after each
 * answer); bytes that arrive while no import runs retire the child without blaming anyone. An entry that exits the
 * process, writes to stdout, throws, never settles or keeps its event loop busy thus gives a coded issue on its own
 * folder and nothing else.
 */
export class EntryImportPool {
  private readonly shared: Child[] = [];
  private readonly waiting: Array<() => void> = [];
  private readonly all = new Set<Child>();
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
    void child.exited.then(() => this.wake());
    return child;
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** A shared child with room in its queue, starting one when fewer than the maximum are alive. */
  private async acquire(): Promise<Child> {
    for (;;) {
      for (let i = this.shared.length - 1; i >= 0; i--) if (this.shared[i]?.retired) this.shared.splice(i, 1);
      const child = this.shared.find((candidate) => candidate.queue.length < MAX_PIPELINED_IMPORTS);
      if (child !== undefined) return child;
      if (this.shared.length < MAX_SHARED_CHILDREN) return this.adopt(startChild(this.cwd));
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Sends one import request to `child`; resolves once it settled (see `settle`). */
  private send(child: Child, url: string): Promise<Attempt> {
    return new Promise((resolve) => {
      const pending: Pending = {
        url,
        nonce: randomUUID(),
        first: child.sent === 0,
        alone: child.queue.length === 0,
        timeoutMs: this.timeoutMs,
        timers: [],
        settling: false,
        resolve: (attempt) => {
          this.wake();
          resolve(attempt);
        },
      };
      child.sent++;
      // Requests already in flight no longer ran alone.
      for (const other of child.queue) other.alone = false;
      child.queue.push(pending);
      if (child.retired || !child.process.connected) {
        void settle(child, pending, child.exit ? { kind: "exited", exit: child.exit } : { kind: "retired" });
        return;
      }
      child.process.send({ type: "import", url, nonce: pending.nonce }, () => undefined);
      startHead(child, this.timeoutMs);
    });
  }

  /**
   * Marks the path of `order` as done with the shared child (its request sent, or nothing to import): the next
   * order's import may be sent.
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
   * The `importEntry` option of `validateToolFolder` for the path of position `order` in the run: requests go to
   * the shared child in the order of the paths (each path calls `finish(order)` when it is done), so that a run
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
    let sent: Promise<Attempt>;
    try {
      if (order !== undefined) await this.waitTurn(order);
      sent = this.send(await this.acquire(), url);
    } finally {
      if (order !== undefined) this.finish(order);
    }
    let attempt = await sent;
    // Not the entry's own doing unless it ran alone on a fresh child: import it again on a child of its own.
    if (!clean(attempt) && !attempt.own) {
      const child = startChild(this.cwd, true);
      this.all.add(child);
      attempt = await this.send(child, url);
    }
    if (attempt.child.dedicated) retire(attempt.child);
    return this.verdict(attempt, id, entry);
  }

  private async verdict(attempt: Attempt, id: string, entry: string): Promise<Record<string, unknown>> {
    const { outcome, child } = attempt;
    if (outcome.kind === "retired") throw new Error("the validation process was retired twice for one entry");
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
    for (const child of this.all) retire(child);
    this.all.clear();
    stopPrestartedChild();
  }
}
