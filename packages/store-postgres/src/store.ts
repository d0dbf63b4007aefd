import { createHash } from "node:crypto";
import {
  acknowledgementOf,
  checkStorableRecord,
  checkStorableSettle,
  type InteractionAcknowledgement,
  type InteractionRecord,
  type InteractionSettle,
  type InteractionStore,
  interactionDuplicate,
  interactionNotFound,
  isStorableId,
  isStorableSessionId,
  settleRecord,
  TERMINAL_RESULTS,
} from "@raw/panel/host";
import { deepFreeze, isContractError } from "@raw/schema";
import pg from "pg";
import { driverCode, storeError } from "./errors.js";
import {
  CONNECT_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_REPLAY_WINDOW_MS,
  DEFAULT_SWEEP_INTERVAL_MS,
  LEASE_TAKEOVER_TIMEOUT_MS,
  LISTEN_HEARTBEAT_INTERVAL_MS,
  LISTEN_HEARTBEAT_TIMEOUT_MS,
  LISTEN_KEEPALIVE_IDLE_MS,
  MAX_RECONNECT_DELAY_MS,
  RECONNECT_DELAY_MS,
  SCHEMA_NAME_PATTERN,
  STORE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  STORE_LOCK_TIMEOUT_MS,
  STORE_QUERY_TIMEOUT_MS,
  STORE_STATEMENT_TIMEOUT_MS,
} from "./limits.js";
import { migrate } from "./migrations.js";

/** Options of `openPostgresInteractionStore`. */
export interface PostgresInteractionStoreOptions {
  /** A `postgres://` connection string (or use `connection`). */
  connectionString?: string;
  /** `pg` connection settings, merged over `connectionString`. */
  connection?: pg.ClientConfig;
  /** The schema holding the tables (default `raw`). */
  schema?: string;
  /** This process's name in leases (default a fresh UUID). */
  holder?: string;
  /** Most pooled connections (default `DEFAULT_POOL_SIZE`). */
  poolSize?: number;
  /** How long settled requests stay for idempotent replays before pruning (default 24 hours). */
  replayWindowMs?: number;
  /** The current wall-clock time in epoch milliseconds (default `Date.now`); it may jump. */
  now?: () => number;
  /** Elapsed time in milliseconds that never jumps (default `performance.now`): the sweep's measure of a wait. */
  monotonic?: () => number;
  /**
   * Period of the sweep that settles overdue requests `expired` (also those of a process that died) and prunes old
   * settled ones; `0` turns it off (default `DEFAULT_SWEEP_INTERVAL_MS`).
   */
  sweepIntervalMs?: number;
}

