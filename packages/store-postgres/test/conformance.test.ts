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

defineInteractionStoreConformance("postgres", () =>
  openPostgresInteractionStore({ connectionString: cluster.url, schema: `conf_${n++}` }),
);
