import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineInteractionStoreConformance } from "@raw/panel/testing";
import { afterAll } from "vitest";
import { openSqliteInteractionStore } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "raw-sqlite-conformance-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

// The case's clock is the store's wall clock, and the expiry sweep runs often, so the clock-jump cases reach it.
defineInteractionStoreConformance("sqlite", ({ clock }) =>
  openSqliteInteractionStore({ path: join(dir, `store-${n++}.db`), sweepIntervalMs: 50, now: clock.now }),
);
