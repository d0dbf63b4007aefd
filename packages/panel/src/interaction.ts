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
  TERMINAL_RESULTS,
} from "./interaction-store.js";
import type { FormBlock, PanelDeclaration, PanelDocument } from "./types.js";

/** Default wait of an interaction request: 30 minutes (`panels.md` §13.2 step 3). */
export const DEFAULT_INTERACTION_TIMEOUT_MS = 1_800_000;

/** Longest wait of an interaction request: 24 hours (`panels.md` §13.2 step 3). */
export const MAX_INTERACTION_TIMEOUT_MS = 86_400_000;

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
  /** Where requests live (default: an in-memory store). */
  store?: InteractionStore;
  /** Time and timers for deadlines (default: the system clock). */
  clock?: Clock;
  /** The session the service's requests belong to and `submit`/`get` look in (default: none). */
  sessionId?: string;
  /** The run id recorded in every request's identity (default: a fresh UUID). */
  runId?: string;
}

/** The interaction service: asks questions and settles the answers (`panels.md` §13). */
export interface InteractionService {
  /** Creates, stores, publishes and awaits a request; resolves to its terminal result. */
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

/**
 * Creates the interaction service of `panels.md` §13: `request` runs the lifecycle of §13.2 (unavailable, abort,
 * timeout, document, exactly one form, view, response actions, budget, store before publish, adapter, wait) and
 * `submit` settles a submission by compare-and-swap (§13.4). With neither an `adapter` nor `interactive: true`,
 * `request` fails at once with `interaction_unavailable`.
 */
export function createInteractionService(options: InteractionServiceOptions = {}): InteractionService {
  const { adapter, interactive = false } = options;
  const store = options.store ?? createMemoryInteractionStore();
  const clock = options.clock ?? systemClock;
  const sessionId = options.sessionId;
  const runId = options.runId ?? crypto.randomUUID();
  const observers = new Set<(event: InteractionEvent) => void>();
  const pending = new Map<string, () => void>();
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

  /** Ends a pending request in a terminal non-answer; false when it was already settled. */
  const settleAs = (
    record: InteractionRecord,
    state: Exclude<InteractionTerminalState, "answered">,
  ): boolean => {
    try {
      store.settle(record.identity.sessionId, record.identity.requestId, {
        expectedRevision: 1,
        state,
        canonicalResult: TERMINAL_RESULTS[state],
      });
      return true;
    } catch {
      return false;
    }
  };

  /** §13.4 steps 2–7 for a submission addressed to `record`. */
  const process = (record: InteractionRecord, submission: unknown): InteractionAcknowledgement => {
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
    return store.settle(record.identity.sessionId, record.identity.requestId, {
      expectedRevision: submission.expectedRevision as number,
      state: answering ? "answered" : "cancelled",
      canonicalResult,
      idempotencyKey: key,
      fingerprint,
      ...(answering ? { beforeDeadline: clock.now() } : {}),
    });
  };

  const service: InteractionService = {
    async request(input, requestOptions = {}) {
      const signal = requestOptions.signal;
      // 1. Availability.
      if (closed || (adapter === undefined && !interactive)) {
        throw fail("interaction_unavailable", "this host has no response adapter");
      }
      // 2. An aborted call.
      if (signal?.aborted) return { status: "cancelled" };
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
      store.create({
        identity,
        declaration,
        document,
        formBlockId: formBlock.id,
        form,
        revision: 1,
        state: "pending",
        createdAt,
        deadline: createdAt + timeout,
      });
      const stored = store.get(session, requestId);
      if (stored === undefined) throw fail("interaction_invalid", "the store did not keep the request");

      // 10–11. Publish, then wait for a terminal state.
      return new Promise<InteractionResult>((resolve, reject) => {
        const adapterControl = new AbortController();
        let failure: unknown;
        let finished = false;
        const onAbort = () => settleAs(stored, "cancelled");
        const timer = clock.setTimeout(() => settleAs(stored, "expired"), timeout);
        const finish = (record: InteractionRecord) => {
          if (finished) return;
          finished = true;
          clock.clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          pending.delete(requestId);
          unwatch?.();
          adapterControl.abort();
          emit({ type: "settled", request: record });
          if (failure !== undefined) reject(failure);
          else
            resolve(JSON.parse(record.canonicalResult ?? TERMINAL_RESULTS.interrupted) as InteractionResult);
        };
        let unwatch: (() => void) | undefined;
        unwatch = store.watch(session, requestId, finish);
        if (finished) {
          unwatch();
          return;
        }
        pending.set(requestId, () => settleAs(stored, "interrupted"));
        signal?.addEventListener("abort", onAbort, { once: true });
        emit({ type: "published", request: stored });
        try {
          input.publish?.(stored);
        } catch (error) {
          failure = error;
          settleAs(stored, "interrupted");
          return;
        }
        if (adapter !== undefined && !finished) void runAdapter(adapter, stored, adapterControl.signal);
      });
    },

    submit(submission) {
      if (!isObject(submission)) throw fail("interaction_invalid", "response must be an object");
      const requestId = submission.requestId;
      const record = typeof requestId === "string" ? store.get(sessionId, requestId) : undefined;
      if (record === undefined) throw fail("interaction_not_found", "request does not exist in this session");
      return process(record, submission);
    },

    get(requestId) {
      return store.get(sessionId, requestId);
    },

    subscribe(observer) {
      observers.add(observer);
      return () => {
        observers.delete(observer);
      };
    },

    close() {
      closed = true;
      for (const interrupt of [...pending.values()]) interrupt();
    },
  };

  /** Runs the adapter until it returns a valid submission, the request ends, or the adapter throws (cancel). */
  async function runAdapter(run: InteractionAdapter, record: InteractionRecord, signal: AbortSignal) {
    let retry: InteractionRetry | undefined;
    for (;;) {
      if (signal.aborted) return;
      let submission: unknown;
      try {
        submission = await (retry === undefined ? run(record, signal) : run(record, signal, retry));
      } catch {
        settleAs(record, "cancelled");
        return;
      }
      if (signal.aborted) return;
      try {
        const current = store.get(record.identity.sessionId, record.identity.requestId) ?? record;
        process(current, submission);
        return;
      } catch (error) {
        const code = isContractError(error) ? error.code : "interaction_invalid";
        retry = { error: { code, message: thrownMessage(error) } };
      }
    }
  }

  return service;
}
