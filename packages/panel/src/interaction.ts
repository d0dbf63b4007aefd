import { ContractError, type Issue, isContractError, thrownMessage } from "@raw/schema";
import { resolveAction } from "./actions.js";
import { validatePanelDocument } from "./document.js";
import { prepareForm, validateFormAnswers } from "./forms.js";
import { type Clock, systemClock } from "./host-clock.js";
import {
  acknowledgementOf,
  createMemoryInteractionStore,
  type InteractionAcknowledgement,
  type InteractionIdentity,
  type InteractionRecord,
  type InteractionStore,
  type InteractionTerminalState,
  interactionConflict,
  type SyncInteractionStore,
  TERMINAL_RESULTS,
} from "./interaction-store.js";
import { attempt, chain, isThenable, type MaybePromise } from "./maybe-async.js";
import type { FormBlock, PanelDeclaration, PanelDocument } from "./types.js";

/** Default wait of an interaction request: 30 minutes (`panels.md` §13.2 step 3). */
export const DEFAULT_INTERACTION_TIMEOUT_MS = 1_800_000;

/** Longest wait of an interaction request: 24 hours (`panels.md` §13.2 step 3). */
export const MAX_INTERACTION_TIMEOUT_MS = 86_400_000;

/**
 * Default longest wait for one store operation (milliseconds): a store that has not answered by then fails the
 * operation with `interaction_store_timeout`, so a request settles at most this long after its deadline.
 */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;

/** Longest submission `idempotencyKey` in characters (`panels.md` §13.4 step 3). */
export const MAX_IDEMPOTENCY_KEY_CHARS = 128;

/** A surface's answer to a pending request (`panels.md` §13.4). */
export interface InteractionSubmission {
  requestId: string;
  expectedRevision: number;
  idempotencyKey: string;
  response: "submit" | "cancel";
  /** The answers of a `submit` (§11.3); not allowed on a `cancel`. */
  answers?: Record<string, unknown>;
}

/** The terminal result a request resolves to: the parsed canonical result (`panels.md` §11.3, §13.3). */
export type InteractionResult =
  | { status: "answered"; answers: Record<string, string | string[]> }
  | { status: "cancelled" }
  | { status: "expired" }
  | { status: "interrupted" };

/** What an adapter is told after it returned a submission that failed validation; the request stays pending. */
export interface InteractionRetry {
  error: { code: string; message: string };
}

/**
 * Asks the user and resolves to a submission (a terminal prompt, an ACP peer). Called again with `retry` after
 * an invalid submission; `signal` aborts once the request is terminal. A rejection cancels the request.
 */
export type InteractionAdapter = (
  request: InteractionRecord,
  signal: AbortSignal,
  retry?: InteractionRetry,
) => Promise<InteractionSubmission> | InteractionSubmission;

/** An event for the service's observers: a request was published or reached a terminal state. */
export interface InteractionEvent {
  type: "published" | "settled";
  request: InteractionRecord;
}

/** The view a request is shown in, as prepared by a host's panel call (`panels.md` §13.2 step 6). */
export interface InteractionView {
  /** The normalized declaration of the panel; `undefined` for an undeclared one (`panel_undeclared`). */
  declaration: PanelDeclaration | undefined;
  /** The local panel id. */
  panel: string;
}

/** One request: the declared view and its document, and the call it belongs to (`panels.md` §13.2). */
export interface InteractionRequestInput {
  /** The canonical identity of the asking tool. */
  owner: string;
  /** The normalized declaration of the panel; `undefined` for an undeclared view. */
  declaration?: PanelDeclaration | undefined;
  /** The local panel id. */
  panel: string;
  /** The document: exactly one `form` block, shown like a panel update. */
  document: unknown;
  /** Wait in milliseconds: default 30 minutes, at most 24 hours. */
  timeout_ms?: unknown;
  toolCallId?: string;
  /** The operation id recorded in the request's identity. */
  operationId?: string;
  /** The call's output budget (`context.maxOutputBytes`); the form is fitted to it. */
  maxOutputBytes: number;
  /** Host hook for step 6: checks the call (settled, ownership) and returns the view; throws a panel error. */
  prepareView?: () => InteractionView;
  /** Host hook for step 10: shows the stored request (for example as a panel update); a throw interrupts it. */
  publish?: (request: InteractionRecord) => void;
}

