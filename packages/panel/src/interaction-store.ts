import { ContractError, deepFreeze } from "@raw/schema";
import type {
  InteractionAcknowledgement,
  InteractionRecord,
  InteractionSettle,
} from "./interaction-record.js";
import type { MaybePromise } from "./maybe-async.js";
import { checkStorableRecord, checkStorableSettle } from "./store-inputs.js";

export type {
  InteractionAcknowledgement,
  InteractionIdentity,
  InteractionRecord,
  InteractionSettle,
  InteractionState,
  InteractionTerminalState,
} from "./interaction-record.js";

/**
 * Where interaction requests live (`panels.md` §13.5). The contract is asynchronous: every method may return its
 * value at once or as a promise (a database driver), and the interaction service awaits it without ever calling
 * the store in a loop. Every operation is atomic; `settle` is a compare-and-swap with replay semantics. A store
 * proves itself with `defineInteractionStoreConformance` from `@raw/panel/testing`.
 */
export interface InteractionStore {
  /** Persists a pending record (revision 1) before anything is published; a duplicate id is `interaction_invalid`. */
  create(record: InteractionRecord): MaybePromise<void>;
  /** The record, only when it belongs to that session (`undefined` matches only `undefined`). */
  get(sessionId: string | undefined, requestId: string): MaybePromise<InteractionRecord | undefined>;
  /**
   * Atomic compare-and-swap: the same key and fingerprint as the recorded settlement returns the recorded
   * acknowledgement; the same key with another body, a non-pending state, another revision or a passed deadline
   * throws `interaction_conflict`; an unknown request throws `interaction_not_found`. On success the revision
   * becomes 2 and state, result, key and fingerprint are stored together.
   */
  settle(
    sessionId: string | undefined,
    requestId: string,
    settle: InteractionSettle,
  ): MaybePromise<InteractionAcknowledgement>;
  /** Marks every pending request of `owner` `interrupted` (owner loss); returns how many. */
  interruptPending(owner: string): MaybePromise<number>;
  /**
   * Calls `listener` once the request is terminal (at once when it already is), also when another process settled
   * it; returns an unsubscribe function.
   */
  watch(
    sessionId: string | undefined,
    requestId: string,
    listener: (record: InteractionRecord) => void,
  ): MaybePromise<() => void>;
}

/** An `InteractionStore` whose methods all return at once (the memory store): the service stays synchronous. */
export interface SyncInteractionStore extends InteractionStore {
  create(record: InteractionRecord): void;
  get(sessionId: string | undefined, requestId: string): InteractionRecord | undefined;
  settle(
    sessionId: string | undefined,
    requestId: string,
    settle: InteractionSettle,
  ): InteractionAcknowledgement;
  interruptPending(owner: string): number;
  watch(
    sessionId: string | undefined,
    requestId: string,
    listener: (record: InteractionRecord) => void,
  ): () => void;
}

/** The canonical results of the terminal non-answers (`panels.md` §11.3). */
export const TERMINAL_RESULTS = {
  cancelled: '{"status":"cancelled"}',
  expired: '{"status":"expired"}',
  interrupted: '{"status":"interrupted"}',
} as const;

/** The message of every `interaction_conflict`. */
export const INTERACTION_CONFLICT_MESSAGE =
  "interaction_conflict: request already settled or revision changed";

/** The `interaction_conflict` error. */
export function interactionConflict(): ContractError {
  return new ContractError("interaction_conflict", INTERACTION_CONFLICT_MESSAGE);
}

/** The `interaction_not_found` error of a store's `settle` for an unknown request. */
export function interactionNotFound(): ContractError {
  return new ContractError(
    "interaction_not_found",
    "interaction_not_found: request does not exist in this session",
  );
}

/** The `interaction_invalid` error of a store's `create` for a request id already stored. */
export function interactionDuplicate(requestId: string): ContractError {
  return new ContractError("interaction_invalid", `interaction_invalid: request ${requestId} already exists`);
}

