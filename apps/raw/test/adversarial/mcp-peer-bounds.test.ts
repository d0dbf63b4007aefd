import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { appRoot, bin, fixtures, raw, tempDir } from "../cli/helpers.js";

// `raw mcp proxy` (the built binary) in front of a hostile MCP server written on the official SDK
// (test/fixtures/mcp/hostile-server.mjs), driven by the SDK client over stdio: what the server sends is bounded,
// the proxy keeps answering, and the result codes are Raw's own (amendment A10, "Bounded by what others send").
const hostile = join(fixtures, "mcp", "hostile-server.mjs");

/** The proxy's resident set stays below this during a list_changed flood and a list of 8 MiB descriptions (measured: 140–145 MiB). */
const MAX_PROXY_RSS_BYTES = 300 * 1024 * 1024;

/** Raw C1 controls and bidirectional / invisible format characters (A1): never in what Raw writes. */
const UNESCAPED =
  /[\u0080-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

interface Proxy {
  client: Client;
  pid: number;
  /** How many notifications/tools/list_changed the client got from the proxy. */
  changed: () => number;
  /** Resolves at the next list_changed the proxy sends. */
  nextChange: () => Promise<void>;
}

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

function allowAll(): string {
  const file = join(tempDir("raw-mcp-bounds-"), "rules.json");
  writeFileSync(file, JSON.stringify([{ match: "*", effect: "allow" }]));
  return file;
}

async function proxy(mode: string, trace?: string): Promise<Proxy> {
  const args = [bin, "mcp", "proxy", "--rules", allowAll(), "--name", "hostile"];
  if (trace !== undefined) args.push("--trace", trace);
  const client = new Client({ name: "bounds-test", version: "1" }, { capabilities: {} });
  let changed = 0;
  const waiters: Array<() => void> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed++;
    for (const w of waiters.splice(0)) w();
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args, "--", process.execPath, hostile, mode],
    cwd: appRoot,
    stderr: "ignore",
  });
  await client.connect(transport);
  clients.push(client);
  const pid = transport.pid;
  if (pid === null) throw new Error("the proxy has no pid");
  return {
    client,
    pid,
    changed: () => changed,
    nextChange: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
      }),
  };
}

/** VmRSS of a live process, in bytes. */
function rss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Samples the RSS of `pid` every 50 ms until `until` settles; returns the largest sample. */
async function peakRss(pid: number, until: Promise<unknown>): Promise<number> {
  let peak = rss(pid);
  let done = false;
  const finished = until.finally(() => {
    done = true;
  });
  while (!done) {
    await Promise.race([finished, new Promise((r) => setTimeout(r, 50))]);
    try {
      peak = Math.max(peak, rss(pid));
    } catch {
      break;
    }
  }
  await finished;
  return peak;
}

const text = (result: unknown) =>
  ((result as CallToolResult).content as Array<{ text?: string }>).map((b) => b.text ?? "").join("\n");

async function stats(client: Client): Promise<{ lists: number }> {
  return JSON.parse(text(await client.callTool({ name: "stats", arguments: {} }))) as { lists: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("raw mcp proxy: a hostile server is bounded (A10)", () => {
  it("40 tools with slow schemas: every ping answers within 1 s while the proxy loads them", async () => {
    const p = await proxy("slow-schemas");
    const loaded = p.nextChange();
    let done = false;
    void loaded.then(() => {
      done = true;
    });
    await p.client.callTool({ name: "grow", arguments: {} });
    const latencies: number[] = [];
    const deadline = Date.now() + 120_000;
    while (!done && Date.now() < deadline) {
      const start = performance.now();
      await p.client.ping({ timeout: 60_000 });
      latencies.push(performance.now() - start);
      await sleep(100);
    }
    expect(done).toBe(true);
    expect(latencies.length).toBeGreaterThan(3);
    expect(Math.max(...latencies)).toBeLessThan(1_000);
    // Every tool ends either registered or skipped with a code: the proxy still serves the others.
    const listed = await p.client.listTools();
    expect(listed.tools.map((t) => t.name)).toContain("stats");
  }, 180_000);

  it("20,000 tools/list_changed in one burst: bounded RSS, the re-lists and the notices passed on are coalesced", async () => {
    const p = await proxy("flood");
    const before = (await stats(p.client)).lists;
    const grow = p.client.callTool({ name: "grow", arguments: {} }, undefined, { timeout: 60_000 });
    const peak = await peakRss(
      p.pid,
      grow.then(() => sleep(5_000)),
    );
    const after = (await stats(p.client)).lists;
    expect(peak).toBeLessThan(MAX_PROXY_RSS_BYTES);
    // One re-list in flight and one queued: a burst costs at most a few lists, never one per notification.
    expect(after - before).toBeLessThanOrEqual(4);
    expect(p.changed()).toBeLessThanOrEqual(4);
    const listed = await p.client.listTools();
    expect(listed.tools.length).toBe(203);
  }, 120_000);

  it("tool descriptions just under 8 MiB on six pages: bounded RSS, descriptions shortened with a stated remainder", async () => {
    const p = await proxy("big-descriptions");
    const changed = p.nextChange();
    await p.client.callTool({ name: "grow", arguments: {} });
    const peak = await peakRss(
      p.pid,
      Promise.race([changed, sleep(90_000)]).then(() => sleep(1_000)),
    );
    expect(peak).toBeLessThan(MAX_PROXY_RSS_BYTES);
    const listed = await p.client.listTools();
    const big = listed.tools.filter((t) => t.name.startsWith("big_"));
    expect(big.length).toBeGreaterThan(0);
    for (const tool of big) {
      expect(Buffer.byteLength(tool.description ?? "")).toBeLessThan(80 * 1024);
      expect(tool.description).toMatch(/… [\d,]+ more bytes$/);
    }
  }, 150_000);

  it("a server error naming a Raw code (data.rawCode) ends as mcp_server_error", async () => {
    const p = await proxy("flood");
    const result = (await p.client.callTool({ name: "fail", arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result._meta?.["raw/code"]).toBe("mcp_server_error");
    expect(text(result)).not.toContain("hook_denied");
  }, 60_000);
});

describe("raw mcp: server text is escaped (A1)", () => {
  it("raw mcp tools --format json: one well-formed document, C1 and bidi characters as \\u escapes", () => {
    const run = raw(["mcp", "tools", "--format", "json", "--", process.execPath, hostile, "display"]);
    expect(run.stdout).not.toMatch(UNESCAPED);
    const report = JSON.parse(run.stdout) as {
      tools: Array<{ name: string; annotations: { title?: string } | null }>;
      skipped: Array<{ tool: string }>;
    };
    expect(report.tools.find((t) => t.name === "shown")?.annotations?.title).toBe(
      "evil\u009b31m\u202etxt.exe",
    );
    expect(report.skipped.map((s) => s.tool)).toContain("bad\u009b[2J\u202ename");
    expect(run.stdout).toContain("\\u009b");
    expect(run.stdout).toContain("\\u202e");
  }, 60_000);

  it("raw mcp proxy --trace: the log holds server text escaped, one JSON line per message", async () => {
    const trace = join(tempDir("raw-mcp-trace-"), "trace.jsonl");
    const p = await proxy("display", trace);
    await p.client.listTools();
    const log = readFileSync(trace, "utf8");
    expect(log).not.toMatch(UNESCAPED);
    expect(log).toContain("\\u202e");
    const lines = log.split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(log).toContain("evil");
  }, 60_000);
});