/** The PostgreSQL interaction store: the async store contract plus leases, recovery, pruning and panel snapshots. */
export interface PostgresInteractionStore extends InteractionStore {
  /** This process's lease holder name. */
  readonly holder: string;
  /**
   * Takes the lease of a session: its epoch goes up by one and this store holds it. From then on every create,
   * settle and interruption of that session by this store checks, in the same transaction, that the epoch is still
   * its own; once another process claimed the session, they fail with `interaction_store_fenced` and change nothing.
   */
  claimLease(sessionId: string | undefined): Promise<number>;
  /**
   * Settles every overdue pending request as `expired`; returns how many. A request this store created is overdue
   * once its wait has elapsed on this process's monotonic clock (a wall clock set forward never ends it early, one
   * set back never keeps it past its `timeout_ms`); a request of another process (or of one that died) once this
   * process's wall clock passes its persisted deadline, so hosts on several machines need synchronized clocks.
   */
  expireOverdue(): Promise<number>;
  /** Deletes settled requests older than the replay window; returns how many. */
  prune(): Promise<number>;
  /**
   * Recovery after owner loss (`panels.md` §13.5 read with owner fencing): marks `interrupted` the pending requests
   * of `owner` whose session this store holds, has no lease, or is leased by a holder that is no longer live (a
   * live holder keeps an advisory lock on its listening connection). Another live holder's sessions are never
   * touched. Returns how many.
   */
  interruptPending(owner: string): Promise<number>;
  /** The pending requests (of one session when given), oldest first. */
  pending(sessionId?: string): Promise<InteractionRecord[]>;
  /**
   * Stores the panel host snapshot of a session (any JSON value), replacing the previous one; fenced like every
   * write (`interaction_store_fenced` once another process claimed the session).
   */
  savePanels(sessionId: string | undefined, snapshot: unknown): Promise<void>;
  /** The last panel snapshot of a session, if any. */
  loadPanels(sessionId: string | undefined): Promise<unknown>;
  /** Whether the listening connection is up (wake-ups from other processes arrive). */
  readonly listening: boolean;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
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

/** Whether a lookup's ids could ever have been stored (any other id is unknown, whatever the server makes of it). */
function storable(sessionId: string | undefined, requestId: string): boolean {
  return isStorableSessionId(sessionId) && isStorableId(requestId);
}

/** A session argument of a lease or snapshot call: `interaction_invalid` unless a store could keep it. */
function checkSession(sessionId: string | undefined): void {
  if (!isStorableSessionId(sessionId)) {
    throw storeError("interaction_invalid", "sessionId must be a storable id (see MAX_STORE_ID_BYTES)");
  }
}

/**
 * The wake-up payload of a request: the MD5 of its session column and of its id (64 hex characters), so a
 * `NOTIFY` never outgrows the server's 8,000-byte limit whatever the ids (the server computes the same with `md5`).
 */
function wakeKey(key: string, requestId: string): string {
  const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");
  return md5(key) + md5(requestId);
}

/** Resolves after `ms` milliseconds without holding the process open. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
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

const UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P03",
]);

/** A driver failure as a coded error, never the driver's message or stack. */
function translate(error: unknown): unknown {
  if (isContractError(error)) return error;
  const code = driverCode(error);
  if (code !== undefined && UNAVAILABLE.has(code)) {
    return storeError(
      "interaction_store_unavailable",
      `the database refused or lost the connection (${code})`,
    );
  }
  if (code === "55P03" || code === "57014") {
    return storeError("interaction_store_busy", `a lock or statement timeout ended the operation (${code})`);
  }
  if (error instanceof Error && /timeout|terminated|Connection/i.test(error.message)) {
    return storeError("interaction_store_unavailable", "the database refused or lost the connection");
  }
  return storeError("interaction_store_error", `database operation failed${code ? ` (${code})` : ""}`);
}

/**
 * Opens the PostgreSQL interaction store: migrates the schema (under an advisory lock), starts a listening
 * connection for cross-process wake-ups (`LISTEN/NOTIFY`, re-listened after a reconnect, with every watched
 * request checked again so no answer is lost), and returns the store. Throws `interaction_store_unavailable`
 * when the server refuses connections, `interaction_store_schema_newer` or `interaction_store_foreign` for a
 * schema it must not touch, `interaction_store_invalid` for bad options.
 */
export async function openPostgresInteractionStore(
  options: PostgresInteractionStoreOptions,
): Promise<PostgresInteractionStore> {
  const schema = options.schema ?? "raw";
  if (!SCHEMA_NAME_PATTERN.test(schema)) {
    throw storeError("interaction_store_invalid", "schema must match ^[a-z_][a-z0-9_]{0,47}$");
  }
  const holder = options.holder ?? crypto.randomUUID();
  const now = options.now ?? Date.now;
  const monotonic = options.monotonic ?? (() => performance.now());
  const replayWindowMs = options.replayWindowMs ?? DEFAULT_REPLAY_WINDOW_MS;
  const channel = `raw_interactions_${schema}`;
  /** The first key of the advisory lock every live holder of this schema keeps on its listening connection. */
  const liveLock = `raw-holder:${schema}`;
  const config: pg.ClientConfig = {
    ...(options.connectionString !== undefined ? { connectionString: options.connectionString } : {}),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...options.connection,
  };
  const pool = new pg.Pool({
    ...config,
    // Every wait is bounded below the interaction service's store timeout (5 s).
    lock_timeout: STORE_LOCK_TIMEOUT_MS,
    statement_timeout: STORE_STATEMENT_TIMEOUT_MS,
    query_timeout: STORE_QUERY_TIMEOUT_MS,
    idle_in_transaction_session_timeout: STORE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    application_name: `raw-store-${holder}`,
  });
  pool.on("error", () => {
    // An idle connection that dies is replaced on the next checkout.
  });
  try {
    const client = await pool.connect();
    try {
      await migrate(client, schema);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw translate(error);
  }

  const leases = new Map<string, number>();
  const watchers = new Map<string, Set<(record: InteractionRecord) => void>>();
  /** The watched requests by wake-up payload (`wakeKey`). */
  const wakes = new Map<string, { key: string; requestId: string }>();
  const watchKey = (key: string, requestId: string) => `${key}\u0000${requestId}`;
  /** The monotonic end of the wait of every request this store created and has not seen settled. */
  const waits = new Map<string, { key: string; requestId: string; endsAt: number }>();
  let closed = false;
  let listener: pg.Client | undefined;
  let listening = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let sweepTimer: ReturnType<typeof setInterval> | undefined;
  /** The heartbeat of the current listening connection. */
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let delay = RECONNECT_DELAY_MS;

  /** Runs `work` in a transaction on one pooled connection; a fenced session rolls back. */
  const transaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    if (closed) throw storeError("interaction_store_closed", "the store is closed");
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw translate(error);
    }
    let broken = false;
    try {
      await client.query("BEGIN");
      const out = await work(client);
      await client.query("COMMIT");
      return out;
    } catch (error) {
      // A driver failure (a timeout, a lost server) may leave the connection mid-query: it is discarded.
      broken = !isContractError(error);
      await client.query("ROLLBACK").catch(() => {
        broken = true;
      });
      throw translate(error);
    } finally {
      client.release(broken);
    }
  };

