import { defineInteractionStoreConformance } from "@raw/panel/testing";
import { afterAll, beforeAll } from "vitest";
import { openPostgresInteractionStore } from "../src/index.js";
import { startCluster, type TestCluster } from "./pg-harness.js";

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 60_000);
afterAll(() => cluster?.stop());
let n = 0;

// The case's clock is the store's wall clock, and the expiry sweep runs often, so the clock-jump cases reach it.
defineInteractionStoreConformance(
  "postgres",
  ({ clock }) =>
    openPostgresInteractionStore({
      connectionString: cluster.url,
      schema: `conf_${n++}`,
      now: clock.now,
      sweepIntervalMs: 50,
    }),
  {
    // Two processes' stores on one schema: two holders, each with its own pool and listening connection.
    async openPeers({ clock }) {
      const schema = `conf_${n++}`;
      const open = () =>
        openPostgresInteractionStore({
          connectionString: cluster.url,
          schema,
          now: clock.now,
          sweepIntervalMs: 0,
        });
      const a = await open();
      return [a, await open()];
    },
  },
);
