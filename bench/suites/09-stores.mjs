// Interaction stores (issue 16): request -> submit -> settle round trips per second for the memory, SQLite and
// PostgreSQL stores, and the wake-up latency of a request waiting on one PostgreSQL connection set when another
// settles it (LISTEN/NOTIFY through the server; median and p99). PostgreSQL runs as a throwaway cluster on a
// loopback port (Debian's binaries, as root through runuser); without them the PostgreSQL rows are skipped.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInteractionService, createMemoryInteractionStore } from "@raw/panel/host";
import { openPostgresInteractionStore } from "@raw/store-postgres";
import { openSqliteInteractionStore } from "@raw/store-sqlite";
import { info, skipped } from "../lib/harness.mjs";

const SUITE = "stores";
const ROUND_TRIPS = 300;
const WAKE_UPS = 200;

const DECLARATION = {
  id: "questions",
  title: "Questions",
  icon: "file-text",
  open: "never",
  context: "none",
  placement: "sidebar",
  acp_plan: false,
  actions: [
    { id: "submit", label: "Send", scope: "block", kind: "response", response: "submit", blocks: ["form"] },
    { id: "cancel", label: "Cancel", scope: "block", kind: "response", response: "cancel" },
  ],
};
const INPUT = {
  owner: "tools/ask",
  declaration: DECLARATION,
  panel: "questions",
  document: {
    title: "Q",
    blocks: [{ id: "form", kind: "form", fields: [{ id: "notes", label: "Notes", kind: "text" }] }],
  },
  timeout_ms: 60_000,
  maxOutputBytes: 65_536,
};

/** Round trips per second: publish a request, submit its answer through the service, await the settled result. */
async function roundTrips(store) {
  const service = createInteractionService({ interactive: true, store, sessionId: "bench" });
  let published;
  service.subscribe((event) => {
    if (event.type === "published") published?.(event.request);
  });
  const one = async (i) => {
    const request = new Promise((resolve) => {
      published = resolve;
    });
    const result = service.request(INPUT);
    const record = await request;
    await service.submit({
      requestId: record.identity.requestId,
      expectedRevision: 1,
      idempotencyKey: `k${i}`,
      response: "submit",
      answers: { notes: "ok" },
    });
    await result;
  };
  for (let i = 0; i < 20; i++) await one(i);
  const t0 = performance.now();
  for (let i = 0; i < ROUND_TRIPS; i++) await one(i);
  return ROUND_TRIPS / ((performance.now() - t0) / 1000);
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function startCluster() {
  const root = "/usr/lib/postgresql";
  const version = existsSync(root)
    ? readdirSync(root).find((v) => existsSync(join(root, v, "bin", "initdb")))
    : undefined;
  if (version === undefined) return undefined;
  const bin = join(root, version, "bin");
  const dir = mkdtempSync(join(tmpdir(), "raw-bench-pg-"));
  mkdirSync(join(dir, "sock"));
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
  for (const path of [dir, join(dir, "sock")]) chownSync(path, uid, gid);
  const as = (cmd, args) =>
    execFileSync("runuser", ["-u", "postgres", "--", join(bin, cmd), ...args], { stdio: "pipe" });
  as("initdb", ["-D", join(dir, "data"), "-A", "trust", "-U", "postgres", "--no-sync"]);
  return { as, dir };
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function run() {
  const rows = [];
  rows.push(
    info(SUITE, "memory round trips", `${Math.round(await roundTrips(createMemoryInteractionStore()))}/s`),
  );
  const dir = mkdtempSync(join(tmpdir(), "raw-bench-sqlite-"));
  try {
    const sqlite = openSqliteInteractionStore({ path: join(dir, "bench.db"), sweepIntervalMs: 0 });
    rows.push(
      info(SUITE, "sqlite round trips (WAL, synchronous FULL)", `${Math.round(await roundTrips(sqlite))}/s`),
    );
    sqlite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  let cluster;
  try {
    cluster = startCluster();
  } catch (error) {
    rows.push(skipped(SUITE, "postgres", `cannot start a cluster: ${error.message}`));
    return rows;
  }
  if (cluster === undefined) {
    rows.push(skipped(SUITE, "postgres", "PostgreSQL binaries not installed"));
    return rows;
  }
  const port = await freePort();
  const data = join(cluster.dir, "data");
  cluster.as("pg_ctl", [
    "-D",
    data,
    "-w",
    "-l",
    join(cluster.dir, "log"),
    "-o",
    `-p ${port} -k ${join(cluster.dir, "sock")} -c listen_addresses=127.0.0.1`,
    "start",
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    const a = await openPostgresInteractionStore({ connectionString: url, schema: "bench" });
    const b = await openPostgresInteractionStore({ connectionString: url, schema: "bench" });
    rows.push(info(SUITE, "postgres round trips", `${Math.round(await roundTrips(a))}/s`));
    // Wake-up: a request waits on store A; store B (its own connections) settles it.
    const waiting = createInteractionService({ interactive: true, store: a, sessionId: "wake" });
    const answering = createInteractionService({ interactive: true, store: b, sessionId: "wake" });
    let published;
    waiting.subscribe((event) => {
      if (event.type === "published") published?.(event.request);
    });
    const latencies = [];
    for (let i = 0; i < WAKE_UPS; i++) {
      const request = new Promise((resolve) => {
        published = resolve;
      });
      const result = waiting.request(INPUT);
      const record = await request;
      await answering.submit({
        requestId: record.identity.requestId,
        expectedRevision: 1,
        idempotencyKey: `w${i}`,
        response: "submit",
        answers: { notes: "ok" },
      });
      const acked = performance.now();
      await result;
      latencies.push(performance.now() - acked);
    }
    latencies.sort((x, y) => x - y);
    rows.push(
      info(
        SUITE,
        "postgres wake-up latency (LISTEN/NOTIFY, other connections)",
        `median ${quantile(latencies, 0.5).toFixed(2)} ms, p99 ${quantile(latencies, 0.99).toFixed(2)} ms over ${WAKE_UPS}`,
      ),
    );
    await a.close();
    await b.close();
  } finally {
    cluster.as("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    rmSync(cluster.dir, { recursive: true, force: true });
  }
  return rows;
}