  /**
   * Ends the server sessions of other Raw stores (`raw-store-*`) that hold a lock on this schema's leases while idle
   * in a transaction for longer than `STORE_IDLE_IN_TRANSACTION_TIMEOUT_MS`: a paused or partitioned holder. A
   * session of another application is never touched. Needs the same role (or `pg_signal_backend`).
   */
  const endPausedHolders = async () => {
    await query(
      `SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a
       WHERE a.pid <> pg_backend_pid() AND a.state LIKE 'idle in transaction%'
       AND a.application_name LIKE 'raw-store-%'
       AND a.state_change < clock_timestamp() - make_interval(secs => $1::double precision / 1000)
       AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.relation = '${schema}.leases'::regclass)`,
      [STORE_IDLE_IN_TRANSACTION_TIMEOUT_MS],
    ).catch(() => {});
  };

  const query = async (text: string, values: unknown[] = []) => {
    if (closed) throw storeError("interaction_store_closed", "the store is closed");
    try {
      return await pool.query(text, values);
    } catch (error) {
      throw translate(error);
    }
  };

  /** Inside a transaction: fails with `interaction_store_fenced` when this store's lease of the session was lost. */
  const checkFence = async (client: pg.PoolClient, key: string) => {
    const mine = leases.get(key);
    if (mine === undefined) return;
    const row = await client.query(`SELECT epoch FROM ${schema}.leases WHERE session_key = $1 FOR SHARE`, [
      key,
    ]);
    const epoch = Number((row.rows[0] as { epoch?: string } | undefined)?.epoch);
    if (epoch !== mine) {
      throw storeError("interaction_store_fenced", "another process took over the lease of this session");
    }
  };

  const deliver = (record: InteractionRecord) => {
    const k = watchKey(sessionKey(record.identity.sessionId), record.identity.requestId);
    waits.delete(k);
    const set = watchers.get(k);
    if (!set) return;
    watchers.delete(k);
    wakes.delete(wakeKey(sessionKey(record.identity.sessionId), record.identity.requestId));
    for (const listen of set) {
      try {
        listen(record);
      } catch {
        // A throwing waiter never affects the store.
      }
    }
  };

  /** Reads a watched request and wakes its waiters when it is terminal. */
  const recheck = async (key: string, requestId: string) => {
    try {
      const rows = await query(
        `SELECT * FROM ${schema}.interactions WHERE session_key = $1 AND request_id = $2`,
        [key, requestId],
      );
      const row = rows.rows[0] as Row | undefined;
      if (row && row.state !== "pending") deliver(recordOf(row));
    } catch {
      // Checked again after the next reconnect.
    }
  };

