import { Agent, request } from "node:http";
import type { ToolHandlerContext } from "@raw/tool-api";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMcpServer,
  listenMcpHttp,
  MAX_MCP_HTTP_STATELESS_REQUESTS,
  type McpHttpListener,
  type RawMcpServer,
} from "../src/index.js";

// Hostile 2026-07-28 clients over HTTP (amendment A10 "bounded by what others send"): requests in flight are
// bounded (503 `too_many_requests` past it, the server answering others throughout), and a client that goes away
// mid-call cancels the call; nothing is kept for either.

const TOKEN = "a-long-enough-bounds-token";
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  authorization: `Bearer ${TOKEN}`,
};

let release: () => void = () => undefined;
let released = new Promise<void>((resolve) => {
  release = resolve;
});
const aborted: string[] = [];
const started: string[] = [];
const tools = [
  {
    name: "hold",
    identity: "local/hold",
    description: "Waits until released or aborted.",
    inputSchema: { type: "object", properties: { tag: { type: "string" } } },
    handler: async (args: { tag: string }, context: ToolHandlerContext) => {
      started.push(args.tag);
      await new Promise<void>((resolve) => {
        void released.then(resolve);
        context.signal?.addEventListener("abort", () => {
          aborted.push(args.tag);
          resolve();
        });
      });
      return { isError: false, content: [{ type: "text" as const, text: `held ${args.tag}` }] };
    },
  },
];

const open: Array<{ listener: McpHttpListener; server: RawMcpServer }> = [];
afterEach(async () => {
  release();
  for (const { listener, server } of open.splice(0)) {
    await listener.close();
    await server.close();
  }
});

async function listen() {
  const server = createMcpServer({
    cwd: "/w",
    tools: tools as never,
    rules: [{ match: "*", effect: "allow" }],
  });
  const listener = await listenMcpHttp(server, { token: TOKEN });
  open.push({ listener, server });
  return listener;
}

const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
let nextId = 0;
function post(url: string, method: string, params: Record<string, unknown>, signal?: AbortSignal) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method: "POST", headers: HEADERS, agent, signal }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method, params: { ...params, _meta: META } }));
  });
}

describe("2026-07-28 over HTTP under hostile clients", () => {
  it(`at most ${MAX_MCP_HTTP_STATELESS_REQUESTS} requests in flight: the next gets 503, ping still answered, all finish`, async () => {
    released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const listener = await listen();
    const held = Array.from({ length: MAX_MCP_HTTP_STATELESS_REQUESTS }, (_, i) =>
      post(listener.url, "tools/call", { name: "hold", arguments: { tag: `h${i}` } }),
    );
    // Wait until every held call is in flight (the next one is refused).
    let refused: { status: number; body: string } | undefined;
    await expect
      .poll(
        async () => {
          refused = await post(listener.url, "tools/call", { name: "hold", arguments: { tag: "over" } });
          return refused.status;
        },
        { timeout: 20_000 },
      )
      .toBe(503);
    expect(JSON.parse(refused?.body ?? "{}").error.data.code).toBe("too_many_requests");
    release();
    const answers = await Promise.all(held);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(JSON.parse(answers[0]?.body ?? "{}").result.content[0].text).toBe("held h0");
    const ping = await post(listener.url, "ping", {});
    expect(ping.status).toBe(200);
  });

  it("a client that goes away mid-call cancels it", async () => {
    released = new Promise<void>(() => undefined);
    const listener = await listen();
    const gone = new AbortController();
    const call = post(listener.url, "tools/call", { name: "hold", arguments: { tag: "gone" } }, gone.signal);
    await expect.poll(() => started.includes("gone"), { timeout: 5_000 }).toBe(true);
    gone.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => aborted.includes("gone"), { timeout: 5_000 }).toBe(true);
    const ping = await post(listener.url, "ping", {});
    expect(ping.status).toBe(200);
  });
});
