// Wall-clock jumps against real host processes on one SQLite file: the host's clock is injected (system time plus an
// offset the test sets), its timers are the real ones. A live request is measured by elapsed time; a restarted host
// judges recovered requests by their persisted deadline, for at most their own timeout_ms.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readLines } from "@raw/test-support/line-reader";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bundleHost } from "./bundle.js";

const TWO_HOURS_MS = 7_200_000;
const dir = mkdtempSync(join(tmpdir(), "raw-sqlite-clock-"));
let host: string;
const children: ChildProcessWithoutNullStreams[] = [];
beforeAll(async () => {
  host = await bundleHost("fixtures/clock-host.ts");
}, 60_000);
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** A host process on `path` with its wall clock `offset` ms from the system's; `line(prefix)` awaits its output. */
function start(path: string, offset = 0) {
  const child = spawn(process.execPath, [host, path, String(offset)], { stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  const reader = readLines(child);
  const line = async (prefix: string, ms = 10_000): Promise<string> =>
    (await reader.line(prefix, ms)).slice(prefix.length);
  const send = (text: string) => child.stdin.write(`${text}\n`);
  const killed = () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  return { child, line, send, killed };
}

function row(path: string, id: string) {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare("SELECT state, revision, canonical_result FROM raw_interactions WHERE request_id = ?")
      .get(id) as { state: string; revision: number; canonical_result: string | null } | undefined;
  } finally {
    db.close();
  }
}

/** The row of a request that expired: settled once, by its deadline. */
const EXPIRED_ROW = { state: "expired", revision: 2, canonical_result: '{"status":"expired"}' };

/** A new database with a host process on it that asked one question of `timeoutMs`: the path, host and request id. */
async function askedOnNewHost(
  timeoutMs: number,
): Promise<{ path: string; host: ReturnType<typeof start>; id: string }> {
  const path = join(dir, `db-${n++}.sqlite`);
  const host = start(path);
  await host.line("ready ");
  host.send(`ask ${timeoutMs}`);
  return { path, host, id: await host.line("published ") };
}

describe("a wall clock that jumps while the host runs", () => {
  it("set forward two hours: the live request stays pending through the sweeps and its answer is taken once", async () => {
    const { path, host: h, id } = await askedOnNewHost(60000);
    h.send(`jump ${TWO_HOURS_MS}`);
    await h.line("jumped ");
    // Several expiry sweeps (every 50 ms) run on the jumped clock.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(row(path, id)).toMatchObject({ state: "pending", revision: 1 });
    h.send(`submit ${id} k1`);
    expect(await h.line("acked ")).toBe("answered 2");
    expect(JSON.parse(await h.line("result "))).toEqual({ status: "answered", answers: { notes: "k1" } });
    h.send(`submit ${id} k1`);
    expect(await h.line("acked ")).toBe("answered 2");
    h.send(`submit ${id} k2`);
    expect(await h.line("error ")).toBe("interaction_conflict");
    expect(row(path, id)).toEqual({
      state: "answered",
      revision: 2,
      canonical_result: '{"status":"answered","answers":{"notes":"k1"}}',
    });
  });

  it("set back two hours: the request still expires at its timeout_ms and a late answer conflicts", async () => {
    const { path, host: h, id } = await askedOnNewHost(600);
    h.send(`jump -${TWO_HOURS_MS}`);
    await h.line("jumped ");
    // A deadline read from the set-back wall clock would fall two hours later: the line's bounded wait (10 s) tells
    // the two apart without timing the host.
    expect(JSON.parse(await h.line("result "))).toEqual({ status: "expired" });
    h.send(`submit ${id} late`);
    expect(await h.line("error ")).toBe("interaction_conflict");
    expect(row(path, id)).toEqual(EXPIRED_ROW);
  });
});

describe("a wall clock that jumped while the host was down (kill -9, restart)", () => {
  it("set forward past the deadline: the recovered request settles expired at once", async () => {
    const { path, host: first, id } = await askedOnNewHost(60000);
    await first.killed();
    const second = start(path, TWO_HOURS_MS);
    expect(await second.line("ready ")).toBe("");
    expect(row(path, id)).toEqual(EXPIRED_ROW);
  });

  it("set back two hours: the recovered request waits at most its own timeout_ms, then expires; no answer doubled", async () => {
    const { path, host: first, id } = await askedOnNewHost(1500);
    await first.killed();
    const second = start(path, -TWO_HOURS_MS);
    expect(await second.line("ready ")).toBe(id);
    // Recovered and pending after the restart; it expires by its own timeout_ms, where the set-back persisted deadline
    // would keep it two hours: a bounded wait of 10 s (200 polls) tells the two apart without timing the host.
    for (let poll = 0; row(path, id)?.state === "pending" && poll < 200; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(row(path, id)).toEqual(EXPIRED_ROW);
    second.send(`submit ${id} late`);
    expect(await second.line("error ")).toBe("interaction_conflict");
  });

  it("set back, answered after the restart: the answer is taken once and survives the next restart", async () => {
    const { path, host: first, id } = await askedOnNewHost(60000);
    await first.killed();
    const second = start(path, -TWO_HOURS_MS);
    expect(await second.line("ready ")).toBe(id);
    second.send(`submit ${id} after`);
    expect(await second.line("acked ")).toBe("answered 2");
    await second.killed();
    const third = start(path);
    expect(await third.line("ready ")).toBe("");
    third.send(`submit ${id} after`);
    expect(await third.line("acked ")).toBe("answered 2");
    expect(row(path, id)).toEqual({
      state: "answered",
      revision: 2,
      canonical_result: '{"status":"answered","answers":{"notes":"after"}}',
    });
  });
});