  const listen = async () => {
    if (closed) return;
    const client = new pg.Client({
      ...config,
      application_name: `raw-listen-${holder}`,
      keepAlive: true,
      keepAliveInitialDelayMillis: LISTEN_KEEPALIVE_IDLE_MS,
    });
    const retry = () => {
      if (heartbeat !== undefined) clearInterval(heartbeat);
      heartbeat = undefined;
      client.removeAllListeners();
      client.on("error", () => {});
      client.end().catch(() => {});
      // A dropped connection may never answer the goodbye: its socket goes at once.
      (
        client as unknown as { connection?: { stream?: { destroy?(): void } } }
      ).connection?.stream?.destroy?.();
      if (listener !== undefined && listener !== client) return;
      listener = undefined;
      listening = false;
      if (closed || reconnectTimer !== undefined) return;
      reconnectTimer = setTimeout(() => {
        reconnectTimer = undefined;
        void listen();
      }, delay);
      reconnectTimer.unref?.();
      delay = Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
    };
    client.on("error", retry);
    client.on("end", retry);
    client.on("notification", (message) => {
      const watched = wakes.get(message.payload ?? "");
      if (watched !== undefined) void recheck(watched.key, watched.requestId);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      // While this connection lives, this holder is live: other processes' recovery leaves its sessions alone.
      await client.query("SELECT pg_try_advisory_lock(hashtext($1), hashtext($2))", [liveLock, holder]);
    } catch {
      retry();
      return;
    }
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    listener = client;
    listening = true;
    delay = RECONNECT_DELAY_MS;
    // A connection a relay dropped without closing never says so: a heartbeat that goes unanswered ends it.
    let beating = false;
    heartbeat = setInterval(() => {
      if (beating || closed) return;
      beating = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const dead = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("heartbeat unanswered")), LISTEN_HEARTBEAT_TIMEOUT_MS);
      });
      const beat = client.query("SELECT 1");
      beat.catch(() => {});
      Promise.race([beat, dead])
        .catch(retry)
        .finally(() => {
          clearTimeout(timer);
          beating = false;
        });
    }, LISTEN_HEARTBEAT_INTERVAL_MS);
    heartbeat.unref?.();
    // Anything settled while the connection was down is found now: no answer is lost.
    for (const k of [...watchers.keys()]) {
      const [s, r] = k.split("\u0000") as [string, string];
      void recheck(s, r);
    }
  };
  await listen();

  const notifySql = `SELECT pg_notify('${channel}', md5($1::text) || md5($2::text))`;

  const endPending = async (where: string, values: unknown[], state: "expired" | "interrupted") => {
    const settled = await transaction(async (client) => {
      const rows =
        // A row another transaction holds (a settle in flight, a paused holder) is skipped, never waited for: one
        // session's stuck row never holds up the sweep or recovery of the others; the next sweep sees it again.
        (
          await client.query(
            `SELECT * FROM ${schema}.interactions WHERE ${where} FOR UPDATE SKIP LOCKED`,
            values,
          )
        ).rows as Row[];
      const out: InteractionRecord[] = [];
      for (const row of rows) {
        if (leases.has(row.session_key)) {
          try {
            await client.query("SAVEPOINT fence");
            await checkFence(client, row.session_key);
            await client.query("RELEASE SAVEPOINT fence");
          } catch {
            await client.query("ROLLBACK TO SAVEPOINT fence");
            continue;
          }
        }
        const current = recordOf(row);
        const { record } = settleRecord(current, {
          expectedRevision: current.revision,
          state,
          canonicalResult: TERMINAL_RESULTS[state],
        });
        await client.query(
          `UPDATE ${schema}.interactions SET state = $1, revision = $2, settled_at = $3, canonical_result = $4
           WHERE session_key = $5 AND request_id = $6`,
          [record.state, record.revision, now(), record.canonicalResult, row.session_key, row.request_id],
        );
        await client.query(notifySql, [row.session_key, row.request_id]);
        out.push(record);
      }
      return out;
    });
    for (const record of settled) deliver(record);
    return settled.length;
  };

  const store: PostgresInteractionStore = {
    holder,
    get listening() {
      return listening;
    },
    async claimLease(sessionId) {
      checkSession(sessionId);
      const key = sessionKey(sessionId);
      const until = monotonic() + LEASE_TAKEOVER_TIMEOUT_MS;
      let epoch: number | undefined;
      // A holder paused inside a transaction keeps the lease row locked: each attempt waits at most
      // STORE_LOCK_TIMEOUT_MS, then a paused Raw holder's idle transaction is ended, within LEASE_TAKEOVER_TIMEOUT_MS.
      while (epoch === undefined) {
        try {
          epoch = await transaction(async (client) => {
            const claimed = await client.query(
              `INSERT INTO ${schema}.leases (session_key, epoch, holder, claimed_at) VALUES ($1, 1, $2, $3)
               ON CONFLICT (session_key) DO UPDATE SET epoch = ${schema}.leases.epoch + 1, holder = excluded.holder,
               claimed_at = excluded.claimed_at RETURNING epoch`,
              [key, holder, now()],
            );
            return Number((claimed.rows[0] as { epoch: string }).epoch);
          });
        } catch (error) {
          const timedOut = isContractError(error) && /55P03|57014/.test(error.message);
          if (!timedOut || monotonic() >= until) throw error;
          await endPausedHolders();
        }
      }
      leases.set(key, epoch);
      return epoch;
    },
    async create(record) {
      checkStorableRecord(record);
      const { sessionId, requestId, owner } = record.identity;
      const key = sessionKey(sessionId);
      const {
        revision: _r,
        state: _s,
        canonicalResult: _c,
        idempotencyKey: _k,
        fingerprint: _f,
        ...base
      } = record;
      await transaction(async (client) => {
        await checkFence(client, key);
        const inserted = await client.query(
          `INSERT INTO ${schema}.interactions
           (session_key, request_id, owner, state, revision, created_at, deadline, record)
           VALUES ($1, $2, $3, 'pending', 1, $4, $5, $6) ON CONFLICT DO NOTHING`,
          [key, requestId, owner, record.createdAt, record.deadline, JSON.stringify(base)],
        );
        if (inserted.rowCount !== 1) throw interactionDuplicate(requestId);
      });
      waits.set(watchKey(key, requestId), {
        key,
        requestId,
        endsAt: monotonic() + Math.max(0, record.deadline - record.createdAt),
      });
    },
    async get(sessionId, requestId) {
      if (!storable(sessionId, requestId)) return undefined;
      const rows = await query(
        `SELECT * FROM ${schema}.interactions WHERE session_key = $1 AND request_id = $2`,
        [sessionKey(sessionId), requestId],
      );
      const row = rows.rows[0] as Row | undefined;
      return row ? recordOf(row) : undefined;
    },
    async settle(sessionId, requestId, settle: InteractionSettle): Promise<InteractionAcknowledgement> {
      if (!storable(sessionId, requestId)) throw interactionNotFound();
      const key = sessionKey(sessionId);
      const [ack, settled] = await transaction(async (client) => {
        await checkFence(client, key);
        const rows = await client.query(
          `SELECT * FROM ${schema}.interactions WHERE session_key = $1 AND request_id = $2 FOR UPDATE`,
          [key, requestId],
        );
        const row = rows.rows[0] as Row | undefined;
        if (!row) throw interactionNotFound();
        checkStorableSettle(settle);
        const current = recordOf(row);
        const outcome = settleRecord(current, settle);
        if (outcome.replay) return [acknowledgementOf(outcome.record), undefined] as const;
        const next = outcome.record;
        await client.query(
          `UPDATE ${schema}.interactions SET state = $1, revision = $2, settled_at = $3, idempotency_key = $4,
           fingerprint = $5, canonical_result = $6 WHERE session_key = $7 AND request_id = $8`,
          [
            next.state,
            next.revision,
            now(),
            next.idempotencyKey ?? null,
            next.fingerprint ?? null,
            next.canonicalResult ?? null,
            key,
            requestId,
          ],
        );
        await client.query(notifySql, [key, requestId]);
        return [acknowledgementOf(next), next] as const;
      });
      if (settled) deliver(settled);
      return ack;
    },
    async interruptPending(owner) {
      if (!isStorableId(owner)) return 0;
      // Only sessions this store holds, that have no lease, or whose holder is gone (its advisory lock released).
      return endPending(
        `owner = $1 AND state = 'pending' AND NOT EXISTS (
           SELECT 1 FROM ${schema}.leases l WHERE l.session_key = interactions.session_key AND l.holder <> $2
           AND EXISTS (SELECT 1 FROM pg_locks k WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 2
             AND k.classid = (hashtext($3)::bigint & 4294967295)::oid
             AND k.objid = (hashtext(l.holder)::bigint & 4294967295)::oid))`,
        [owner, holder, liveLock],
        "interrupted",
      );
    },
    async watch(sessionId, requestId, listen) {
      // A request that could never be stored never settles.
      if (!storable(sessionId, requestId)) return () => {};
      const key = sessionKey(sessionId);
      const k = watchKey(key, requestId);
      wakes.set(wakeKey(key, requestId), { key, requestId });
      let set = watchers.get(k);
      if (!set) {
        set = new Set();
        watchers.set(k, set);
      }
      set.add(listen);
      const stop = () => {
        const current = watchers.get(k);
        current?.delete(listen);
        if (current?.size === 0) {
          watchers.delete(k);
          wakes.delete(wakeKey(key, requestId));
        }
      };
      try {
        await recheck(key, requestId);
      } catch (error) {
        stop();
        throw error;
      }
      return stop;
    },
    async expireOverdue() {
      const elapsed = monotonic();
      const mine = [...waits.values()];
      const due = mine.filter((wait) => wait.endsAt <= elapsed);
      // Requests this store measures: by elapsed time only; any other one: by its persisted wall-clock deadline.
      const count = await endPending(
        `state = 'pending' AND (
           (deadline <= $1 AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[]) AS m(s, r)
             WHERE m.s = session_key AND m.r = request_id))
           OR EXISTS (SELECT 1 FROM unnest($4::text[], $5::text[]) AS d(s, r)
             WHERE d.s = session_key AND d.r = request_id))`,
        [
          now(),
          mine.map((w) => w.key),
          mine.map((w) => w.requestId),
          due.map((w) => w.key),
          due.map((w) => w.requestId),
        ],
        "expired",
      );
      // Expired now, or settled meanwhile by another process: either way no longer measured here.
      for (const wait of due) waits.delete(watchKey(wait.key, wait.requestId));
      return count;
    },
    async prune() {
      const result = await query(
        `DELETE FROM ${schema}.interactions WHERE state <> 'pending' AND settled_at < $1`,
        [now() - replayWindowMs],
      );
      return result.rowCount ?? 0;
    },
    async pending(sessionId) {
      if (!isStorableSessionId(sessionId)) return [];
      const result =
        sessionId === undefined
          ? await query(`SELECT * FROM ${schema}.interactions WHERE state = 'pending' ORDER BY created_at`)
          : await query(
              `SELECT * FROM ${schema}.interactions WHERE state = 'pending' AND session_key = $1 ORDER BY created_at`,
              [sessionKey(sessionId)],
            );
      return (result.rows as Row[]).map(recordOf);
    },
    async savePanels(sessionId, snapshot) {
      checkSession(sessionId);
      const key = sessionKey(sessionId);
      // Fenced like every other write: a holder whose lease was taken over changes nothing.
      await transaction(async (client) => {
        await checkFence(client, key);
        await client.query(
          `INSERT INTO ${schema}.panel_snapshots (session_key, snapshot, saved_at) VALUES ($1, $2, $3)
           ON CONFLICT (session_key) DO UPDATE SET snapshot = excluded.snapshot, saved_at = excluded.saved_at`,
          [key, JSON.stringify(snapshot), now()],
        );
      });
    },
    async loadPanels(sessionId) {
      if (!isStorableSessionId(sessionId)) return undefined;
      const result = await query(`SELECT snapshot FROM ${schema}.panel_snapshots WHERE session_key = $1`, [
        sessionKey(sessionId),
      ]);
      const row = result.rows[0] as { snapshot: string } | undefined;
      return row ? (JSON.parse(row.snapshot) as unknown) : undefined;
    },
    async close() {
      if (closed) return;
      closed = true;
      listening = false;
      if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
      if (sweepTimer !== undefined) clearInterval(sweepTimer);
      if (heartbeat !== undefined) clearInterval(heartbeat);
      watchers.clear();
      wakes.clear();
      waits.clear();
      if (listener) {
        listener.removeAllListeners();
        listener.on("error", () => {});
        const ending = listener.end().catch(() => {});
        // A connection a relay dropped never answers the goodbye: its socket goes after a short wait.
        const gone = await Promise.race([ending.then(() => true), sleep(1_000).then(() => false)]);
        if (!gone)
          (
            listener as unknown as { connection?: { stream?: { destroy?(): void } } }
          ).connection?.stream?.destroy?.();
      }
      await pool.end().catch(() => {});
    },
  };
  const interval = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  let sweeping = false;
  if (interval > 0) {
    sweepTimer = setInterval(() => {
      if (sweeping || closed) return;
      sweeping = true;
      store
        .expireOverdue()
        .then(() => store.prune())
        .catch(() => {
          // The next sweep tries again; operations report their own errors.
        })
        .finally(() => {
          sweeping = false;
        });
    }, interval);
    sweepTimer.unref?.();
  }
  return store;
}
