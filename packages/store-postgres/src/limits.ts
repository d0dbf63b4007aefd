/** The schema version this package writes; a database with a higher one is refused (`interaction_store_schema_newer`). */
export const POSTGRES_SCHEMA_VERSION = 1;

/** How long a settled request stays for idempotent replays before it is pruned: 24 hours (`panels.md` §13.4). */
export const DEFAULT_REPLAY_WINDOW_MS = 86_400_000;

/** First wait before the listening connection reconnects (milliseconds); it doubles up to `MAX_RECONNECT_DELAY_MS`. */
export const RECONNECT_DELAY_MS = 50;

/** Longest wait between two reconnect attempts of the listening connection (milliseconds). */
export const MAX_RECONNECT_DELAY_MS = 2_000;

/** Most connections of the store's pool (the listening connection is extra). */
export const DEFAULT_POOL_SIZE = 4;

/** Longest wait to get a connection from the server (milliseconds). */
export const CONNECT_TIMEOUT_MS = 5_000;

/** A schema name: lower-case letters, digits and underscores, at most 48 characters. */
export const SCHEMA_NAME_PATTERN = /^[a-z_][a-z0-9_]{0,47}$/;

/** Default period of the sweep that expires overdue requests of any process (milliseconds); `0` turns it off. */
export const DEFAULT_SWEEP_INTERVAL_MS = 1_000;

/**
 * Longest wait of one store statement for a row lock another transaction holds (milliseconds, the server's
 * `lock_timeout`); below the interaction service's store timeout (5 s), so a waiting call fails coded instead.
 */
export const STORE_LOCK_TIMEOUT_MS = 1_000;

/** Longest run of one store statement on the server (milliseconds, the server's `statement_timeout`). */
export const STORE_STATEMENT_TIMEOUT_MS = 2_000;

/**
 * Longest wait for the server's answer to one query (milliseconds, the driver's `query_timeout`): a partitioned
 * server fails the call and the connection is discarded, never returned to the pool.
 */
export const STORE_QUERY_TIMEOUT_MS = 3_000;

/**
 * How long a transaction may sit idle on the server before the server ends its session and releases its locks
 * (milliseconds, `idle_in_transaction_session_timeout`): what frees the rows of a holder paused or partitioned
 * inside a transaction.
 */
export const STORE_IDLE_IN_TRANSACTION_TIMEOUT_MS = 2_000;

/**
 * Longest `claimLease` against a paused or partitioned holder (milliseconds): it retries its lock wait until the
 * server has ended the holder's idle transaction (`STORE_IDLE_IN_TRANSACTION_TIMEOUT_MS`), within this bound.
 */
export const LEASE_TAKEOVER_TIMEOUT_MS = 4_000;

/** Period of the heartbeat (`SELECT 1`) on the listening connection (milliseconds). */
export const LISTEN_HEARTBEAT_INTERVAL_MS = 1_000;

/**
 * Longest wait for the heartbeat's answer (milliseconds): past it the listening connection counts as dead (a relay
 * or NAT that dropped it without closing), `listening` turns `false`, and a new connection listens and re-reads
 * every waiting request. With `LISTEN_HEARTBEAT_INTERVAL_MS` this bounds detection to 3 s, so an answer stored
 * after a silent drop wakes its waiter within `LISTEN_WAKE_BOUND_MS`.
 */
export const LISTEN_HEARTBEAT_TIMEOUT_MS = 2_000;

/** TCP keepalive idle time of the listening connection (milliseconds): the kernel probes a silent peer too. */
export const LISTEN_KEEPALIVE_IDLE_MS = 1_000;

/** The documented bound: an answer stored after a silent drop of the listening connection wakes its waiter within this. */
export const LISTEN_WAKE_BOUND_MS = 5_000;
