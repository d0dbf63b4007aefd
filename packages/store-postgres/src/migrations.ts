import type { PoolClient } from "pg";
import { storeError } from "./errors.js";
import { POSTGRES_SCHEMA_VERSION } from "./limits.js";

/** The migrations of the schema `s`: entry `i` moves it from version `i` to `i + 1`. */
export function postgresMigrations(s: string): readonly string[] {
  return [
    `CREATE TABLE ${s}.interactions (
       session_key text NOT NULL,
       request_id text NOT NULL,
       owner text NOT NULL,
       state text NOT NULL,
       revision integer NOT NULL,
       created_at bigint NOT NULL,
       deadline bigint NOT NULL,
       settled_at bigint,
       idempotency_key text,
       fingerprint text,
       canonical_result text,
       record text NOT NULL,
       PRIMARY KEY (session_key, request_id)
     );
     CREATE INDEX interactions_pending ON ${s}.interactions (state, deadline);
     CREATE INDEX interactions_owner ON ${s}.interactions (owner, state);
     CREATE INDEX interactions_settled ON ${s}.interactions (settled_at);
     CREATE TABLE ${s}.leases (
       session_key text PRIMARY KEY,
       epoch bigint NOT NULL,
       holder text NOT NULL,
       claimed_at bigint NOT NULL
     );
     CREATE TABLE ${s}.panel_snapshots (
       session_key text PRIMARY KEY,
       snapshot text NOT NULL,
       saved_at bigint NOT NULL
     );`,
  ];
}

/**
 * Brings schema `s` to `POSTGRES_SCHEMA_VERSION` in one transaction under an advisory lock, so processes starting
 * together migrate once. A newer version is `interaction_store_schema_newer`; a schema that exists with tables but
 * without the Raw version row is `interaction_store_foreign`. Nothing is changed in either case.
 */
export async function migrate(client: PoolClient, s: string): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`raw-store:${s}`]);
    const exists = await client.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1",
      [s],
    );
    const tables = (exists.rows[0] as { n: number }).n;
    let version = 0;
    if (tables > 0) {
      const meta = await client.query(
        "SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'raw_meta'",
        [s],
      );
      if (meta.rowCount === 0) {
        throw storeError("interaction_store_foreign", `schema ${s} belongs to another application`);
      }
      const row = await client.query(`SELECT value FROM ${s}.raw_meta WHERE key = 'version'`);
      version = Number((row.rows[0] as { value?: string } | undefined)?.value ?? Number.NaN);
      if (!Number.isSafeInteger(version)) {
        throw storeError("interaction_store_foreign", `schema ${s} belongs to another application`);
      }
    }
    if (version > POSTGRES_SCHEMA_VERSION) {
      throw storeError(
        "interaction_store_schema_newer",
        `schema version ${version} is newer than ${POSTGRES_SCHEMA_VERSION}; upgrade @raw/store-postgres`,
      );
    }
    if (version === 0) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await client.query(`CREATE TABLE ${s}.raw_meta (key text PRIMARY KEY, value text NOT NULL)`);
    }
    const steps = postgresMigrations(s);
    for (let v = version; v < POSTGRES_SCHEMA_VERSION; v++) await client.query(steps[v] as string);
    await client.query(
      `INSERT INTO ${s}.raw_meta (key, value) VALUES ('version', $1)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [String(POSTGRES_SCHEMA_VERSION)],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