/** Options of `createInteractionService`. */
export interface InteractionServiceOptions {
  /** Asks the user for each request; see `InteractionAdapter`. */
  adapter?: InteractionAdapter;
  /** `true` for a host whose answers arrive only through `submit` (a web dashboard). */
  interactive?: boolean;
  /** Where requests live (default: an in-memory store); an asynchronous store goes in `AsyncInteractionServiceOptions`. */
  store?: SyncInteractionStore;
  /** Longest wait for one store operation in milliseconds (default `DEFAULT_STORE_TIMEOUT_MS`). */
  storeTimeoutMs?: number;
  /** Time and timers for deadlines (default: the system clock). */
  clock?: Clock;
  /** The session the service's requests belong to and `submit`/`get` look in (default: none). */
  sessionId?: string;
  /** The run id recorded in every request's identity (default: a fresh UUID). */
  runId?: string;
}

/** Options of `createInteractionService` over a store whose methods may return promises (a database). */
export interface AsyncInteractionServiceOptions extends Omit<InteractionServiceOptions, "store"> {
  /** Where requests live: any `InteractionStore`. */
  store: InteractionStore;
}

/** The interaction service: asks questions and settles the answers (`panels.md` §13). */
export interface InteractionService {
  /**
   * Creates, stores, publishes and awaits a request; resolves to its terminal result. It always settles by its
   * deadline (plus at most the store timeout): a store that throws or hangs rejects it with
   * `interaction_store_error` or `interaction_store_timeout`.
   */
  request(input: InteractionRequestInput, options?: { signal?: AbortSignal }): Promise<InteractionResult>;
  /** Settles a request with a submission (§13.4); throws `ContractError` with the spec's codes and messages. */
  submit(submission: unknown): InteractionAcknowledgement;
  /** The stored request, when it belongs to the service's session. */
  get(requestId: string): InteractionRecord | undefined;
  /** Observes published and settled requests; returns an unsubscribe function. A throwing observer is ignored. */
  subscribe(observer: (event: InteractionEvent) => void): () => void;
  /** Closes the service: every pending request it started ends `interrupted`; later requests are unavailable. */
  close(): void;
}

/** The interaction service over an asynchronous store: `submit` and `get` resolve instead of returning. */
export interface AsyncInteractionService extends Omit<InteractionService, "submit" | "get"> {
  /** Settles a request with a submission (§13.4); rejects with `ContractError` with the spec's codes. */
  submit(submission: unknown): Promise<InteractionAcknowledgement>;
  /** The stored request, when it belongs to the service's session. */
  get(requestId: string): Promise<InteractionRecord | undefined>;
}

