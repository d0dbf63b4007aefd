import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createToolRegistry, type HandlerResult, type ToolRegistry } from "@raw/tool-api";
import { afterAll, describe, expect, it } from "vitest";
import { safeParse } from "zod/v4-mini";
import { checkCallToolResult } from "../src/call-tool-result.js";
import { createMcpServer, type McpMount, mapMcpResult, mountMcpServer, toMcpResult } from "../src/index.js";
import { parseJsonRpcMessage } from "../src/jsonrpc-message.js";
import { fixture } from "./helpers.js";

// The proxy checks messages and results with the SDK's schemas only where a cheaper check cannot decide (issue 14).
// These tests pin that every such shortcut has exactly the SDK's outcome: the same accepted set, the same output
// (compared as JSON text, so key order counts), the same error.

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};

const MESSAGES: unknown[] = [
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: { a: 1 } } },
  { jsonrpc: "2.0", id: "a", method: "ping" },
  { jsonrpc: "2.0", id: 12, method: "m", params: { _meta: { progressToken: "t" }, y: 1 } },
  { params: { name: "x" }, method: "tools/call", id: 15, jsonrpc: "2.0" },
  { jsonrpc: "2.0", id: 16, method: "m", params: { b: 1, a: { c: [2] } } },
  JSON.parse('{"jsonrpc":"2.0","id":17,"method":"m","params":{"__proto__":{"a":1},"z":0}}'),
  { jsonrpc: "2.0", id: 18, method: "m", params: [1] },
  { jsonrpc: "2.0", id: 19, method: "m", params: null },
  { jsonrpc: "2.0", id: 2 ** 53 + 2, method: "m" },
  { jsonrpc: "2.0", id: 20, method: "m", params: { _meta: { progressToken: [] } } },
  // 2026-07-28 envelopes in `_meta` (the schema writes `_meta` first), and `_meta` values its checks refuse:
  { jsonrpc: "2.0", id: 21, method: "tools/call", params: { name: "x", arguments: {}, _meta: ENVELOPE } },
  {
    method: "tools/call",
    params: { requestState: "s", _meta: ENVELOPE, name: "x" },
    id: "b",
    jsonrpc: "2.0",
  },
  { jsonrpc: "2.0", id: 22, method: "m", params: { _meta: {} } },
  { jsonrpc: "2.0", id: 23, method: "m", params: { a: 1, _meta: { ...ENVELOPE, progressToken: 7 } } },
  { jsonrpc: "2.0", id: 24, method: "m", params: { _meta: { "io.modelcontextprotocol/related-task": 5 } } },
  { jsonrpc: "2.0", id: 25, method: "m", params: { _meta: [] } },
  { jsonrpc: "2.0", id: 26, method: "m", params: { _meta: null } },
  JSON.parse('{"jsonrpc":"2.0","id":27,"method":"m","params":{"_meta":{"__proto__":{"a":1}},"z":0}}'),
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "x" } },
  { jsonrpc: "2.0", id: 2, result: { content: [] } },
  { jsonrpc: "2.0", id: 10, result: { _meta: { progressToken: 1 }, x: [1] } },
  { result: { content: [{ type: "text", text: "ok" }] }, jsonrpc: "2.0", id: 13 },
  { id: "s", jsonrpc: "2.0", result: { b: { c: [1] }, a: null } },
  { jsonrpc: "2.0", id: 2 ** 53 + 2, result: {} },
  { jsonrpc: "2.0", id: 14, result: { _meta: { progressToken: { not: "a token" } } } },
  { jsonrpc: "2.0", id: 3, error: { code: -32603, message: "boom", data: { x: 1 } } },
  { jsonrpc: "2.0", error: { code: -32700, message: "parse error" } },
  JSON.parse('{"jsonrpc":"2.0","id":11,"result":{"__proto__":{"a":1}}}'),
  // Not JSON-RPC messages of the SDK:
  { jsonrpc: "2.0", id: 4, result: { content: [] }, error: { code: 1, message: "both" } },
  { jsonrpc: "2.0", id: 5, method: "x", result: {} },
  { jsonrpc: "2.0", id: null, result: {} },
  { jsonrpc: "2.0", id: 1.5, result: {} },
  { jsonrpc: "1.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: 6, result: "not an object" },
  { jsonrpc: "2.0", id: 7, method: 42 },
  { jsonrpc: "2.0", id: 8, method: "m", extra: true },
  { jsonrpc: "2.0", method: "n", id: undefined },
  { jsonrpc: "2.0" },
  { id: 9, result: {} },
  [],
  null,
  42,
  "text",
];

