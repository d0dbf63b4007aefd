import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { bin, fixtures, raw, tempDir } from "./helpers.js";

// `raw mcp serve --http` as a real child process: every request needs the bearer token (loopback too, A10 "Only
// the user gets in"), and a refused request leaves nothing behind in the server (A10 "objects kept per refused
// request (none)").

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr: () => string;
}

const children: ChildProcessWithoutNullStreams[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

/** Starts `raw mcp serve <args> --http 127.0.0.1:0` and waits (at most 20 s) for the address it prints. */
async function serveHttp(
  args: string[],
  env: Record<string, string | undefined>,
  nodeFlags: string[] = [],
): Promise<Served> {
  const child = spawn(
    process.execPath,
    [...nodeFlags, bin, "mcp", "serve", ...args, "--http", "127.0.0.1:0"],
    {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...env },
    },
  );
  children.push(child);
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.resume();
  await expect
    .poll(() => /serving on (\S+)/u.exec(stderr)?.[1], { timeout: 20_000 })
    .toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/u);
  // The line after the address says how to pass the token: wait for the whole announcement.
  await expect.poll(() => stderr.includes("Authorization: Bearer"), { timeout: 5_000 }).toBe(true);
  return { child, url: /serving on (\S+)/u.exec(stderr)?.[1] as string, stderr: () => stderr };
}

/** A rules file that allows everything: without the token check, `bash` would run unasked. */
function allowAllRules(dir: string): string {
  const file = join(dir, "allow-all.json");
  writeFileSync(file, JSON.stringify([{ match: "*", effect: "allow" }]));
  return file;
}

function post(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Resident memory of a process in KiB (`VmRSS` of `/proc/<pid>/status`). */
function rssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/mu.exec(readFileSync(`/proc/${pid}/status`, "latin1"));
  if (match === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]);
}

