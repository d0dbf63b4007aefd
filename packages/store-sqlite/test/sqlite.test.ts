import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PanelDeclaration } from "@raw/panel";
import {
  createInteractionService,
  createPanelHost,
  restorePanelStates,
  snapshotPanelHost,
} from "@raw/panel/host";
import { sampleInteractionRecord } from "@raw/panel/testing";
import { isContractError } from "@raw/schema";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteInteractionStore, SQLITE_SCHEMA_VERSION } from "../src/index.js";
import { bundleHost } from "./bundle.js";

const dir = mkdtempSync(join(tmpdir(), "raw-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `db-${n++}.sqlite`);

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return isContractError(error) ? `${error.code} | ${error.message}` : `raw error: ${String(error)}`;
  }
  return "no error";
}

const ANSWER = '{"status":"answered","answers":{"notes":"ok"}}';
const settle = (key: string) => ({
  expectedRevision: 1,
  state: "answered" as const,
  canonicalResult: ANSWER,
  idempotencyKey: key,
  fingerprint: `f-${key}`,
});

describe("the database file", () => {
  it("is in WAL mode with the schema version and application id set", () => {
    const path = fresh();
    openSqliteInteractionStore({ path, sweepIntervalMs: 0 }).close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    expect(db.pragma("application_id", { simple: true })).toBe(0x52415731);
    db.close();
  });

  it("refuses a schema from a newer version, changing nothing", () => {
    const path = fresh();
    openSqliteInteractionStore({ path, sweepIntervalMs: 0 }).close();
    const db = new Database(path);
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    db.close();
    const bytes = readFileSync(path);
    expect(codeOf(() => openSqliteInteractionStore({ path, sweepIntervalMs: 0 }))).toBe(
      `interaction_store_schema_newer | interaction_store_schema_newer: schema version ${SQLITE_SCHEMA_VERSION + 1} is newer than ${SQLITE_SCHEMA_VERSION}; upgrade @raw/store-sqlite`,
    );
    const after = new Database(path, { readonly: true });
    expect(after.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION + 1);
    after.close();
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it("refuses another application's database without writing a byte (not even the WAL header)", () => {
    const folder = mkdtempSync(join(dir, "foreign-"));
    const path = join(folder, "other.db");
    const db = new Database(path);
    db.exec(
      "CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO accounts VALUES (1, 'x')",
    );
    db.close();
    const bytes = readFileSync(path);
    expect(codeOf(() => openSqliteInteractionStore({ path, sweepIntervalMs: 0 }))).toBe(
      "interaction_store_foreign | interaction_store_foreign: the database file belongs to another application",
    );
    const after = new Database(path, { readonly: true });
    expect(after.prepare("SELECT name FROM sqlite_schema").all()).toEqual([{ name: "accounts" }]);
    after.close();
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(readdirSync(folder)).toEqual(["other.db"]);
  });

  it("refuses a file that is not a database: interaction_store_corrupt, the file unchanged", () => {
    const path = fresh();
    const junk = `${"not a database ".repeat(400)}\n`;
    writeFileSync(path, junk);
    expect(codeOf(() => openSqliteInteractionStore({ path, sweepIntervalMs: 0 }))).toBe(
      "interaction_store_corrupt | interaction_store_corrupt: the database file is not a valid interaction database",
    );
    expect(readFileSync(path, "utf8")).toBe(junk);
  });

  it("a path that cannot be opened: interaction_store_unavailable; an empty path: interaction_store_invalid", () => {
    expect(codeOf(() => openSqliteInteractionStore({ path: join(dir, "missing", "dir", "x.db") }))).toMatch(
      /^interaction_store_unavailable \| interaction_store_unavailable: cannot open the database file/,
    );
    expect(codeOf(() => openSqliteInteractionStore({ path: "" }))).toBe(
      "interaction_store_invalid | interaction_store_invalid: path must be a non-empty string",
    );
  });

  it("a closed store fails with interaction_store_closed", () => {
    const store = openSqliteInteractionStore({ path: fresh(), sweepIntervalMs: 0 });
    store.close();
    expect(codeOf(() => store.get("s1", "x"))).toBe(
      "interaction_store_closed | interaction_store_closed: the store is closed",
    );
  });
});

describe("restarts", () => {
  it("keeps pending requests with their deadlines; those that passed while down settle expired", () => {
    const path = fresh();
    let time = 1_700_000_000_000;
    const now = () => time;
    const first = openSqliteInteractionStore({ path, now, sweepIntervalMs: 0 });
    const soon = sampleInteractionRecord({ sessionId: "s1", createdAt: time, deadline: time + 1_000 });
    const later = sampleInteractionRecord({ sessionId: "s1", createdAt: time, deadline: time + 60_000 });
    first.create(soon);
    first.create(later);
    first.close();
    time += 5_000;
    const second = openSqliteInteractionStore({ path, now, sweepIntervalMs: 0 });
    expect(second.get("s1", soon.identity.requestId)).toMatchObject({
      state: "expired",
      revision: 2,
      canonicalResult: '{"status":"expired"}',
    });
    expect(second.get("s1", later.identity.requestId)).toEqual(later);
    expect(second.pending("s1").map((r) => r.identity.requestId)).toEqual([later.identity.requestId]);
    second.close();
  });

  it("replays an idempotent submission after a restart and conflicts on a different one", async () => {
    const path = fresh();
    const first = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    const record = sampleInteractionRecord({
      sessionId: "s1",
      createdAt: Date.now(),
      deadline: Date.now() + 60_000,
    });
    first.create(record);
    const submission = {
      requestId: record.identity.requestId,
      expectedRevision: 1,
      idempotencyKey: "once",
      response: "submit",
      answers: { notes: "ok" },
    };
    const ack = createInteractionService({ interactive: true, store: first, sessionId: "s1" }).submit(
      submission,
    );
    first.close();
    const second = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    const service = createInteractionService({ interactive: true, store: second, sessionId: "s1" });
    expect(service.submit(submission)).toEqual(ack);
    expect(codeOf(() => service.submit({ ...submission, idempotencyKey: "twice" }))).toMatch(
      /^interaction_conflict/,
    );
    second.close();
  });

  it("prunes settled requests after the replay window, never pending ones", () => {
    let time = 1_700_000_000_000;
    const store = openSqliteInteractionStore({
      path: fresh(),
      now: () => time,
      replayWindowMs: 10_000,
      sweepIntervalMs: 0,
    });
    const settled = sampleInteractionRecord({ createdAt: time, deadline: time + 1_000_000 });
    const waiting = sampleInteractionRecord({ createdAt: time, deadline: time + 1_000_000 });
    store.create(settled);
    store.create(waiting);
    store.settle(undefined, settled.identity.requestId, settle("k"));
    time += 9_000;
    expect(store.prune()).toBe(0);
    time += 2_000;
    expect(store.prune()).toBe(1);
    expect(store.get(undefined, settled.identity.requestId)).toBeUndefined();
    expect(store.get(undefined, waiting.identity.requestId)?.state).toBe("pending");
    store.close();
  });

  it("the sweep expires an overdue request and wakes its waiting request()", async () => {
    const store = openSqliteInteractionStore({ path: fresh(), sweepIntervalMs: 20 });
    const record = sampleInteractionRecord({ createdAt: Date.now(), deadline: Date.now() + 50 });
    store.create(record);
    const seen: string[] = [];
    store.watch(undefined, record.identity.requestId, (r) => seen.push(r.state));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual(["expired"]);
    store.close();
  });

  it("panel snapshots survive a restart, one per session", () => {
    const path = fresh();
    const first = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    first.savePanels("s1", { panels: [{ id: "tools/x:todo", revision: 3 }] });
    first.savePanels("s1", { panels: [{ id: "tools/x:todo", revision: 4 }] });
    first.close();
    const second = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    expect(second.loadPanels("s1")).toEqual({ panels: [{ id: "tools/x:todo", revision: 4 }] });
    expect(second.loadPanels("s2")).toBeUndefined();
    second.close();
  });
});

describe("panel state across restarts", () => {
  it("a panel host restored from the store continues its revisions", async () => {
    const path = fresh();
    const declaration: PanelDeclaration = {
      id: "todo",
      title: "Todo",
      icon: "list-checks",
      open: "first_update",
      context: "none",
      placement: "sidebar",
      acp_plan: false,
      actions: [],
    };
    const document = (label: string) => ({
      blocks: [{ id: "tasks", kind: "checklist", items: [{ id: "a", label, status: "pending" }] }],
    });
    const first = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    const host = createPanelHost();
    const call = host.beginCall({ owner: "tools/x", declarations: [declaration], toolCallId: "c1" });
    await call.context.update("todo", { op: "replace", document: document("one") });
    await call.context.update("todo", { op: "replace", document: document("two") });
    call.settle({ hasOtherContent: true });
    first.savePanels("s1", snapshotPanelHost(host));
    first.close();

    const second = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    const restored = createPanelHost({ restore: restorePanelStates(second.loadPanels("s1")) });
    second.close();
    expect(restored.list()).toEqual(host.list());
    const next = restored.beginCall({ owner: "tools/x", declarations: [declaration], toolCallId: "c2" });
    await expect(
      next.context.update("todo", { op: "replace", document: document("three") }),
    ).resolves.toEqual({
      revision: 3,
    });
  });
});

describe("kill -9 during submissions", () => {
  it("every acknowledged answer survives; every other request is pending or answered, never corrupt or doubled", async () => {
    const path = fresh();
    const setup = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    const ids: string[] = [];
    const start = Date.now();
    for (let i = 0; i < 400; i++) {
      const record = sampleInteractionRecord({
        sessionId: "s1",
        createdAt: start + i,
        deadline: start + 3_600_000,
      });
      setup.create(record);
      ids.push(record.identity.requestId);
    }
    setup.close();
    const host = await bundleHost("fixtures/crash-host.ts");
    const child = spawn(process.execPath, [host, path], { stdio: ["ignore", "pipe", "pipe"] });
    const acked = new Set<string>();
    let buffer = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`host too slow: ${stderr}`)), 15_000);
      child.stdout.on("data", (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) {
          const [word, id] = line.split(" ");
          if (word === "acked" && id !== undefined) acked.add(id);
        }
        if (acked.size >= 40 && !child.killed) {
          child.kill("SIGKILL");
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(await exited).toBe("SIGKILL");
    expect(acked.size).toBeLessThan(ids.length);

    const db = new Database(path, { readonly: true });
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();
    const store = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    let answered = 0;
    for (const id of ids) {
      const record = store.get("s1", id);
      expect(record).toBeDefined();
      if (acked.has(id)) expect(record?.state).toBe("answered");
      expect(["pending", "answered"]).toContain(record?.state);
      if (record?.state === "answered") {
        answered++;
        expect(record.revision).toBe(2);
        expect(record.idempotencyKey).toBe(`key-${id}`);
        expect(record.canonicalResult).toBe(
          JSON.stringify({ status: "answered", answers: { notes: id.slice(0, 8) } }),
        );
      } else {
        expect(record?.revision).toBe(1);
        expect(record?.canonicalResult).toBeUndefined();
      }
    }
    expect(answered).toBeGreaterThanOrEqual(acked.size);
    expect(answered).toBeLessThanOrEqual(acked.size + 1);
    // The restarted host finishes the work: replays stay idempotent, the rest get answered exactly once.
    const service = createInteractionService({ interactive: true, store, sessionId: "s1" });
    for (const id of ids) {
      const submission = {
        requestId: id,
        expectedRevision: 1,
        idempotencyKey: `key-${id}`,
        response: "submit",
        answers: { notes: id.slice(0, 8) },
      };
      expect(service.submit(submission)).toMatchObject({ state: "answered", revision: 2 });
    }
    const rows = new Database(path, { readonly: true });
    expect(rows.prepare("SELECT count(*) AS n FROM raw_interactions").get()).toEqual({ n: ids.length });
    rows.close();
    store.close();
  });
});

describe("one host process per file", () => {
  it("an exclusive store holds the file: another process gets interaction_store_busy and changes nothing, until close", async () => {
    const path = fresh();
    const store = openSqliteInteractionStore({ path, sweepIntervalMs: 0, exclusive: true });
    const record = sampleInteractionRecord({ sessionId: "s1" });
    store.create(record);
    // Another process opening the same file: the plain driver, as any other host would.
    const probe = (readonly: boolean) =>
      new Promise<string>((resolve) => {
        const child = spawn(
          process.execPath,
          [
            "-e",
            `const D = require("better-sqlite3");
             try {
               const db = new D(process.argv[1], { readonly: ${readonly}, timeout: 100 });
               db.prepare("SELECT count(*) AS n FROM raw_interactions").get();
               console.log("opened");
             } catch (e) { console.log(e.code); }`,
            path,
          ],
          { stdio: ["ignore", "pipe", "inherit"] },
        );
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.on("exit", () => resolve(out.trim()));
      });
    expect(await probe(true)).toBe("SQLITE_BUSY");
    expect(await probe(false)).toBe("SQLITE_BUSY");
    expect(store.get("s1", record.identity.requestId)?.state).toBe("pending");
    store.close();
    expect(await probe(true)).toBe("opened");
    const again = openSqliteInteractionStore({ path, sweepIntervalMs: 0 });
    expect(again.get("s1", record.identity.requestId)).toEqual(record);
    again.close();
  });
});