const RESULTS: unknown[] = [
  { content: [{ type: "text", text: "a" }] },
  { content: [{ type: "text", text: "a" }], isError: false },
  {
    content: [
      { type: "text", text: "a" },
      { type: "text", text: "" },
    ],
    isError: true,
  },
  { content: [], isError: true },
  { isError: false, content: [{ type: "text", text: "key order" }] },
  { content: [{ text: "key order", type: "text" }] },
  { content: [{ type: "text", text: "a", extra: 1 }] },
  { content: [{ type: "text", text: "a", annotations: { priority: 0.5, audience: ["user"] } }] },
  { content: [{ type: "text", text: "a", annotations: { priority: 2 } }] },
  { content: [{ type: "text", text: 5 }] },
  { content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] },
  { content: [{ type: "image", mimeType: "image/png", data: "not base64!" }] },
  { content: [{ type: "text", text: "s" }], structuredContent: { b: 1, a: [2] } },
  { content: [{ type: "text", text: "s" }], structuredContent: [1] },
  { content: [{ type: "text", text: "m" }], _meta: { "raw/code": "x" }, isError: true },
  { content: [{ type: "text", text: "a" }], isError: "yes" },
  { content: [{ type: "text", text: "a" }], extra: { x: 1 } },
  { content: "not an array" },
  { content: [null] },
  {},
  null,
  [],
  "text",
];

describe("parseJsonRpcMessage: the SDK's JSONRPCMessageSchema, one union member at a time", () => {
  it("accepts, outputs and rejects exactly what the union does", () => {
    let accepted = 0;
    for (const message of MESSAGES) {
      const sdk = JSONRPCMessageSchema.safeParse(message);
      const ours = parseJsonRpcMessage(message);
      expect(ours.ok, JSON.stringify(message)).toBe(sdk.success);
      if (ours.ok && sdk.success) {
        accepted++;
        expect(JSON.stringify(ours.message)).toBe(JSON.stringify(sdk.data));
        expect(ours.message).toEqual(sdk.data);
      }
    }
    expect(accepted).toBe(19);
  });
});

describe("checkCallToolResult: the SDK's CallToolResultSchema, skipped only for plain text results", () => {
  it("accepts, outputs (in the schema's key order) and rejects (same message) exactly what the SDK does", () => {
    let accepted = 0;
    for (const result of RESULTS) {
      const sdk = safeParse(CallToolResultSchema, result);
      const ours = checkCallToolResult(result);
      expect(ours.ok, JSON.stringify(result)).toBe(sdk.success);
      if (ours.ok && sdk.success) {
        accepted++;
        expect(JSON.stringify(ours.result)).toBe(JSON.stringify(sdk.data));
      } else if (!ours.ok && !sdk.success) {
        expect(ours.error.message).toBe(sdk.error.message);
      }
    }
    expect(accepted).toBe(13);
  });
});

/** A Raw registry whose tools answer with each kind of result the server direction maps. */
function resultTools() {
  const tool = (name: string, result: HandlerResult) => ({
    name,
    description: `Answers with ${name}.`,
    inputSchema: { type: "object" },
    handler: () => result,
  });
  return [
    tool("text", { isError: false, content: [{ type: "text", text: "hello" }] }),
    tool("failure", { isError: true, code: "disk_full", content: [{ type: "text", text: "no space" }] }),
    tool("image", {
      isError: false,
      content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }],
    }),
    tool("bad_image", {
      isError: false,
      content: [{ type: "image", mimeType: "image/png", data: "not base64!" }],
    }),
    tool("structured", { isError: false, content: [{ type: "json", value: { b: 1, a: [2] } }] }),
    tool("mixed", {
      isError: false,
      content: [
        { type: "text", text: "see data" },
        { type: "json", value: { n: 1 } },
      ],
    }),
    tool("big", { isError: false, content: [{ type: "text", text: "x".repeat(200_000) }] }),
  ];
}

function resultRegistry(): ToolRegistry {
  const registry = createToolRegistry({ rules: [{ match: "*", effect: "allow" }] });
  registry.register(resultTools());
  return registry;
}

