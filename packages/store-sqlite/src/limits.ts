/** The schema version this package writes; a database with a higher one is refused (`interaction_store_schema_newer`). */
export const SQLITE_SCHEMA_VERSION = 1;

/** SQLite `application_id` of a Raw interaction database ("RAW1"); any other non-zero id is a foreign database. */
export const SQLITE_APPLICATION_ID = 0x52415731;

/** How long a settled request stays for idempotent replays before it is pruned: 24 hours (`panels.md` §13.4). */
export const DEFAULT_REPLAY_WINDOW_MS = 86_400_000;

/**
 * How long a write waits for a lock held by another connection before failing with `interaction_store_busy`
 * (milliseconds). SQLite waits synchronously, on the host's event loop, so this is the longest stall another
 * process's write lock can cause; the sweep then tries again on its next turn.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 100;

/** Default period of the sweep that expires overdue requests and prunes old settled ones (milliseconds). */
export const DEFAULT_SWEEP_INTERVAL_MS = 1_000;

/**
 * The mode of the database file and of its `-journal`, `-wal` and `-shm` companions: owner read and write only (a
 * host may keep secrets in the file, such as `raw serve`'s page token).
 */
export const STATE_FILE_MODE = 0o600;
