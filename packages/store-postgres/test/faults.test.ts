import { isContractError } from "@raw/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresInteractionStore, type PostgresInteractionStore } from "../src/index.js";
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
