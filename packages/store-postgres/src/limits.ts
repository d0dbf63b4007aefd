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
