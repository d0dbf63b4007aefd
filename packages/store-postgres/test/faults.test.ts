import { spawn } from "node:child_process";
import { sampleInteractionRecord } from "@raw/panel/testing";
import { isContractError } from "@raw/schema";
import { readLines } from "@raw/test-support/line-reader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  LEASE_TAKEOVER_TIMEOUT_MS,
  openPostgresInteractionStore,
  type PostgresInteractionStore,
} from "../src/index.js";
import { startCluster, type TestCluster } from "./pg-harness.js";

let cluster: TestCluster;
const stores: PostgresInteractionStore[] = [];
beforeAll(async () => {
  cluster = await startCluster();
}, 60_000);
afterAll(async () => {
  for (const store of stores) await store.close();
  cluster?.stop();
});

let n = 0;
const schemaName = () => `fault_${n++}`;
async function open(schema: string): Promise<PostgresInteractionStore> {
  const store = await openPostgresInteractionStore({
    connectionString: cluster.url,
    schema,
    sweepIntervalMs: 0,
  });
  stores.push(store);
  return store;
}

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return isContractError(error) ? error.code : `not a ContractError: ${String(error)}`;
  }
  return "no error";
}

describe("savePanels is fenced", () => {
  it("a stale holder's snapshot is refused with interaction_store_fenced; the new holder's stays", async () => {
    const schema = schemaName();
    const stale = await open(schema);
    const fresh = await open(schema);
    await stale.claimLease("s1");
    await stale.savePanels("s1", { from: "stale", n: 1 });
    await fresh.claimLease("s1");
    await fresh.savePanels("s1", { from: "fresh" });
    expect(await codeOf(() => stale.savePanels("s1", { from: "stale", n: 2 }))).toBe(
      "interaction_store_fenced",
    );
    expect(await fresh.loadPanels("s1")).toEqual({ from: "fresh" });
  });
});

/**
 * Another process's settle, paused between its `FOR UPDATE` and its `COMMIT`: it takes the same locks as the store's
 * settle (the lease row `FOR SHARE`, the request row `FOR UPDATE`), says `locked`, and is then stopped with SIGSTOP.
 */
const PAUSED_SETTLE = `
const pg = require("pg");
const [url, schema, key, requestId] = process.argv.slice(1);
const client = new pg.Client({ connectionString: url, application_name: "raw-store-paused" });
(async () => {
  await client.connect();
  await client.query("BEGIN");
  await client.query("SELECT epoch FROM " + schema + ".leases WHERE session_key = $1 FOR SHARE", [key]);
  await client.query("SELECT * FROM " + schema + ".interactions WHERE session_key = $1 AND request_id = $2 FOR UPDATE", [key, requestId]);
  process.stdout.write("locked\\n");
  setInterval(() => {}, 1000);
})();
`;

describe("bounded waits on locks", () => {
  it("takes over the lease of a holder paused (SIGSTOP) inside a transaction within the bound; other sessions are not starved", async () => {
    const schema = schemaName();
    const store = await open(schema);
    await store.claimLease("s1");
    const record = sampleInteractionRecord({ sessionId: "s1" });
    await store.create(record);
    const child = spawn(process.execPath, [
      "-e",
      PAUSED_SETTLE,
      cluster.url,
      schema,
      "+s1",
      record.identity.requestId,
    ]);
    try {
      await readLines(child).line("locked");
      child.kill("SIGSTOP");
      const other = await open(schema);
      const started = performance.now();
      const takeover = other.claimLease("s1").then(
        () => performance.now() - started,
        (error: unknown) => (isContractError(error) ? error.code : String(error)),
      );
      // Meanwhile another session's calls go through on the same store.
      const unrelated = sampleInteractionRecord({ sessionId: "s2" });
      await other.create(unrelated);
      expect(
        (
          await other.settle("s2", unrelated.identity.requestId, {
            expectedRevision: 1,
            state: "cancelled",
            canonicalResult: '{"status":"cancelled"}',
          })
        ).state,
      ).toBe("cancelled");
      const unrelatedMs = performance.now() - started;
      const outcome = await Promise.race([
        takeover,
        new Promise((resolve) => setTimeout(() => resolve("still waiting after 10 s"), 10_000)),
      ]);
      console.log(
        `takeover against a paused holder: ${JSON.stringify(outcome)} ms; other session ${Math.round(unrelatedMs)} ms`,
      );
      expect(typeof outcome).toBe("number");
      expect(outcome as number).toBeLessThan(LEASE_TAKEOVER_TIMEOUT_MS + 1_000);
      expect(unrelatedMs).toBeLessThan(LEASE_TAKEOVER_TIMEOUT_MS);
      // The new holder settles the request; the paused one, once resumed, holds nothing.
      expect(
        (
          await other.settle("s1", record.identity.requestId, {
            expectedRevision: 1,
            state: "cancelled",
            canonicalResult: '{"status":"cancelled"}',
          })
        ).state,
      ).toBe("cancelled");
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);
});

describe("one session's locked row never holds up the sweep", () => {
  it("a holder paused on one request: the sweep still expires another session's overdue request", async () => {
    const schema = schemaName();
    const store = await open(schema);
    const now = Date.now();
    const locked = sampleInteractionRecord({
      sessionId: "s1",
      createdAt: now - 10_000,
      deadline: now - 5_000,
    });
    const orphan = sampleInteractionRecord({
      sessionId: "s2",
      createdAt: now - 10_000,
      deadline: now - 5_000,
    });
    await store.create(locked);
    await store.create(orphan);
    const sweeper = await open(schema);
    const child = spawn(process.execPath, [
      "-e",
      PAUSED_SETTLE,
      cluster.url,
      schema,
      "+s1",
      locked.identity.requestId,
    ]);
    try {
      await readLines(child).line("locked");
      child.kill("SIGSTOP");
      expect(await sweeper.expireOverdue()).toBe(1);
      expect((await sweeper.get("s2", orphan.identity.requestId))?.state).toBe("expired");
      expect((await sweeper.get("s1", locked.identity.requestId))?.state).toBe("pending");
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);
});
