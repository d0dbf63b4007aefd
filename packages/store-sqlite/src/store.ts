import {
  acknowledgementOf,
  checkStorableRecord,
  checkStorableSettle,
  type InteractionAcknowledgement,
  type InteractionRecord,
  type InteractionSettle,
  interactionDuplicate,
  interactionNotFound,
  isStorableId,
  isStorableSessionId,
  type SyncInteractionStore,
  settleRecord,
  TERMINAL_RESULTS,
} from "@raw/panel/host";
import { deepFreeze, isContractError } from "@raw/schema";
import Database from "better-sqlite3";
import { sqliteCode, storeError } from "./errors.js";
import { DEFAULT_REPLAY_WINDOW_MS, DEFAULT_SWEEP_INTERVAL_MS, SQLITE_BUSY_TIMEOUT_MS } from "./limits.js";
import { checkSchema, migrate } from "./migrations.js";
import { openStateFile } from "./state-file.js";

/** Options of `openSqliteInteractionStore`. */
export interface SqliteInteractionStoreOptions {
  /**
   * The database file: one per host process (created when missing, mode 0600). A symbolic link to an existing file is
   * followed to it; one to a file that does not exist yet is refused (`interaction_store_unsafe`).
   */
  path: string;
  /** How long settled requests stay for idempotent replays before pruning (default 24 hours). */
  replayWindowMs?: number;
  /** Period of the background sweep (expire overdue, prune old); `0` turns it off (default 1 second). */
  sweepIntervalMs?: number;
  /** The current wall-clock time in epoch milliseconds (default `Date.now`); it may jump. */
  now?: () => number;
  /** Elapsed time in milliseconds that never jumps (default `performance.now`): the sweep's measure of a wait. */
  monotonic?: () => number;
  /**
   * Holds the file for this process alone until `close` (SQLite's exclusive locking mode): another process that
   * opens it fails with `interaction_store_busy`, so two hosts never share one file by mistake (default `false`).
   */
  exclusive?: boolean;
}

/** The SQLite interaction store: the synchronous store contract plus recovery, pruning and panel snapshots. */
export interface SqliteInteractionStore extends SyncInteractionStore {
  /**
   * Settles every overdue pending request as `expired`; returns how many. A request created or recovered by this
   * store is overdue once its wait has elapsed on the monotonic clock (so a wall clock set forward never ends it
   * early and one set back never keeps it past its `timeout_ms`); any other one once the wall clock passes its
   * persisted deadline.
   */
  expireOverdue(): number;
  /** Deletes settled requests older than the replay window; returns how many. */
  prune(): number;
  /** The pending requests (of one session when given), oldest first. */
  pending(sessionId?: string): InteractionRecord[];
  /** Stores the panel host snapshot of a session (any JSON value), replacing the previous one. */
  savePanels(sessionId: string | undefined, snapshot: unknown): void;
  /** The last panel snapshot of a session, if any. */
  loadPanels(sessionId: string | undefined): unknown;
  /** Stops the sweep and closes the database; later calls fail with `interaction_store_closed`. */
  close(): void;
}

interface Row {
  session_key: string;
  request_id: string;
  state: InteractionRecord["state"];
  revision: number;
  idempotency_key: string | null;
  fingerprint: string | null;
  canonical_result: string | null;
  record: string;
}

/** Whether a lookup's ids could ever have been stored (any other id is unknown, whatever SQLite makes of it). */
function storable(sessionId: string | undefined, requestId: string): boolean {
  return isStorableSessionId(sessionId) && isStorableId(requestId);
}

/** The session column: `-` for no session, `+<id>` for a session, so `undefined` matches only `undefined`. */
function sessionKey(sessionId: string | undefined): string {
  return sessionId === undefined ? "-" : `+${sessionId}`;
}

function recordOf(row: Row): InteractionRecord {
  const base = JSON.parse(row.record) as InteractionRecord;
  return deepFreeze({
    ...base,
    revision: row.revision,
    state: row.state,
    ...(row.canonical_result !== null ? { canonicalResult: row.canonical_result } : {}),
    ...(row.idempotency_key !== null ? { idempotencyKey: row.idempotency_key } : {}),
    ...(row.fingerprint !== null ? { fingerprint: row.fingerprint } : {}),
  });
}

