import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { isContractError } from "@raw/schema";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMcpServer,
  listenMcpHttp,
  MCP_HTTP_MAX_BODY_BYTES,
  type McpHttpListener,
  type RawMcpServer,
} from "../src/index.js";

// What `listenMcpHttp` refuses, and that a refused request creates no MCP object: `RawMcpServer.connect` (which
// builds one SDK server per session) is counted through a wrapper around a real server, and the real server's
// `connections` must stay empty.

const TOKEN = "a-long-enough-test-token";
/** One byte more than `MCP_HTTP_MAX_BODY_BYTES` (4 MiB), checked below. */
const OVERSIZED = 4 * 1024 * 1024 + 1;
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One HTTP request with exactly these headers (node:http: `fetch` cannot set `Host`). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "POST", headers: options.headers ?? {} }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    // A server may answer and close before reading a large body: the answer is what matters.
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The host session options of a server with one allowed tool. */
function sessionOptions() {
  return {
    cwd: "/w",
    rules: [{ match: "*", effect: "allow" as const }],
    tools: [
      {
        name: "ping",
        identity: "local/ping",
        description: "Answers pong.",
        inputSchema: { type: "object" },
        handler: () => ({ isError: false, content: [{ type: "text" as const, text: "pong" }] }),
      },
    ],
  };
}

/** A real server whose `connect` calls are counted. */
function counted(server: RawMcpServer): RawMcpServer & { connects: number } {
  const wrapper = {
    connects: 0,
    session: server.session,
    get connections() {
      return server.connections;
    },
    connect(transport: Parameters<RawMcpServer["connect"]>[0]) {
      wrapper.connects += 1;
      return server.connect(transport);
    },
    notifyToolsChanged: () => server.notifyToolsChanged(),
    close: () => server.close(),
  };
  return wrapper;
}

const open: Array<{ listener: McpHttpListener; server: RawMcpServer }> = [];
afterEach(async () => {
  for (const { listener, server } of open.splice(0)) {
    await listener.close();
    await server.close();
  }
});

async function listen(options: { token?: string } = {}) {
  const server = counted(createMcpServer(sessionOptions()));
  const listener = await listenMcpHttp(server, options);
  open.push({ listener, server });
  return { server, listener };
}

describe("listenMcpHttp refusals", () => {
  it("refused requests never reach the server factory and keep no connection", async () => {
    const { server, listener } = await listen({ token: TOKEN });
    const url = listener.url;
    const port = new URL(url).port;
    const auth = { authorization: `Bearer ${TOKEN}` };
    const init = JSON.stringify(INIT);
    const cases: Array<[string, Parameters<typeof send>[1], number, string]> = [
      ["no token", { headers: JSON_HEADERS, body: init }, 401, "token_required"],
      [
        "wrong token",
        { headers: { ...JSON_HEADERS, authorization: `Bearer ${TOKEN.slice(0, -1)}X` }, body: init },
        401,
        "token_required",
      ],
      [
        "token without the Bearer scheme",
        { headers: { ...JSON_HEADERS, authorization: TOKEN }, body: init },
        401,
        "token_required",
      ],
      [
        "cross-site simple POST",
        {
          headers: {
            "content-type": "text/plain",
            origin: "http://evil.example",
            "sec-fetch-site": "cross-site",
          },
          body: init,
        },
        401,
        "token_required",
      ],
      [
        "foreign Host",
        { headers: { ...JSON_HEADERS, ...auth, host: "evil.example" }, body: init },
        403,
        "host_refused",
      ],
      [
        "foreign Origin",
        { headers: { ...JSON_HEADERS, ...auth, origin: "http://evil.example" }, body: init },
        403,
        "origin_refused",
      ],
      [
        "cross-site fetch",
        { headers: { ...JSON_HEADERS, ...auth, "sec-fetch-site": "cross-site" }, body: init },
        403,
        "origin_refused",
      ],
      [
        "PUT",
        { method: "PUT", headers: { ...JSON_HEADERS, ...auth }, body: init },
        405,
        "method_not_allowed",
      ],
      ["GET without a session", { method: "GET", headers: { ...auth } }, 400, "session_required"],
      [
        "text/plain",
        { headers: { ...auth, accept: JSON_HEADERS.accept, "content-type": "text/plain" }, body: init },
        415,
        "json_required",
      ],
      [
        "no Accept",
        { headers: { ...auth, "content-type": "application/json" }, body: init },
        406,
        "not_acceptable",
      ],
      [
        "oversized body",
        {
          headers: { ...JSON_HEADERS, ...auth },
          body: Buffer.alloc(OVERSIZED, 0x20),
        },
        413,
        "body_too_large",
      ],
      ["not JSON", { headers: { ...JSON_HEADERS, ...auth }, body: "{" }, 400, "invalid_json"],
      [
        "a tools/call without a session",
        {
          headers: { ...JSON_HEADERS, ...auth },
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ping" } }),
        },
        400,
        "initialize_required",
      ],
      [
        "a batch holding initialize",
        { headers: { ...JSON_HEADERS, ...auth }, body: JSON.stringify([INIT, INIT]) },
        400,
        "initialize_required",
      ],
      [
        "an unknown session",
        { headers: { ...JSON_HEADERS, ...auth, "mcp-session-id": "nope" }, body: init },
        404,
        "unknown_session",
      ],
    ];
    const answers: Answer[] = [];
    for (const [, options] of cases) answers.push(await send(url, options));
    // Nothing was created for any of them: no SDK server, so no transport either, and nothing kept.
    expect(server.connects).toBe(0);
    expect(server.connections.size).toBe(0);
    for (const [i, [name, , status, code]] of cases.entries()) {
      const answer = answers[i] as Answer;
      expect(answer.status, name).toBe(status);
      expect(JSON.parse(answer.body).error.data.code, name).toBe(code);
      expect(answer.body, name).not.toContain("    at ");
    }
    expect((await send(url, { headers: JSON_HEADERS, body: init })).headers["www-authenticate"]).toBe(
      "Bearer",
    );

    // The same server still serves a client that carries the token, on an explicit loopback Host and Origin.
    const ok = await send(url, {
      headers: { ...JSON_HEADERS, ...auth, host: `localhost:${port}`, origin: `http://localhost:${port}` },
      body: init,
    });
    expect(ok.status).toBe(200);
    expect(server.connects).toBe(1);
    expect(server.connections.size).toBe(1);
    expect(OVERSIZED).toBe(MCP_HTTP_MAX_BODY_BYTES + 1);
  });

  it("without a token option it creates a random one (43 characters) and requires it", async () => {
    const { server, listener } = await listen();
    expect(listener.token).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    const other = await listen();
    expect(other.listener.token).not.toBe(listener.token);
    const none = await send(listener.url, { headers: JSON_HEADERS, body: JSON.stringify(INIT) });
    expect(none.status).toBe(401);
    expect(server.connects).toBe(0);
    const c = new Client({ name: "t", version: "1" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), {
        requestInit: { headers: { authorization: `Bearer ${listener.token}` } },
      }),
    );
    const result = await c.callTool({ name: "ping", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "pong" }]);
    await c.close();
  });

  it("a token shorter than 16 characters is refused on loopback too: mcp_token_required, nothing bound", async () => {
    const server = createMcpServer(sessionOptions());
    try {
      await listenMcpHttp(server, { host: "127.0.0.1", token: "short" });
      expect.unreachable();
    } catch (error) {
      expect(isContractError(error) && error.issues[0]?.code).toBe("mcp_token_required");
    }
  });
});
