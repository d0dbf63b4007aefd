export { sqliteCode, storeError } from "./errors.js";
export {
  DEFAULT_REPLAY_WINDOW_MS,
  DEFAULT_SWEEP_INTERVAL_MS,
  SQLITE_APPLICATION_ID,
  SQLITE_BUSY_TIMEOUT_MS,
  SQLITE_SCHEMA_VERSION,
  STATE_FILE_MODE,
} from "./limits.js";
export { migrate, SQLITE_MIGRATIONS } from "./migrations.js";
export { SQLITE_COMPANION_SUFFIXES } from "./state-file.js";
export {
  openSqliteInteractionStore,
  type SqliteInteractionStore,
  type SqliteInteractionStoreOptions,
} from "./store.js";