/** A driver failure as a coded error: corrupt files, a closed store, anything else `interaction_store_error`. */
function translate(error: unknown): unknown {
  if (isContractError(error)) return error;
  const code = sqliteCode(error);
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
    return storeError("interaction_store_busy", "the database file is in use by another process");
  }
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") {
    return storeError("interaction_store_corrupt", "the database file is not a valid interaction database");
  }
  if (error instanceof TypeError && /not open/i.test(error.message)) {
    return storeError("interaction_store_closed", "the store is closed");
  }
  return storeError("interaction_store_error", `database operation failed${code ? ` (${code})` : ""}`);
}

function guarded<A extends unknown[], R>(run: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return run(...args);
    } catch (error) {
      throw translate(error);
    }
  };
}

/**
 * Opens (or creates) the SQLite interaction store of one host process: WAL mode, a versioned schema migrated on
 * open, pending requests recovered with their deadlines (those that passed while the host was down settle
 * `expired` at once), idempotent replays that survive a restart, and settled rows pruned after the replay window.
 * Throws `interaction_store_corrupt`, `interaction_store_foreign`, `interaction_store_schema_newer`,
 * `interaction_store_busy` (an `exclusive` store of another process holds the file),
 * `interaction_store_unsafe` (a link to a file that does not exist yet, another user's file, a companion that is a
 * link: nothing is created or changed) or `interaction_store_unavailable`; it never falls back to memory by itself.
 * The file and its companions are mode 0600 (`STATE_FILE_MODE`) whatever the path points to (amendment A10).
 */
