import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createMcpServer, MCP_APPROVAL_INPUT_KEY, type RawMcpServer } from "../src/index.js";

// A 2026-07-28 client (envelope in `_meta`, no initialize) asked for approval by `input_required` (amendment A11).
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
    name: "erase",
    identity: "local/erase",
    description: "Erases.",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    handler: (args: { path: string }) => {
      ran.push(`erase ${args.path}`);
      return { isError: false, content: [{ type: "text" as const, text: `erased ${args.path}` }] };
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
  { match: "local/erase", effect: "ask" as const },
];

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "modern-test", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};

/** A raw 2026-07-28 peer: no initialize, one request per call, answers read by id. */
async function modernPeer(server: RawMcpServer) {
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  ours.onmessage = (message: JSONRPCMessage) => {
    const m = message as Record<string, unknown>;
    waiting.get(Number(m.id))?.(m);
  };
  await ours.start();
  await server.connect(theirs);
  let id = 0;
  return {
    async call(params: Record<string, unknown>, meta: Record<string, unknown> = META) {
      const requestId = ++id;
      const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(requestId, resolve));
      await ours.send({
        jsonrpc: "2.0",
        id: requestId,
        method: "tools/call",
        params: { ...params, _meta: meta },
      } as JSONRPCMessage);
      const message = await answer;
      return (message.result ?? message.error) as Record<string, unknown>;
    },
    close: () => ours.close(),
  };
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content as Array<{ text?: string }> | undefined) ?? []).map((b) => b.text ?? "").join("\n");

function open(options: { requestStateTtlMs?: number } = {}) {
  return createMcpServer({ cwd: "/w", tools, rules, ...options });
}

