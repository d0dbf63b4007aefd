import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleInteractionRecord } from "@raw/panel/testing";
import { readLines } from "@raw/test-support/line-reader";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteInteractionStore } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "raw-sqlite-loop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Another process that takes the write lock of `path` (BEGIN IMMEDIATE) and holds it until killed. */
const LOCKER = `
const Database = require("better-sqlite3");
const db = new Database(process.argv[1], { timeout: 10000 });
db.prepare("BEGIN IMMEDIATE").run();
db.prepare("UPDATE raw_interactions SET owner = owner WHERE 0").run();
process.stdout.write("locked\\n");
setInterval(() => {}, 1000);
`;

describe("the sweep never stalls the host's event loop", () => {
  it("another process holds the write lock of a shared (non-exclusive) file: the event loop lag stays under 250 ms", async () => {
    const path = join(dir, "shared.sqlite");
    const store = openSqliteInteractionStore({ path, sweepIntervalMs: 200 });
    // One request already overdue by its persisted deadline, one live: the sweep has work it cannot do.
    const now = Date.now();
    store.create(
      sampleInteractionRecord({ sessionId: "s1", createdAt: now - 10_000, deadline: now - 5_000 }),
    );
    store.close();
    const reopened = openSqliteInteractionStore({ path, sweepIntervalMs: 200 });
    const late = sampleInteractionRecord({
      sessionId: "s1",
      createdAt: Date.now(),
      deadline: Date.now() + 1_500,
    });
    reopened.create(late);
    const child = spawn(process.execPath, ["-e", LOCKER, path], { cwd: process.cwd() });
    try {
      const { line } = readLines(child);
      await line("locked");
      let worst = 0;
      let last = performance.now();
      const tick = setInterval(() => {
        const at = performance.now();
        worst = Math.max(worst, at - last - 20);
        last = at;
      }, 20);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      clearInterval(tick);
      console.log(`event loop lag under a foreign write lock: worst ${Math.round(worst)} ms`);
      expect(worst).toBeLessThan(250);
      // The store still answers reads meanwhile.
      expect(reopened.get("s1", late.identity.requestId)?.identity.requestId).toBe(late.identity.requestId);
    } finally {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    // Once the lock is gone the sweep catches up.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(reopened.get("s1", late.identity.requestId)?.state).toBe("expired");
    reopened.close();
  }, 20_000);
});