/** The acknowledgement of a record: `canonicalResult` only when answered. */
export function acknowledgementOf(record: InteractionRecord): InteractionAcknowledgement {
  return {
    requestId: record.identity.requestId,
    revision: record.revision,
    state: record.state,
    ...(record.state === "answered" && record.canonicalResult !== undefined
      ? { canonicalResult: record.canonicalResult }
      : {}),
  };
}

/** The compare-and-swap rules of `InteractionStore.settle`, for store implementations: the next record. */
export function settleRecord(
  record: InteractionRecord,
  settle: InteractionSettle,
): { replay: true; record: InteractionRecord } | { replay: false; record: InteractionRecord } {
  if (settle.idempotencyKey !== undefined && record.idempotencyKey === settle.idempotencyKey) {
    if (record.fingerprint === settle.fingerprint) return { replay: true, record };
    throw interactionConflict();
  }
  if (
    record.state !== "pending" ||
    record.revision !== settle.expectedRevision ||
    (settle.beforeDeadline !== undefined && settle.beforeDeadline >= record.deadline)
  ) {
    throw interactionConflict();
  }
  const next: InteractionRecord = {
    ...record,
    revision: record.revision + 1,
    state: settle.state,
    canonicalResult: settle.canonicalResult,
    ...(settle.idempotencyKey !== undefined ? { idempotencyKey: settle.idempotencyKey } : {}),
    ...(settle.fingerprint !== undefined ? { fingerprint: settle.fingerprint } : {}),
  };
  return { replay: false, record: deepFreeze(next) };
}

/** An `InteractionStore` in process memory: records are kept per session and frozen. */
export function createMemoryInteractionStore(): SyncInteractionStore {
  const sessions = new Map<string | undefined, Map<string, InteractionRecord>>();
  const watchers = new Map<string, Set<(record: InteractionRecord) => void>>();
  const key = (sessionId: string | undefined, requestId: string) =>
    `${sessionId === undefined ? "-" : `+${sessionId}`}\u0000${requestId}`;

  const notify = (record: InteractionRecord) => {
    const set = watchers.get(key(record.identity.sessionId, record.identity.requestId));
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(record);
      } catch {
        // A throwing waiter never affects the store.
      }
    }
  };
  const put = (record: InteractionRecord) => {
    const sessionId = record.identity.sessionId;
    let session = sessions.get(sessionId);
    if (!session) {
      session = new Map();
      sessions.set(sessionId, session);
    }
    session.set(record.identity.requestId, record);
  };

  return {
    create(record) {
      checkStorableRecord(record);
      const { sessionId, requestId } = record.identity;
      if (sessions.get(sessionId)?.has(requestId)) {
        throw interactionDuplicate(requestId);
      }
      put(deepFreeze(structuredClone(record)));
    },
    get(sessionId, requestId) {
      return sessions.get(sessionId)?.get(requestId);
    },
    settle(sessionId, requestId, settle) {
      const record = sessions.get(sessionId)?.get(requestId);
      if (!record) {
        throw interactionNotFound();
      }
      checkStorableSettle(settle);
      const outcome = settleRecord(record, settle);
      if (!outcome.replay) {
        put(outcome.record);
        notify(outcome.record);
      }
      return acknowledgementOf(outcome.record);
    },
    interruptPending(owner) {
      let count = 0;
      for (const session of sessions.values()) {
        for (const record of [...session.values()]) {
          if (record.state !== "pending" || record.identity.owner !== owner) continue;
          const { record: next } = settleRecord(record, {
            expectedRevision: record.revision,
            state: "interrupted",
            canonicalResult: TERMINAL_RESULTS.interrupted,
          });
          put(next);
          notify(next);
          count++;
        }
      }
      return count;
    },
    watch(sessionId, requestId, listener) {
      const k = key(sessionId, requestId);
      const current = sessions.get(sessionId)?.get(requestId);
      if (current && current.state !== "pending") {
        listener(current);
        return () => {};
      }
      let set = watchers.get(k);
      if (!set) {
        set = new Set();
        watchers.set(k, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) watchers.delete(k);
      };
    },
  };
}
