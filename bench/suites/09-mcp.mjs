// MCP proxy overhead (issue 14): one tools/call of a trivial stdio server through `raw mcp proxy` (rules, the whole
// dispatch pipeline, a second stdio hop) against the same SDK client calling the server directly.
// Target: proxy <= 1.10 x direct + 0.3 ms. Beside it, the floor: a bare proxy built from the SDK's own Server and
// Client with no Raw step (lib/bare-mcp-proxy.mjs), measured in the same rounds.
// Issue 25 rows (both revisions, both transports): ours / bare SDK proxy <= 1.0x for an allowed trivial tools/call
// over stdio (2025-11-25 with the SDK client; 2026-07-28 with a hand-written JSON-RPC client, the `_meta` envelope
// per request, no initialize, against the same bare proxy driven the same way); proxy p99 <= 2 ms; the same call
// over Streamable HTTP for both revisions (reported); and the 2026-07-28 `ask` round trip (input_required + retry)
// against one allowed call plus the approval view's build time.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describeApproval } from "@raw/host";
import { compareAsync, info, median, row, skipped } from "../lib/harness.mjs";

const SUITE = "mcp";
const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = join(root, "apps/raw/dist/bin.js");
const server = join(root, "packages/mcp/test/fixtures/fake-server.mjs");
const bareProxy = fileURLToPath(new URL("../lib/bare-mcp-proxy.mjs", import.meta.url));

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
const TOKEN = "bench-token-0123456789abcdef";

/** A 2026-07-28 peer over stdio: newline-delimited JSON-RPC, the envelope in `_meta`, no initialize. */
function modernStdio(command, args, env = process.env) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"], env });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  let id = 0;
  return {
    async call(params) {
      const requestId = ++id;
      const answer = new Promise((resolve) => waiting.set(requestId, resolve));
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: requestId, method: "tools/call", params: { ...params, _meta: META } })}\n`,
      );
      const message = await answer;
      if (message.error) throw new Error(JSON.stringify(message.error));
      return message.result;
    },
    close() {
      child.kill();
    },
  };
}

/** `raw mcp proxy --http 127.0.0.1:0` with the bench token; resolves to its URL and a stop function. */
async function httpProxy(rules, tail) {
  const child = spawn(
    process.execPath,
    [bin, "mcp", "proxy", "--rules", rules, "--http", "127.0.0.1:0", "--", ...tail],
    {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, RAW_MCP_TOKEN: TOKEN },
    },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8");
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL: ${stderr}`)), 30_000);
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const match = /serving on (\S+)/u.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return { url, stop: () => child.kill() };
}

