import { request } from "node:http";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMcpServer,
  listenMcpHttp,
  MCP_APPROVAL_INPUT_KEY,
  type McpHttpListener,
  type RawMcpServer,
} from "../src/index.js";

// 2026-07-28 clients over Streamable HTTP (amendment A11): no initialize, no Mcp-Session-Id, the envelope in each
// request's `_meta`; `ask` as `input_required` answered by a retry bound by `requestState`. 2025-11-25 clients keep
// their sessions on the same listener.

const TOKEN = "a-long-enough-modern-token";
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "modern-http", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  authorization: `Bearer ${TOKEN}`,
};

const ran: string[] = [];
const tools = [
  {
    name: "write",
    identity: "local/write",
    description: "Writes.",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    handler: (args: { path: string }) => {
      ran.push(`write ${args.path}`);
      return { isError: false, content: [{ type: "text" as const, text: `wrote ${args.path}` }] };
    },
  },
  {
    name: "read",
    identity: "local/read",
    description: "Reads.",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    handler: (args: { path: string }) => ({
      isError: false,
      content: [{ type: "text" as const, text: `read ${args.path}` }],
    }),
  },
];
const rules = [
  { match: "*", effect: "allow" as const },
  { match: "local/write", effect: "ask" as const },
];

const open: Array<{ listener: McpHttpListener; server: RawMcpServer }> = [];
afterEach(async () => {
  for (const { listener, server } of open.splice(0)) {
    await listener.close();
    await server.close();
  }
});

async function listen() {
  const server = createMcpServer({ cwd: "/w", tools, rules });
  const listener = await listenMcpHttp(server, { token: TOKEN });
  open.push({ listener, server });
  return { server, listener };
}

/** One POST with exactly these headers; the status, the headers and the body. */
function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

let nextId = 0;
/** A 2026-07-28 request over HTTP with no session: its JSON-RPC result (or error). */
async function modern(url: string, method: string, params: Record<string, unknown> = {}) {
  const answer = await post(
    url,
    { ...HEADERS, "mcp-protocol-version": "2026-07-28" },
    {
      jsonrpc: "2.0",
      id: ++nextId,
      method,
      params: { ...params, _meta: META },
    },
  );
  expect(answer.status).toBe(200);
  expect(answer.headers["mcp-session-id"]).toBeUndefined();
  const message = JSON.parse(answer.body) as {
    id: number;
    result?: Record<string, unknown>;
    error?: unknown;
  };
  expect(message.id).toBe(nextId);
  return (message.result ?? message.error) as Record<string, unknown>;
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content as Array<{ text?: string }> | undefined) ?? []).map((b) => b.text ?? "").join("\n");

describe("listenMcpHttp for 2026-07-28 clients (no session)", () => {
  it("discover, list, an allowed read, and an asked write approved by the retry, each request on its own", async () => {
    const { server, listener } = await listen();
    const discovered = await modern(listener.url, "server/discover");
    expect(discovered.supportedVersions).toContain("2026-07-28");
    const listed = await modern(listener.url, "tools/list");
    expect((listed.tools as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(["read", "write"]);
    expect(listed.resultType).toBe("complete");
    const read = await modern(listener.url, "tools/call", { name: "read", arguments: { path: "a" } });
    expect(textOf(read)).toBe("read a");

    ran.length = 0;
    const first = await modern(listener.url, "tools/call", { name: "write", arguments: { path: "h" } });
    expect(first.resultType).toBe("input_required");
    const question = (first.inputRequests as Record<string, { params: { message: string } }>)[
      MCP_APPROVAL_INPUT_KEY
    ];
    expect(question?.params.message.split("\n")[0]).toBe("approve local/write?");
    expect(ran).toEqual([]);
    const accept = { [MCP_APPROVAL_INPUT_KEY]: { action: "accept", content: { approve: true } } };
    const changed = await modern(listener.url, "tools/call", {
      name: "write",
      arguments: { path: "other" },
      inputResponses: accept,
      requestState: first.requestState,
    });
    expect(textOf(changed)).toContain("request_state_arguments_mismatch");
    const again = await modern(listener.url, "tools/call", { name: "write", arguments: { path: "h" } });
    const done = await modern(listener.url, "tools/call", {
      name: "write",
      arguments: { path: "h" },
      inputResponses: accept,
      requestState: again.requestState,
    });
    expect(textOf(done)).toBe("wrote h");
    const replayed = await modern(listener.url, "tools/call", {
      name: "write",
      arguments: { path: "h" },
      inputResponses: accept,
      requestState: again.requestState,
    });
    expect(textOf(replayed)).toContain("request_state_used");
    expect(ran).toEqual(["write h"]);
    // One connection serves every stateless request; none was opened per request.
    expect(server.connections.size).toBe(1);
  });

  it("the SDK 2.x client negotiates 2026-07-28 over HTTP and its elicitation handler approves or declines", async () => {
    const { listener } = await listen();
    for (const approve of [false, true]) {
      ran.length = 0;
      const messages: string[] = [];
      const client = new ClientV2(
        { name: "v2-http", version: "1" },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
      );
      client.setRequestHandler("elicitation/create", async (req) => {
        messages.push(String((req.params as { message: string }).message));
        return approve ? { action: "accept", content: { approve: true } } : { action: "decline" };
      });
      await client.connect(
        new HttpTransportV2(new URL(listener.url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const result = await client.callTool({ name: "write", arguments: { path: "v2" } });
      await client.close();
      expect(messages).toHaveLength(1);
      expect(messages[0]?.split("\n")[0]).toBe("approve local/write?");
      if (approve) {
        expect(ran).toEqual(["write v2"]);
        expect(JSON.stringify(result.content)).toContain("wrote v2");
      } else {
        expect(ran).toEqual([]);
        expect(JSON.stringify(result.content)).toContain("approval_denied");
      }
    }
  });

  it("a 2025-11-25 client keeps its session on the same listener; without the token a modern request gets 401", async () => {
    const { listener } = await listen();
    const legacy = new Client({ name: "v1-http", version: "1" });
    await legacy.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    expect(legacy.getServerVersion()?.name).toBe("raw");
    const read = await legacy.callTool({ name: "read", arguments: { path: "v1" } });
    expect(JSON.stringify(read.content)).toContain("read v1");
    // No elicitation declared: the ask ends approval_required, never an implicit yes.
    const write = await legacy.callTool({ name: "write", arguments: { path: "v1" } });
    expect(JSON.stringify(write.content)).toContain("approval_required");
    await legacy.close();

    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "read", arguments: { path: "x" }, _meta: META },
    };
    const { authorization: _, ...noToken } = HEADERS;
    const refused = await post(listener.url, noToken, body);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).error.data.code).toBe("token_required");
    const mismatch = await post(listener.url, { ...HEADERS, "mcp-protocol-version": "2025-11-25" }, body);
    expect(mismatch.status).toBe(400);
    expect(JSON.parse(mismatch.body).error.data.code).toBe("protocol_version_mismatch");
    // A notification of the revision is accepted and answers nothing.
    const note = await post(listener.url, HEADERS, {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, _meta: META },
    });
    expect(note.status).toBe(202);
  });
});