describe("createMcpServer: ask for a 2026-07-28 client (input_required + requestState)", () => {
  it("returns one form elicitation with the approval view and a state; the accepted retry runs the call once", async () => {
    ran.length = 0;
    const server = open();
    const peer = await modernPeer(server);
    const first = await peer.call({ name: "write", arguments: { path: "a.txt" } });
    expect(first.resultType).toBe("input_required");
    const requests = first.inputRequests as Record<
      string,
      { method: string; params: Record<string, unknown> }
    >;
    expect(Object.keys(requests)).toEqual([MCP_APPROVAL_INPUT_KEY]);
    const question = requests[MCP_APPROVAL_INPUT_KEY];
    expect(question?.method).toBe("elicitation/create");
    expect(question?.params.mode).toBe("form");
    expect(question?.params.requestedSchema).toEqual({
      type: "object",
      properties: { approve: { type: "boolean", title: "Approve", description: "Run this call" } },
      required: ["approve"],
    });
    expect(typeof first.requestState).toBe("string");
    expect((first.requestState as string).length).toBeGreaterThan(0);
    expect(ran).toEqual([]);

    // The same call from a handshake-era client: its elicitation text is the same view, line for line.
    const legacy: string[] = [];
    const client = new Client(
      { name: "legacy", version: "1" },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      legacy.push(String(request.params.message));
      return { action: "decline" };
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    await client.callTool({ name: "write", arguments: { path: "a.txt" } });
    expect(String(question?.params.message).split("\n")).toEqual((legacy[0] as string).split("\n"));
    await client.close();

    const retry = await peer.call({
      name: "write",
      arguments: { path: "a.txt" },
      requestState: first.requestState,
      inputResponses: { [MCP_APPROVAL_INPUT_KEY]: { action: "accept", content: { approve: true } } },
    });
    expect(textOf(retry)).toBe("wrote a.txt");
    expect(ran).toEqual(["write a.txt"]);

    // The same state again: refused as used, the call does not run a second time.
    const replay = await peer.call({
      name: "write",
      arguments: { path: "a.txt" },
      requestState: first.requestState,
      inputResponses: { [MCP_APPROVAL_INPUT_KEY]: { action: "accept", content: { approve: true } } },
    });
    expect(replay.isError).toBe(true);
    expect(textOf(replay)).toContain("approval_denied");
    expect(textOf(replay)).toContain("request_state_used");
    expect(ran).toEqual(["write a.txt"]);
    await peer.close();
    await server.close();
  });

  it("decline, cancel, an unchecked box and no answer end approval_denied; nothing runs", async () => {
    ran.length = 0;
    const server = open();
    const peer = await modernPeer(server);
    const answers: unknown[] = [
      { action: "decline" },
      { action: "cancel" },
      { action: "accept", content: { approve: false } },
      undefined,
    ];
    for (const answer of answers) {
      const first = await peer.call({ name: "write", arguments: { path: "b.txt" } });
      const retry = await peer.call({
        name: "write",
        arguments: { path: "b.txt" },
        requestState: first.requestState,
        ...(answer === undefined ? {} : { inputResponses: { [MCP_APPROVAL_INPUT_KEY]: answer } }),
      });
      expect(retry.isError).toBe(true);
      expect((retry._meta as Record<string, unknown>)["raw/code"]).toBe("approval_denied");
    }
    expect(ran).toEqual([]);
    await peer.close();
    await server.close();
  });

  it("other arguments, another tool, a forged, altered or expired state never run the call, and say why", async () => {
    ran.length = 0;
    const accept = { [MCP_APPROVAL_INPUT_KEY]: { action: "accept", content: { approve: true } } };
    const server = open();
    const peer = await modernPeer(server);
    const state = async (path = "c.txt") =>
      (await peer.call({ name: "write", arguments: { path } })).requestState as string;
    const refused = async (params: Record<string, unknown>, code: string) => {
      const result = await peer.call({ inputResponses: accept, ...params });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("approval_denied");
      expect(textOf(result)).toContain(code);
    };
    await refused(
      { name: "write", arguments: { path: "other.txt" }, requestState: await state() },
      "request_state_arguments_mismatch",
    );
    await refused(
      { name: "erase", arguments: { path: "c.txt" }, requestState: await state() },
      "request_state_tool_mismatch",
    );
    await refused(
      { name: "write", arguments: { path: "c.txt" }, requestState: "eyJpZCI6IngifQ.AAAA" },
      "request_state_invalid",
    );
    const genuine = await state();
    const [body, mac] = genuine.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    claims.expires += 3_600_000;
    const altered = `${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${mac}`;
    await refused(
      { name: "write", arguments: { path: "c.txt" }, requestState: altered },
      "request_state_invalid",
    );
    await refused(
      { name: "write", arguments: { path: "c.txt" }, requestState: "x".repeat(100_000) },
      "request_state_invalid",
    );
    await refused({ name: "write", arguments: { path: "c.txt" }, requestState: 42 }, "request_state_invalid");
    expect(ran).toEqual([]);
    await peer.close();
    await server.close();

    // An expiry of 0 ms (the option, not a sleep): every state is already expired when the retry comes.
    const expiring = open({ requestStateTtlMs: 0 });
    const late = await modernPeer(expiring);
    const first = await late.call({ name: "write", arguments: { path: "d.txt" } });
    const retry = await late.call({
      name: "write",
      arguments: { path: "d.txt" },
      requestState: first.requestState,
      inputResponses: accept,
    });
    expect(textOf(retry)).toContain("request_state_expired");
    expect(ran).toEqual([]);
    await late.close();
    await expiring.close();
  });

  it("an allowed call runs at once, and a client without elicitation gets approval_required", async () => {
    const server = open();
    const peer = await modernPeer(server);
    expect(textOf(await peer.call({ name: "read", arguments: { path: "r" } }))).toBe("read r");
    const plain = await peer.call(
      { name: "write", arguments: { path: "e.txt" } },
      { ...META, "io.modelcontextprotocol/clientCapabilities": {} },
    );
    expect((plain._meta as Record<string, unknown>)["raw/code"]).toBe("approval_required");
    await peer.close();
    await server.close();
  });
});