/** One 2026-07-28 tools/call over HTTP: no session, the envelope in `_meta`. */
let httpId = 0;
async function modernHttp(url, params) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${TOKEN}`,
      "mcp-protocol-version": "2026-07-28",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++httpId,
      method: "tools/call",
      params: { ...params, _meta: META },
    }),
  });
  const message = await response.json();
  if (message.error) throw new Error(JSON.stringify(message.error));
  return message.result;
}

function p99(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
}

async function connect(command, args) {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
  return client;
}

export async function run() {
  if (!existsSync(bin))
    return [skipped(SUITE, "proxy / direct tools/call", "apps/raw is not built (npm run build)")];
  const dir = mkdtempSync(join(tmpdir(), "raw-bench-mcp-"));
  const rules = join(dir, "rules.json");
  writeFileSync(rules, JSON.stringify([{ match: "*", effect: "allow" }]));
  const direct = await connect(process.execPath, [server, "good"]);
  const proxied = await connect(process.execPath, [
    bin,
    "mcp",
    "proxy",
    "--rules",
    rules,
    "--",
    process.execPath,
    server,
    "good",
  ]);
  const bare = await connect(process.execPath, [bareProxy, process.execPath, server, "good"]);
  try {
    const args = { name: "ok", arguments: { text: "hello" } };
    for (const [name, client] of [
      ["proxy", proxied],
      ["bare proxy", bare],
    ]) {
      const check = await client.callTool(args);
      if (check.isError) throw new Error(`${name} call failed: ${JSON.stringify(check)}`);
    }
    const t = await compareAsync(
      {
        direct: () => direct.callTool(args),
        proxy: () => proxied.callTool(args),
        bare: () => bare.callTool(args),
      },
      { rounds: 10, calls: 50 },
    );
    const allowed = 1.1 * t.direct + 0.3;
    const rows = await revisionRows(dir, proxied, t);
    return [
      ...rows,
      info(
        SUITE,
        "floor: bare SDK proxy (Server + Client, no Raw step) / (1.10 x direct + 0.3 ms)",
        `${(t.bare / allowed).toFixed(3)}x; bare ${t.bare.toFixed(3)} ms, direct ${t.direct.toFixed(3)} ms, overhead ${(t.bare - t.direct).toFixed(3)} ms; ours / bare ${(t.proxy / t.bare).toFixed(2)}x (median per call, same rounds)`,
      ),
      row(
        SUITE,
        "proxy / (1.10 x direct + 0.3 ms), tools/call of a trivial stdio tool",
        t.proxy / allowed,
        { max: 1 },
        `proxy ${t.proxy.toFixed(3)} ms, direct ${t.direct.toFixed(3)} ms, overhead ${(t.proxy - t.direct).toFixed(3)} ms (median per call)`,
      ),
    ];
  } finally {
    await direct.close();
    await proxied.close();
    await bare.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The issue 25 rows: both revisions over stdio and HTTP, p99, and the 2026-07-28 ask round trip. */
async function revisionRows(dir, proxied, t) {
  const rows = [];
  const args = { name: "ok", arguments: { text: "hello" } };
  rows.push(
    row(
      SUITE,
      "2025-11-25 stdio: ours / bare SDK proxy, tools/call of a trivial tool",
      t.proxy / t.bare,
      { max: 1 },
      `proxy ${t.proxy.toFixed(3)} ms, bare ${t.bare.toFixed(3)} ms (median per call, same rounds)`,
    ),
  );
  const samples = [];
  for (let i = 0; i < 400; i++) {
    const start = performance.now();
    await proxied.callTool(args);
    samples.push(performance.now() - start);
  }
  rows.push(
    row(
      SUITE,
      "2025-11-25 stdio: proxy p99 / 2 ms, tools/call of a trivial tool",
      p99(samples) / 2,
      { max: 1 },
      `p99 ${p99(samples).toFixed(3)} ms, median ${median(samples).toFixed(3)} ms over 400 calls`,
    ),
  );

  const allowRules = join(dir, "rules.json");
  const askRules = join(dir, "ask-rules.json");
  writeFileSync(
    askRules,
    JSON.stringify([
      { match: "*", effect: "allow" },
      { match: "mcp/fake/ok", effect: "ask" },
    ]),
  );
  const modern = modernStdio(process.execPath, [
    bin,
    "mcp",
    "proxy",
    "--rules",
    allowRules,
    "--name",
    "fake",
    "--",
    process.execPath,
    server,
    "good",
  ]);
  const modernBare = modernStdio(process.execPath, [bareProxy, process.execPath, server, "good"]);
  const asking = modernStdio(process.execPath, [
    bin,
    "mcp",
    "proxy",
    "--rules",
    askRules,
    "--name",
    "fake",
    "--",
    process.execPath,
    server,
    "good",
  ]);
  const http = await httpProxy(allowRules, [process.execPath, server, "good"]);
  const legacyHttp = new Client({ name: "bench-http", version: "1" });
  try {
    await legacyHttp.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const askRoundTrip = async () => {
      const first = await asking.call(args);
      if (first.resultType !== "input_required") throw new Error(`no question: ${JSON.stringify(first)}`);
      const done = await asking.call({
        ...args,
        inputResponses: { raw_approval: { action: "accept", content: { approve: true } } },
        requestState: first.requestState,
      });
      if (done.isError) throw new Error(`ask failed: ${JSON.stringify(done)}`);
    };
    const m = await compareAsync(
      {
        modern: () => modern.call(args),
        modernBare: () => modernBare.call(args),
        ask: askRoundTrip,
        legacyHttp: () => legacyHttp.callTool(args),
        modernHttp: () => modernHttp(http.url, args),
      },
      { rounds: 6, calls: 30 },
    );
    rows.push(
      row(
        SUITE,
        "2026-07-28 stdio: ours / bare SDK proxy, tools/call of a trivial tool (no initialize)",
        m.modern / m.modernBare,
        { max: 1 },
        `proxy ${m.modern.toFixed(3)} ms, bare ${m.modernBare.toFixed(3)} ms (median per call, hand-written JSON-RPC client both)`,
      ),
    );
    rows.push(
      info(
        SUITE,
        "Streamable HTTP: tools/call through raw mcp proxy --http (2025-11-25 session / 2026-07-28 stateless)",
        `2025-11-25 ${m.legacyHttp.toFixed(3)} ms (SDK client), 2026-07-28 ${m.modernHttp.toFixed(3)} ms (fetch, no session); stdio ${m.modern.toFixed(3)} ms (median per call)`,
      ),
    );
    const view = [];
    const request = { identity: "mcp/fake/ok", name: "ok", arguments: { text: "hello" } };
    for (let i = 0; i < 2_000; i++) {
      const start = performance.now();
      describeApproval(request, { cwd: dir });
      view.push(performance.now() - start);
    }
    const build = median(view);
    rows.push(
      row(
        SUITE,
        "2026-07-28 stdio: ask round trip (input_required + retry) / (2 x allowed call + approval view build)",
        m.ask / (2 * m.modern + build),
        { max: 1 },
        `ask ${m.ask.toFixed(3)} ms, allowed ${m.modern.toFixed(3)} ms, view build ${(build * 1000).toFixed(1)} us (median)`,
      ),
    );
  } finally {
    await legacyHttp.close().catch(() => undefined);
    http.stop();
    modern.close();
    modernBare.close();
    asking.close();
  }
  return rows;
}