export function openSqliteInteractionStore(options: SqliteInteractionStoreOptions): SqliteInteractionStore {
  if (typeof options?.path !== "string" || options.path === "") {
    throw storeError("interaction_store_invalid", "path must be a non-empty string");
  }
  const now = options.now ?? Date.now;
  const monotonic = options.monotonic ?? (() => performance.now());
  const replayWindowMs = options.replayWindowMs ?? DEFAULT_REPLAY_WINDOW_MS;
  // The store opens the file itself first (A10): created 0600 without following a link, or refused.
  const file = openStateFile(options.path);
  let db: Database.Database;
  try {
    db = new Database(file.path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  } catch (error) {
    file.release(true);
    throw storeError(
      "interaction_store_unavailable",
      `cannot open the database file${sqliteCode(error) ? ` (${sqliteCode(error)})` : ""}`,
    );
  }
  try {
    // Exclusive mode takes effect with the first read below and holds the lock until close.
    if (options.exclusive === true) db.pragma("locking_mode = EXCLUSIVE");
    // A foreign or newer database is refused before anything writes to it (WAL mode rewrites the header).
    checkSchema(db);
    // A Raw database (or an empty file): 0600 before SQLite creates a companion with the file's mode.
    file.restrict();
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    migrate(db);
    // The companions SQLite created (or an earlier run left) are 0600 too, or the store is refused.
    file.restrict();
  } catch (error) {
    db.close();
    file.release(true);
    throw translate(error);
  }

  const statements = {
    insert: db.prepare(
      `INSERT INTO raw_interactions (session_key, request_id, owner, state, revision, created_at, deadline, record)
       VALUES (?, ?, ?, 'pending', 1, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    get: db.prepare("SELECT * FROM raw_interactions WHERE session_key = ? AND request_id = ?"),
    update: db.prepare(
      `UPDATE raw_interactions SET state = ?, revision = ?, settled_at = ?, idempotency_key = ?, fingerprint = ?,
       canonical_result = ? WHERE session_key = ? AND request_id = ? AND revision = ?`,
    ),
    pendingOf: db.prepare("SELECT * FROM raw_interactions WHERE owner = ? AND state = 'pending'"),
    overdue: db.prepare("SELECT * FROM raw_interactions WHERE state = 'pending' AND deadline <= ?"),
    pendingOne: db.prepare(
      "SELECT * FROM raw_interactions WHERE session_key = ? AND request_id = ? AND state = 'pending'",
    ),
    pendingAll: db.prepare("SELECT * FROM raw_interactions WHERE state = 'pending' ORDER BY created_at"),
    pendingIn: db.prepare(
      "SELECT * FROM raw_interactions WHERE state = 'pending' AND session_key = ? ORDER BY created_at",
    ),
    prune: db.prepare("DELETE FROM raw_interactions WHERE state != 'pending' AND settled_at < ?"),
    prunable: db.prepare(
      "SELECT 1 FROM raw_interactions WHERE state != 'pending' AND settled_at < ? LIMIT 1",
    ),
    savePanels: db.prepare(
      `INSERT INTO raw_panel_snapshots (session_key, snapshot, saved_at) VALUES (?, ?, ?)
       ON CONFLICT (session_key) DO UPDATE SET snapshot = excluded.snapshot, saved_at = excluded.saved_at`,
    ),
    loadPanels: db.prepare("SELECT snapshot FROM raw_panel_snapshots WHERE session_key = ?"),
  };

  const watchers = new Map<string, Set<(record: InteractionRecord) => void>>();
  const watchKey = (sessionId: string | undefined, requestId: string) =>
    `${sessionKey(sessionId)}\u0000${requestId}`;
  /**
   * The monotonic end of the wait of every pending request this store created or recovered, keyed like `watchers`:
   * what the sweep expires by, so a wall-clock jump while this process runs moves no deadline.
   */
  const waits = new Map<string, { sessionKey: string; requestId: string; endsAt: number }>();
  /** Starts measuring a pending request's wait: what is left of it, never more than its whole `timeout_ms`. */
  const measure = (record: InteractionRecord) => {
    const whole = record.deadline - record.createdAt;
    const left = Math.max(0, Math.min(record.deadline - now(), whole));
    waits.set(watchKey(record.identity.sessionId, record.identity.requestId), {
      sessionKey: sessionKey(record.identity.sessionId),
      requestId: record.identity.requestId,
      endsAt: monotonic() + left,
    });
  };
  const notify = (record: InteractionRecord) => {
    const set = watchers.get(watchKey(record.identity.sessionId, record.identity.requestId));
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(record);
      } catch {
        // A throwing waiter never affects the store.
      }
    }
  };

  /** Writes a settled record (the revision it came from must still be stored). */
  const write = (previous: InteractionRecord, next: InteractionRecord) => {
    const changed = statements.update.run(
      next.state,
      next.revision,
      now(),
      next.idempotencyKey ?? null,
      next.fingerprint ?? null,
      next.canonicalResult ?? null,
      sessionKey(next.identity.sessionId),
      next.identity.requestId,
      previous.revision,
    ).changes;
    if (changed !== 1)
      throw storeError("interaction_store_error", "the request changed while it was settled");
    waits.delete(watchKey(next.identity.sessionId, next.identity.requestId));
  };

  const settleTx = db.transaction(
    (
      sessionId: string | undefined,
      requestId: string,
      settle: InteractionSettle,
    ): [InteractionAcknowledgement, InteractionRecord?] => {
      const row = statements.get.get(sessionKey(sessionId), requestId) as Row | undefined;
      if (!row) throw interactionNotFound();
      checkStorableSettle(settle);
      const current = recordOf(row);
      const outcome = settleRecord(current, settle);
      if (outcome.replay) return [acknowledgementOf(outcome.record)];
      write(current, outcome.record);
      return [acknowledgementOf(outcome.record), outcome.record];
    },
  );

  const endPending = db.transaction((rows: Row[], state: "expired" | "interrupted") => {
    const settled: InteractionRecord[] = [];
    for (const row of rows) {
      const current = recordOf(row);
      const { record } = settleRecord(current, {
        expectedRevision: current.revision,
        state,
        canonicalResult: TERMINAL_RESULTS[state],
      });
      write(current, record);
      settled.push(record);
    }
    return settled;
  });

  let closed = false;
  let sweepTimer: ReturnType<typeof setInterval> | undefined;

  const store: SqliteInteractionStore = {
    create: guarded((record: InteractionRecord) => {
      checkStorableRecord(record);
      const { sessionId, requestId, owner } = record.identity;
      const {
        revision: _r,
        state: _s,
        canonicalResult: _c,
        idempotencyKey: _k,
        fingerprint: _f,
        ...base
      } = record;
      const inserted = statements.insert.run(
        sessionKey(sessionId),
        requestId,
        owner,
        record.createdAt,
        record.deadline,
        JSON.stringify(base),
      ).changes;
      if (inserted !== 1) throw interactionDuplicate(requestId);
      measure(record);
    }),
    get: guarded((sessionId: string | undefined, requestId: string) => {
      if (!storable(sessionId, requestId)) return undefined;
      const row = statements.get.get(sessionKey(sessionId), requestId) as Row | undefined;
      return row ? recordOf(row) : undefined;
    }),
    settle: guarded((sessionId: string | undefined, requestId: string, settle: InteractionSettle) => {
      if (!storable(sessionId, requestId)) throw interactionNotFound();
      const [ack, settled] = settleTx.immediate(sessionId, requestId, settle);
      if (settled) notify(settled);
      return ack;
    }),
    interruptPending: guarded((owner: string) => {
      if (!isStorableId(owner)) return 0;
      const settled = endPending.immediate(statements.pendingOf.all(owner) as Row[], "interrupted");
      for (const record of settled) notify(record);
      return settled.length;
    }),
    watch(sessionId, requestId, listener) {
      // A request that could never be stored never settles.
      if (!storable(sessionId, requestId)) return () => {};
      const current = store.get(sessionId, requestId);
      if (current && current.state !== "pending") {
        listener(current);
        return () => {};
      }
      const k = watchKey(sessionId, requestId);
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
    expireOverdue: guarded(() => {
      const elapsed = monotonic();
      const due: Row[] = [];
      // Requests this store measures: by elapsed time only.
      for (const [k, wait] of waits) {
        if (wait.endsAt > elapsed) continue;
        const row = statements.pendingOne.get(wait.sessionKey, wait.requestId) as Row | undefined;
        if (row) due.push(row);
        else waits.delete(k);
      }
      // Any other request (written by another connection): by its persisted wall-clock deadline.
      for (const row of statements.overdue.all(now()) as Row[]) {
        if (!waits.has(`${row.session_key}\u0000${row.request_id}`)) due.push(row);
      }
      // Nothing due: no write transaction, so another process's write lock is never waited for.
      if (due.length === 0) return 0;
      const settled = endPending.immediate(due, "expired");
      for (const record of settled) notify(record);
      return settled.length;
    }),
    prune: guarded(() => {
      const before = now() - replayWindowMs;
      // A read first (never blocked in WAL mode): the write lock is asked for only when there is something to delete.
      if (statements.prunable.get(before) === undefined) return 0;
      return statements.prune.run(before).changes;
    }),
    pending: guarded((sessionId?: string) =>
      (!isStorableSessionId(sessionId)
        ? []
        : ((sessionId === undefined
            ? statements.pendingAll.all()
            : statements.pendingIn.all(sessionKey(sessionId))) as Row[])
      ).map(recordOf),
    ),
    savePanels: guarded((sessionId: string | undefined, snapshot: unknown) => {
      if (!isStorableSessionId(sessionId)) {
        throw storeError("interaction_invalid", "sessionId must be a storable id (see MAX_STORE_ID_BYTES)");
      }
      statements.savePanels.run(sessionKey(sessionId), JSON.stringify(snapshot), now());
    }),
    loadPanels: guarded((sessionId: string | undefined) => {
      if (!isStorableSessionId(sessionId)) return undefined;
      const row = statements.loadPanels.get(sessionKey(sessionId)) as { snapshot: string } | undefined;
      return row ? (JSON.parse(row.snapshot) as unknown) : undefined;
    }),
    close() {
      if (closed) return;
      closed = true;
      if (sweepTimer !== undefined) clearInterval(sweepTimer);
      watchers.clear();
      waits.clear();
      db.close();
      file.release();
    },
  };

  // Recovery: requests whose deadline passed while the host was down end `expired` (the wall clock is the only
  // time that outlived the process); the others are measured from now on, for at most their whole `timeout_ms`
  // (a wall clock set back while the host was down cannot stretch them); old settled rows go.
  try {
    store.expireOverdue();
    for (const record of store.pending()) measure(record);
    store.prune();
  } catch (error) {
    db.close();
    file.release();
    throw error;
  }
  const interval = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  if (interval > 0) {
    sweepTimer = setInterval(() => {
      try {
        store.expireOverdue();
        store.prune();
      } catch {
        // The next sweep tries again; operations report their own errors.
      }
    }, interval);
    sweepTimer.unref?.();
  }
  return store;
}
