import type Database from "better-sqlite3";
import { storeError } from "./errors.js";
import { SQLITE_APPLICATION_ID, SQLITE_SCHEMA_VERSION } from "./limits.js";

/** The migrations of the schema: entry `i` moves a database from version `i` to `i + 1`. */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE raw_interactions (
     session_key TEXT NOT NULL,
     request_id TEXT NOT NULL,
     owner TEXT NOT NULL,
     state TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     deadline INTEGER NOT NULL,
     settled_at INTEGER,
     idempotency_key TEXT,
     fingerprint TEXT,
     canonical_result TEXT,
     record TEXT NOT NULL,
     PRIMARY KEY (session_key, request_id)
   ) STRICT;
   CREATE INDEX raw_interactions_pending ON raw_interactions (state, deadline);
   CREATE INDEX raw_interactions_owner ON raw_interactions (owner, state);
   CREATE INDEX raw_interactions_settled ON raw_interactions (settled_at);
   CREATE TABLE raw_panel_snapshots (
     session_key TEXT PRIMARY KEY,
     snapshot TEXT NOT NULL,
     saved_at INTEGER NOT NULL
   ) STRICT;`,
];

/**
 * Refuses, without writing a byte, a database this package must not touch: another application's
 * (`interaction_store_foreign`) or one written by a newer version (`interaction_store_schema_newer`). Run before
 * anything that writes (even switching the journal to WAL rewrites the file header).
 */
export function checkSchema(db: Database.Database): void {
  const applicationId = db.pragma("application_id", { simple: true }) as number;
  const version = db.pragma("user_version", { simple: true }) as number;
  const tables = (
    db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").get() as {
      n: number;
    }
  ).n;
  if (applicationId !== SQLITE_APPLICATION_ID && (applicationId !== 0 || tables > 0)) {
    throw storeError("interaction_store_foreign", "the database file belongs to another application");
  }
  if (version > SQLITE_SCHEMA_VERSION) {
    throw storeError(
      "interaction_store_schema_newer",
      `schema version ${version} is newer than ${SQLITE_SCHEMA_VERSION}; upgrade @raw/store-sqlite`,
    );
  }
}

/**
 * Brings the database to `SQLITE_SCHEMA_VERSION` in one transaction: an empty database is initialized, an older
 * schema migrated. A database of another application is `interaction_store_foreign`; one written by a newer
 * version of this package is `interaction_store_schema_newer`. Nothing is changed in either case.
 */
export function migrate(db: Database.Database): void {
  db.transaction(() => {
    // Checked again inside the write transaction: another connection may have changed the file meanwhile.
    checkSchema(db);
    const applicationId = db.pragma("application_id", { simple: true }) as number;
    const version = db.pragma("user_version", { simple: true }) as number;
    for (let v = version; v < SQLITE_SCHEMA_VERSION; v++) db.exec(SQLITE_MIGRATIONS[v] as string);
    if (applicationId === 0) db.pragma(`application_id = ${SQLITE_APPLICATION_ID}`);
    if (version !== SQLITE_SCHEMA_VERSION) db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  }).immediate();
}
