export { driverCode, storeError } from "./errors.js";
export {
  CONNECT_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_REPLAY_WINDOW_MS,
  DEFAULT_SWEEP_INTERVAL_MS,
  LEASE_TAKEOVER_TIMEOUT_MS,
  MAX_RECONNECT_DELAY_MS,
  POSTGRES_SCHEMA_VERSION,
  RECONNECT_DELAY_MS,
  SCHEMA_NAME_PATTERN,
  STORE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  STORE_LOCK_TIMEOUT_MS,
  STORE_QUERY_TIMEOUT_MS,
  STORE_STATEMENT_TIMEOUT_MS,
} from "./limits.js";
export { migrate, postgresMigrations } from "./migrations.js";
export {
  openPostgresInteractionStore,
  type PostgresInteractionStore,
  type PostgresInteractionStoreOptions,
} from "./store.js";