describe("raw mcp serve --http: the token", () => {
  it("refuses to start without RAW_MCP_TOKEN (unset or empty): mcp_token_required naming it, nothing listens", () => {
    const cwd = tempDir("raw-mcp-http-");
    for (const value of [undefined, ""]) {
      const env: Record<string, string | undefined> = { ...process.env, RAW_MCP_TOKEN: value };
      if (value === undefined) delete env.RAW_MCP_TOKEN;
      const run = spawnSync(process.execPath, [bin, "mcp", "serve", "--http", "127.0.0.1:0"], {
        cwd,
        input: "",
        encoding: "utf8",
        timeout: 60_000,
        env,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /^raw: mcp_token_required: .*RAW_MCP_TOKEN is not set; hint: set RAW_MCP_TOKEN/u,
      );
      expect(run.stderr).not.toContain("serving on");
      expect(run.stderr).not.toContain("    at ");
    }
  });

  it("the SDK client needs the token: without it 401, with it the call runs, and the token is never printed", async () => {
    const cwd = tempDir("raw-mcp-http-");
    const token = "a-token-of-the-first-test-0123";
    const served = await serveHttp(["--tool", join(fixtures, "mcp", "tools", "note"), "--cwd", cwd], {
      RAW_MCP_TOKEN: token,
    });
    const refused = new Client({ name: "no-token", version: "1" });
    await expect(refused.connect(new StreamableHTTPClientTransport(new URL(served.url)))).rejects.toThrow(
      /401|unauthorized|token/iu,
    );
    const c = new Client({ name: "http-test", version: "1" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(c);
    const result = await c.callTool({ name: "note", arguments: { name: "n", text: "over http" } });
    expect(result.isError).toBe(false);
    expect(readFileSync(join(cwd, "n.note"), "utf8")).toBe("over http");
    expect(served.stderr()).not.toContain(token);
    expect(served.stderr()).not.toContain("    at ");
  });

  it("a token from RAW_MCP_TOKEN is required and never printed", async () => {
    const secret = "a-token-the-user-set-in-the-env";
    const served = await serveHttp([], { RAW_MCP_TOKEN: secret });
    expect(served.stderr()).toContain("RAW_MCP_TOKEN");
    expect(served.stderr()).not.toContain(secret);
    const agent = new Agent({ keepAlive: false });
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect((await post(agent, served.url, JSON_HEADERS, init)).status).toBe(401);
    const wrong = { ...JSON_HEADERS, authorization: `Bearer ${secret.slice(0, -1)}X` };
    expect((await post(agent, served.url, wrong, init)).status).toBe(401);
    const c = new Client({ name: "env-token", version: "1" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { authorization: `Bearer ${secret}` } },
      }),
    );
    clients.push(c);
    expect((await c.listTools()).tools.map((t) => t.name)).toContain("bash");
    expect(served.stderr()).not.toContain(secret);
  });

  it("refuses a non-loopback bind without a token, and a too short RAW_MCP_TOKEN anywhere", () => {
    const cwd = tempDir("raw-mcp-http-");
    const open = raw(["mcp", "serve", "--http", "0.0.0.0:0"], { cwd });
    expect(open.status).toBe(1);
    expect(open.stderr).toMatch(/^raw: mcp_token_required: /u);
    const short = spawnSync(process.execPath, [bin, "mcp", "serve", "--http", "127.0.0.1:0"], {
      cwd,
      input: "",
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, RAW_MCP_TOKEN: "short" },
    });
    expect(short.status).toBe(1);
    expect(short.stderr).toMatch(/^raw: mcp_token_required: .*RAW_MCP_TOKEN/u);
    expect(short.stderr).not.toContain("short\n");
  });

  it("another local user (nobody) without the token gets 401 and bash does not run", async () => {
    expect(process.getuid?.()).toBe(0); // the test starts the server as root and the client as nobody
    const dir = tempDir("raw-mcp-uid-");
    chmodSync(dir, 0o755);
    const marker = join(dir, "ran");
    const token = "the-owner-token-0123456789";
    const served = await serveHttp(["--rules", allowAllRules(dir), "--cwd", dir], { RAW_MCP_TOKEN: token });
    const client = join(dir, "client.mjs");
    // The other user's client: the whole handshake, then tools/call bash; and a bare tools/call first.
    writeFileSync(
      client,
      `const [url, marker] = process.argv.slice(2);
const headers = ${JSON.stringify(JSON_HEADERS)};
const statuses = [];
const call = { jsonrpc: "2.0", id: 2, method: "tools/call",
  params: { name: "bash", arguments: { commands: [{ command: "touch " + marker }] } } };
const bare = await fetch(url, { method: "POST", headers, body: JSON.stringify(call) });
statuses.push(bare.status);
const init = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1,
  method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {},
  clientInfo: { name: "other-user", version: "1" } } }) });
statuses.push(init.status);
await init.text();
const session = init.headers.get("mcp-session-id");
if (session !== null) {
  const sessionHeaders = { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  await (await fetch(url, { method: "POST", headers: sessionHeaders,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  const ran = await fetch(url, { method: "POST", headers: sessionHeaders, body: JSON.stringify(call) });
  statuses.push(ran.status);
  await ran.text();
}
process.stdout.write(JSON.stringify({ uid: process.getuid(), statuses }));
`,
    );
    chmodSync(client, 0o644);
    const run = spawnSync(
      "setpriv",
      ["--reuid=nobody", "--regid=nogroup", "--clear-groups", process.execPath, client, served.url, marker],
      { cwd: "/", encoding: "utf8", timeout: 30_000 },
    );
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as { uid: number; statuses: number[] };
    expect(report.uid).not.toBe(0);
    expect(report.statuses).toEqual([401, 401]);
    expect(existsSync(marker)).toBe(false);
    // The same command with the token runs: the marker is what a successful call would leave.
    const c = new Client({ name: "owner", version: "1" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(c);
    const result = await c.callTool({
      name: "bash",
      arguments: { commands: [{ command: `touch ${marker}` }] },
    });
    expect(result.isError).toBe(false);
    expect(existsSync(marker)).toBe(true);
  });
});

/**
 * A preload for the server process (`node --expose-gc --require <it>`): on SIGUSR2 it runs a full garbage collection
 * and writes `heap <bytes used> <n>` to standard error, so the test reads what the server really keeps.
 */
const HEAP_PRELOAD = `let n = 0;
process.on("SIGUSR2", () => {
  globalThis.gc();
  process.stderr.write("heap " + process.memoryUsage().heapUsed + " " + ++n + "\\n");
});
`;

/** The bytes of heap the server keeps after a full collection (asked through the preload's SIGUSR2). */
async function keptHeap(served: Served): Promise<number> {
  const count = (served.stderr().match(/^heap \d+ \d+$/gmu) ?? []).length;
  served.child.kill("SIGUSR2");
  await expect
    .poll(() => (served.stderr().match(/^heap \d+ \d+$/gmu) ?? []).length, { timeout: 10_000 })
    .toBe(count + 1);
  return Number((served.stderr().match(/^heap (\d+) \d+$/gmu) ?? []).at(-1)?.split(" ")[1]);
}

describe("raw mcp serve --http: refused requests", () => {
  it("2,000 refused POSTs do not grow the server's memory with their number", async () => {
    const dir = tempDir("raw-mcp-heap-");
    const preload = join(dir, "heap-on-signal.cjs");
    writeFileSync(preload, HEAP_PRELOAD);
    const token = "the-token-of-the-memory-test";
    const served = await serveHttp([], { RAW_MCP_TOKEN: token }, ["--expose-gc", "--require", preload]);
    const pid = served.child.pid as number;
    const auth = { authorization: `Bearer ${token}` };
    const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "bash" } });
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    // Each kind is refused; the last three carry the token, so only checks after it refuse them.
    const kinds: Array<[Record<string, string>, string, number]> = [
      [{ "content-type": "text/plain", origin: "http://evil.example" }, init, 401],
      [{ ...auth, "content-type": "text/plain", accept: JSON_HEADERS.accept }, init, 415],
      [{ ...JSON_HEADERS, ...auth }, call, 400],
      [{ ...auth, "content-type": "application/json" }, init, 406],
    ];
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const burst = async (count: number) => {
      let next = 0;
      const worker = async () => {
        while (next < count) {
          const [headers, body, status] = kinds[next++ % kinds.length] as [
            Record<string, string>,
            string,
            number,
          ];
          expect((await post(agent, served.url, headers, body)).status).toBe(status);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
    };
    try {
      await burst(1_000); // warm-up: code compiled, buffers and sockets allocated
      const heapBefore = await keptHeap(served);
      const rssBefore = rssKiB(pid);
      await burst(2_000);
      const heapAfter = await keptHeap(served);
      const rssAfter = rssKiB(pid);
      console.log(
        `raw mcp serve --http, 2,000 refused POSTs: heap kept ${heapBefore} -> ${heapAfter} bytes, ` +
          `VmRSS ${rssBefore} -> ${rssAfter} KiB`,
      );
      // An MCP server object kept per refused request (~30 KB each) would keep tens of MiB here.
      expect(heapAfter - heapBefore).toBeLessThan(1024 * 1024);
      // Resident memory moves with the allocator (about 9 MiB here, kept or not); the old code added 38 MiB.
      expect(rssAfter - rssBefore).toBeLessThan(24 * 1024);
    } finally {
      agent.destroy();
    }
  });
});