function fail(code: string, text: string): ContractError {
  return new ContractError(code, `${code}: ${text}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON with object keys sorted at every level: the body fingerprint of a submission (`panels.md` §13.4). */
export function submissionFingerprint(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, _key, v: unknown) {
    if (!isObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      Object.defineProperty(out, k, { value: v[k], enumerable: true, writable: true, configurable: true });
    }
    return out;
  });
}

const SUBMIT_KEYS = new Set(["requestId", "expectedRevision", "idempotencyKey", "response", "answers"]);
const CANCEL_KEYS = new Set(["requestId", "expectedRevision", "idempotencyKey", "response"]);

function validIdentity(submission: Record<string, unknown>, requestId: string): boolean {
  const { response, expectedRevision, idempotencyKey } = submission;
  if (response !== "submit" && response !== "cancel") return false;
  const allowed = response === "submit" ? SUBMIT_KEYS : CANCEL_KEYS;
  if (Object.keys(submission).some((k) => !allowed.has(k))) return false;
  if (submission.requestId !== requestId) return false;
  if (!Number.isSafeInteger(expectedRevision) || (expectedRevision as number) < 1) return false;
  if (typeof idempotencyKey !== "string" || idempotencyKey === "") return false;
  return [...idempotencyKey].length <= MAX_IDEMPOTENCY_KEY_CHARS;
}

function panelError(issues: Issue[]): ContractError {
  return ContractError.fromIssues(issues);
}

/** Finds a resolvable response action of the given kind for the form block (`panels.md` §13.2 step 7). */
function hasResponseAction(
  declaration: PanelDeclaration,
  document: PanelDocument,
  formBlockId: string,
  response: "submit" | "cancel",
): boolean {
  return (declaration.actions ?? []).some(
    (action) =>
      action.kind === "response" &&
      action.response === response &&
      (action.blocks === undefined || action.blocks.includes(formBlockId)) &&
      resolveAction(declaration, document, { action: action.id, block: formBlockId }).ok,
  );
}

/** Whether `error` is a failure of the store itself (never retried with the adapter). */
function isStoreFailure(error: unknown): boolean {
  return !isContractError(error) || error.code.startsWith("interaction_store_");
}

/** A store failure as a coded error: contract errors pass unchanged, anything else is `interaction_store_error`. */
function storeFailure(operation: string, error: unknown): unknown {
  if (isContractError(error)) return error;
  return fail("interaction_store_error", `store ${operation} failed`);
}

/** Waits one macrotask, so a retry loop can never starve the host's event loop with microtasks. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => globalThis.setTimeout(resolve, 0));
}

/**
 * Creates the interaction service of `panels.md` §13: `request` runs the lifecycle of §13.2 (unavailable, abort,
 * timeout, document, exactly one form, view, response actions, budget, store before publish, adapter, wait) and
 * `submit` settles a submission by compare-and-swap (§13.4). With neither an `adapter` nor `interactive: true`,
 * `request` fails at once with `interaction_unavailable`. Over a synchronous store (the default memory store)
 * `submit` and `get` return at once; over an asynchronous one they return promises (`AsyncInteractionService`).
 */
export function createInteractionService(options?: InteractionServiceOptions): InteractionService;
export function createInteractionService(options: AsyncInteractionServiceOptions): AsyncInteractionService;
export function createInteractionService(
  options: InteractionServiceOptions | AsyncInteractionServiceOptions = {},
): InteractionService | AsyncInteractionService {
  const { adapter, interactive = false } = options;
  const store: InteractionStore = options.store ?? createMemoryInteractionStore();
  const clock = options.clock ?? systemClock;
  const storeTimeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  const sessionId = options.sessionId;
  const runId = options.runId ?? crypto.randomUUID();
  const observers = new Set<(event: InteractionEvent) => void>();
  /** The requests this service waits for: ended by `close`, woken at once by a local `submit`. */
  const pending = new Map<
    string,
    {
      interrupt: () => void;
      settled: (ack: InteractionAcknowledgement) => void;
      /** Whether the request's own timer (a monotonic duration, not the wall clock) has fired. */
      overdue: () => boolean;
    }
  >();
  let closed = false;

  const emit = (event: InteractionEvent) => {
    for (const observer of [...observers]) {
      try {
        observer(event);
      } catch {
        // An observer never affects a request.
      }
    }
  };

  /**
   * Runs one store operation: a synchronous value stays synchronous; a non-contract failure becomes
   * `interaction_store_error`; a promise that has not settled within the store timeout fails with
   * `interaction_store_timeout`.
   */
  const call = <T>(operation: string, run: () => MaybePromise<T>): MaybePromise<T> => {
    let value: MaybePromise<T>;
    try {
      value = run();
    } catch (error) {
      throw storeFailure(operation, error);
    }
    if (!isThenable(value)) return value;
    return new Promise<T>((resolve, reject) => {
      const timer = clock.setTimeout(
        () =>
          reject(
            fail(
              "interaction_store_timeout",
              `store ${operation} did not answer within ${storeTimeoutMs} ms`,
            ),
          ),
        storeTimeoutMs,
      );
      Promise.resolve(value).then(
        (resolved) => {
          clock.clearTimeout(timer);
          resolve(resolved);
        },
        (error: unknown) => {
          clock.clearTimeout(timer);
          reject(storeFailure(operation, error));
        },
      );
    });
  };

  /** Ends a pending request in a terminal non-answer: the acknowledgement, or `undefined` when already settled. */
  const settleAs = (
    record: InteractionRecord,
    state: Exclude<InteractionTerminalState, "answered">,
  ): MaybePromise<InteractionAcknowledgement | undefined> =>
    attempt(
      () =>
        call("settle", () =>
          store.settle(record.identity.sessionId, record.identity.requestId, {
            expectedRevision: 1,
            state,
            canonicalResult: TERMINAL_RESULTS[state],
          }),
        ),
      (ack) => ack,
      (error) => {
        if (isContractError(error) && error.code === "interaction_conflict") return undefined;
        throw error;
      },
    );

  /**
   * The time a submission is checked against the request's deadline (§13.4 step 6). A request this service waits
   * for is live until its own timer fires: that timer measures `timeout_ms` as a duration, so a wall clock that
   * jumps forward never refuses an answer early and one that jumps back never keeps the request open past its
   * timeout. Any other request (recovered after a restart, or waited for by another process) is judged by the wall
   * clock against its persisted deadline, the only time that outlives a process.
   */
  const submissionTime = (record: InteractionRecord): number => {
    const live = pending.get(record.identity.requestId);
    if (live === undefined) return clock.now();
    if (live.overdue()) return record.deadline;
    return Math.min(clock.now(), record.deadline - 1);
  };

  /** §13.4 steps 2–7 for a submission addressed to `record`. */
  const process = (
    record: InteractionRecord,
    submission: unknown,
  ): MaybePromise<InteractionAcknowledgement> => {
    if (!isObject(submission)) throw fail("interaction_invalid", "response must be an object");
    if (!validIdentity(submission, record.identity.requestId)) {
      throw fail("interaction_invalid", "invalid request identity, revision or response");
    }
    const key = submission.idempotencyKey as string;
    const fingerprint = submissionFingerprint(submission);
    if (record.idempotencyKey === key) {
      if (record.fingerprint === fingerprint) return acknowledgementOf(record);
      throw interactionConflict();
    }
    let canonicalResult: string = TERMINAL_RESULTS.cancelled;
    const answering = submission.response === "submit";
    if (answering) {
      const checked = validateFormAnswers(record.form, submission.answers);
      if (!checked.ok) throw ContractError.fromIssues(checked.issues);
      canonicalResult = checked.canonicalResult;
    }
    const settled = call("settle", () =>
      store.settle(record.identity.sessionId, record.identity.requestId, {
        expectedRevision: submission.expectedRevision as number,
        state: answering ? "answered" : "cancelled",
        canonicalResult,
        idempotencyKey: key,
        fingerprint,
        ...(answering ? { beforeDeadline: submissionTime(record) } : {}),
      }),
    );
    return chain(settled, (ack) => {
      // A request this service waits for ends now, even when the store's watch is slow to tell.
      if (ack.state !== "pending") pending.get(record.identity.requestId)?.settled(ack);
      return ack;
    });
  };

  const service = {
    async request(input: InteractionRequestInput, requestOptions: { signal?: AbortSignal } = {}) {
      const signal = requestOptions.signal;
      // 1. Availability.
      if (closed || (adapter === undefined && !interactive)) {
        throw fail("interaction_unavailable", "this host has no response adapter");
      }
      // 2. An aborted call.
      if (signal?.aborted) return { status: "cancelled" } as InteractionResult;
      // 3. Timeout.
      const timeout = input.timeout_ms === undefined ? DEFAULT_INTERACTION_TIMEOUT_MS : input.timeout_ms;
      if (
        typeof timeout !== "number" ||
        !Number.isSafeInteger(timeout) ||
        timeout <= 0 ||
        timeout > MAX_INTERACTION_TIMEOUT_MS
      ) {
        throw fail("interaction_invalid", "timeout_ms must be positive and at most 24 hours");
      }
      // 4. The document.
      const validated = validatePanelDocument(input.document);
      if (!validated.ok) throw panelError(validated.issues);
      const document = validated.document;
      // 5. Exactly one form block.
      const forms = document.blocks.filter((b): b is FormBlock => b.kind === "form");
      const formBlock = forms[0];
      if (forms.length !== 1 || formBlock === undefined) {
        throw fail("interaction_invalid", "a request must contain exactly one form block");
      }
      // 6. The view.
      const view = input.prepareView
        ? input.prepareView()
        : { declaration: input.declaration, panel: input.panel };
      const declaration = view.declaration;
      if (declaration === undefined) {
        throw new ContractError("panel_undeclared", "interaction requires a declared view");
      }
      // 7. Response actions.
      if (!hasResponseAction(declaration, document, formBlock.id, "submit")) {
        throw fail("interaction_invalid", "the declared form needs a submit response action");
      }
      if (!hasResponseAction(declaration, document, formBlock.id, "cancel")) {
        throw fail("interaction_invalid", "the declared form needs a cancel response action");
      }
      // 8. The budget.
      const form = prepareForm(formBlock.fields, input.maxOutputBytes);
      // 9. Store before anything is published.
      const createdAt = clock.now();
      const requestId = crypto.randomUUID();
      const session = sessionId;
      const identity: InteractionIdentity = {
        ...(session !== undefined ? { sessionId: session } : {}),
        ...(input.operationId !== undefined ? { operationId: input.operationId } : {}),
        runId,
        ...(input.toolCallId !== undefined ? { toolCallId: input.toolCallId } : {}),
        owner: input.owner,
        panelId: view.panel,
        requestId,
        ...(declaration.placement === "chat" ? { viewInstanceId: crypto.randomUUID() } : {}),
      };
      const record: InteractionRecord = {
        identity,
        declaration,
        document,
        formBlockId: formBlock.id,
        form,
        revision: 1,
        state: "pending",
        createdAt,
        deadline: createdAt + timeout,
      };

      // 10–11. Publish, then wait for a terminal state; the deadline timer runs from here, whatever the store does.
      return new Promise<InteractionResult>((resolve, reject) => {
        const adapterControl = new AbortController();
        let stored: InteractionRecord = record;
        let created = false;
        let watching = false;
        let failure: unknown;
        let finished = false;
        let overdue = false;
        let unwatch: (() => void) | undefined;

        const cleanup = () => {
          finished = true;
          clock.clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          pending.delete(requestId);
          unwatch?.();
          adapterControl.abort();
        };
        const finish = (terminal: InteractionRecord) => {
          if (finished) return;
          cleanup();
          emit({ type: "settled", request: terminal });
          if (failure !== undefined) reject(failure);
          else
            resolve(
              JSON.parse(terminal.canonicalResult ?? TERMINAL_RESULTS.interrupted) as InteractionResult,
            );
        };
        const failWith = (error: unknown) => {
          if (finished) return;
          cleanup();
          reject(error);
        };
        /** Runs a chain of (maybe asynchronous) steps; any failure ends the request with that coded error. */
        const run = (steps: () => MaybePromise<unknown>) => {
          try {
            const out = steps();
            if (isThenable(out)) Promise.resolve(out).then(undefined, failWith);
          } catch (error) {
            failWith(error);
          }
        };
        const conclude = (ack: InteractionAcknowledgement) => {
          if (ack.state === "pending") return;
          finish({
            ...stored,
            revision: ack.revision,
            state: ack.state,
            canonicalResult:
              ack.canonicalResult ??
              (ack.state === "answered" ? TERMINAL_RESULTS.interrupted : TERMINAL_RESULTS[ack.state]),
          });
        };
        /** Ends the request as `state`; when another settlement won, resolves to that one. */
        const endAs = (state: Exclude<InteractionTerminalState, "answered">) => {
          if (finished) return;
          run(() =>
            chain(settleAs(stored, state), (ack) => {
              if (ack !== undefined) return conclude(ack);
              return chain(
                call("get", () => store.get(session, requestId)),
                (current) => {
                  if (current !== undefined && current.state !== "pending") return finish(current);
                  throw fail("interaction_store_error", "store settle conflicted on a pending request");
                },
              );
            }),
          );
        };
        const onAbort = () => {
          if (watching) endAs("cancelled");
        };
        const onDeadline = () => {
          overdue = true;
          if (created) endAs("expired");
          else failWith(fail("interaction_store_timeout", "store create did not answer before the deadline"));
        };
        const timer = clock.setTimeout(onDeadline, timeout);
        signal?.addEventListener("abort", onAbort, { once: true });

        const afterWatch = (stop: () => void) => {
          unwatch = stop;
          if (finished) {
            stop();
            return;
          }
          watching = true;
          pending.set(requestId, {
            interrupt: () => endAs("interrupted"),
            settled: conclude,
            overdue: () => overdue,
          });
          if (signal?.aborted) {
            endAs("cancelled");
            return;
          }
          emit({ type: "published", request: stored });
          try {
            input.publish?.(stored);
          } catch (error) {
            failure = error;
            endAs("interrupted");
            return;
          }
          if (adapter !== undefined && !finished) {
            void runAdapter(adapter, stored, adapterControl.signal, () => endAs("cancelled"), failWith);
          }
        };
        const afterGet = (got: InteractionRecord | undefined) => {
          if (finished) return;
          if (got === undefined) throw fail("interaction_invalid", "the store did not keep the request");
          stored = got;
          return chain(
            call("watch", () => store.watch(session, requestId, finish)),
            afterWatch,
          );
        };
        run(() =>
          chain(
            call("create", () => store.create(record)),
            () => {
              created = true;
              // Gave up before the store answered: the late request is ended, never left pending.
              if (finished) return settleAs(record, "interrupted");
              return chain(
                call("get", () => store.get(session, requestId)),
                afterGet,
              );
            },
          ),
        );
      });
    },

    submit(submission: unknown): MaybePromise<InteractionAcknowledgement> {
      if (!isObject(submission)) throw fail("interaction_invalid", "response must be an object");
      const requestId = submission.requestId;
      if (typeof requestId !== "string") {
        throw fail("interaction_not_found", "request does not exist in this session");
      }
      return chain(
        call("get", () => store.get(sessionId, requestId)),
        (record) => {
          if (record === undefined)
            throw fail("interaction_not_found", "request does not exist in this session");
          return process(record, submission);
        },
      );
    },

    get(requestId: string): MaybePromise<InteractionRecord | undefined> {
      return call("get", () => store.get(sessionId, requestId));
    },

    subscribe(observer: (event: InteractionEvent) => void) {
      observers.add(observer);
      return () => {
        observers.delete(observer);
      };
    },

    close() {
      closed = true;
      for (const entry of [...pending.values()]) entry.interrupt();
    },
  };

  /**
   * Runs the adapter until it returns a valid submission, the request ends, or the adapter throws (cancel). An
   * invalid submission calls it again one macrotask later; a store failure ends the request instead of retrying.
   */
  async function runAdapter(
    ask: InteractionAdapter,
    record: InteractionRecord,
    signal: AbortSignal,
    cancel: () => void,
    failWith: (error: unknown) => void,
  ) {
    let retry: InteractionRetry | undefined;
    for (;;) {
      if (signal.aborted) return;
      let submission: unknown;
      try {
        submission = await (retry === undefined ? ask(record, signal) : ask(record, signal, retry));
      } catch {
        if (!signal.aborted) cancel();
        return;
      }
      if (signal.aborted) return;
      try {
        const current =
          (await call("get", () => store.get(record.identity.sessionId, record.identity.requestId))) ??
          record;
        await process(current, submission);
        return;
      } catch (error) {
        if (isStoreFailure(error)) {
          failWith(error);
          return;
        }
        const code = isContractError(error) ? error.code : "interaction_invalid";
        retry = { error: { code, message: thrownMessage(error) } };
      }
      await nextTurn();
    }
  }

  return service as InteractionService | AsyncInteractionService;
}