/** Every message a server sends on a linked in-memory pair, as JSON text (what a stdio transport writes). */
async function wireOf(connect: (transport: InMemoryTransport) => Promise<unknown>, calls: string[]) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const wire: string[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    wire.push(JSON.stringify(message));
    return send(message, options);
  };
  await connect(serverSide);
  const client = new Client({ name: "t", version: "1" });
  await client.connect(clientSide);
  const responses: string[] = [];
  for (const name of calls) {
    const before = wire.length;
    await client.callTool({ name, arguments: {} }).catch(() => undefined);
    responses.push(...wire.slice(before));
  }
  await client.close();
  return responses;
}

describe("createMcpServer's tools/call: the SDK Server's result check, byte for byte", () => {
  it("answers every kind of result (and an invalid one) with the bytes the SDK Server's own handler gives", async () => {
    const registry = resultRegistry();
    const names = ["text", "failure", "image", "bad_image", "structured", "mixed", "big", "missing"];
    const ours = await wireOf(
      (transport) =>
        createMcpServer({ cwd: "/", rules: [{ match: "*", effect: "allow" }], tools: resultTools() }).connect(
          transport,
        ),
      names,
    );
    // The reference: the same dispatch and mapping registered through the SDK Server's tools/call handler.
    const reference = await wireOf(async (transport) => {
      const server = new Server({ name: "raw", version: "0.1.0" }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
      server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
        toMcpResult(
          await registry.dispatch(
            {
              name: request.params.name,
              arguments: request.params.arguments ?? {},
              toolCallId: `mcp-1-${String(extra.requestId)}`,
              source: "model",
            },
            { cwd: "/" },
          ),
        ),
      );
      await server.connect(transport);
    }, names);
    expect(ours).toHaveLength(names.length);
    expect(ours).toEqual(reference);
    // What the bytes say, explicitly: the plain text result, the error's code, the SDK's refusal of bad base64.
    expect(JSON.parse(ours[0] as string).result).toEqual({
      content: [{ type: "text", text: "hello" }],
      isError: false,
    });
    expect(JSON.parse(ours[1] as string).result._meta).toEqual({ "raw/code": "disk_full" });
    const refused = JSON.parse(ours[3] as string);
    expect(refused.error.code).toBe(-32602);
    expect(refused.error.message).toMatch(
      /^MCP error -32602: Invalid tools\/call result: .*Invalid Base64 string/s,
    );
    expect(JSON.parse(ours[4] as string).result.structuredContent).toEqual({ b: 1, a: [2] });
    expect(JSON.parse(ours[6] as string).result._meta).toEqual({ "raw/truncated": true });
  });
});

describe("mountMcpServer's tools/call: the SDK client's result check", () => {
  const mounts: McpMount[] = [];
  afterAll(async () => {
    for (const m of mounts) await m.close();
  });

  it("maps every result the SDK accepts as its parse outputs it, and refuses the rest with mcp_invalid_result", async () => {
    const registry = createToolRegistry({ rules: [{ match: "*", effect: "allow" }] });
    mounts.push(
      await mountMcpServer(registry, {
        name: "echo",
        command: process.execPath,
        args: [fixture("fake-server.mjs"), "echo-result"],
        stderr: "ignore",
        toolName: (tool) => tool,
      }),
    );
    // The same mapping and capping, from the SDK's own parse of the result.
    const reference = createToolRegistry({ rules: [{ match: "*", effect: "allow" }] });
    reference.register({
      name: "echo_result",
      identity: "mcp/echo/echo_result",
      description: "reference",
      inputSchema: { type: "object" },
      handler: (args: { result: string }) =>
        mapMcpResult(CallToolResultSchema.parse(JSON.parse(args.result))),
    });
    let refused = 0;
    for (const result of RESULTS) {
      const args = { result: JSON.stringify(result) };
      const got = await registry.dispatch({ name: "echo_result", arguments: args }, { cwd: "/" });
      if (safeParse(CallToolResultSchema, result).success) {
        const want = await reference.dispatch({ name: "echo_result", arguments: args }, { cwd: "/" });
        expect(JSON.stringify(got), JSON.stringify(result)).toBe(JSON.stringify(want));
      } else {
        refused++;
        // A result that is not even an object fails the JSON-RPC message check of the transport first.
        const message =
          typeof result === "object" && result !== null && !Array.isArray(result)
            ? "the server's result is not a valid CallToolResult"
            : "MCP error -32603: mcp_invalid_result: invalid JSON-RPC message";
        expect(got).toEqual({
          isError: true,
          code: "mcp_invalid_result",
          content: [{ type: "text", text: `mcp_invalid_result: ${message}` }],
        });
      }
    }
    expect(refused).toBe(RESULTS.length - 13);
  });
});
