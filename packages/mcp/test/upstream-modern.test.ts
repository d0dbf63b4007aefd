import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createMcpServer, MAX_MCP_UPSTREAM_INPUT_ROUNDS, mountMcpServer } from "../src/index.js";

// An upstream of revision 2026-07-28 on the server-facing side (amendment A11): Raw talks to it without initialize
// (the envelope in `_meta`), and its `input_required` questions are relayed to the client only as that server's
// own question, through the host's interaction service, never as Raw's approval; input loops are bounded.
const upstream = fileURLToPath(new URL("./fixtures/modern-server.mjs", import.meta.url));

async function gateway(rules: Array<{ match: string; effect: "allow" | "ask" }>) {
  const host = createMcpServer({ cwd: "/w", tools: [], rules });
  const mount = await mountMcpServer(host.session.registry, {
    name: "up",
    command: process.execPath,
    args: [upstream],
    stderr: "ignore",
    toolName: (tool) => tool,
  });
  const messages: string[] = [];
  let answer: (message: string) => Record<string, unknown> = () => ({ action: "decline" });
  const client = new Client(
    { name: "legacy", version: "1" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    const message = String((request.params as { message: string }).message);
    messages.push(message);
    return answer(message) as never;
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await host.connect(b);
  await client.connect(a);
  const call = async (name: string, path: string) => {
    const result = await client.callTool({ name, arguments: { path } }, CallToolResultSchema);
    return (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");
  };
  return {
    mount,
    messages,
    call,
    answer: (fn: typeof answer) => {
      answer = fn;
    },
    async close() {
      await client.close();
      await mount.close();
      await host.close();
    },
  };
}

describe("a 2026-07-28 upstream behind the gateway", () => {
  it("a 2026-07-28 client gets the upstream's question as input_required raw_form, attributed, and its retry answers it", async () => {
    const host = createMcpServer({ cwd: "/w", tools: [], rules: [{ match: "*", effect: "allow" }] });
    const mount = await mountMcpServer(host.session.registry, {
      name: "up",
      command: process.execPath,
      args: [upstream],
      stderr: "ignore",
      toolName: (tool) => tool,
    });
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    const waiting = new Map<number, (m: Record<string, unknown>) => void>();
    ours.onmessage = (m) => waiting.get(Number((m as { id: number }).id))?.(m as Record<string, unknown>);
    await ours.start();
    await host.connect(theirs);
    let id = 0;
    const call = async (params: Record<string, unknown>) => {
      const requestId = ++id;
      const done = new Promise<Record<string, unknown>>((resolve) => waiting.set(requestId, resolve));
      await ours.send({
        jsonrpc: "2.0",
        id: requestId,
        method: "tools/call",
        params: {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
          },
        },
      });
      return (await done).result as Record<string, unknown>;
    };
    try {
      const first = await call({ name: "remove", arguments: { path: "m.txt" } });
      expect(first.resultType).toBe("input_required");
      const requests = first.inputRequests as Record<string, { params: { message: string } }>;
      expect(Object.keys(requests)).toEqual(["raw_form"]);
      expect(requests.raw_form?.params.message.split("\n")[0]).toBe("Question from MCP server up");
      expect(requests.raw_form?.params.message).toContain("Really remove m.txt?");
      const done = await call({
        name: "remove",
        arguments: { path: "m.txt" },
        inputResponses: { raw_form: { action: "accept", content: { sure: "yes" } } },
        requestState: first.requestState,
      });
      expect((done.content as Array<{ text: string }>)[0]?.text).toBe("removed m.txt");
    } finally {
      await ours.close();
      await mount.close();
      await host.close();
    }
  });

  it("is mounted without initialize; its own question reaches the client attributed to it, and its answer goes back", async () => {
    const g = await gateway([{ match: "*", effect: "allow" }]);
    try {
      expect(g.mount.serverInfo?.name).toBe("modern-upstream");
      expect(g.mount.tools.map((t) => t.identity).sort()).toEqual(["mcp/up/loop", "mcp/up/remove"]);
      g.answer(() => ({ action: "accept", content: { sure: "yes" } }));
      expect(await g.call("remove", "a.txt")).toBe("removed a.txt");
      expect(g.messages).toHaveLength(1);
      const lines = g.messages[0]?.split("\n") ?? [];
      expect(lines[0]).toBe("Question from MCP server up");
      expect(lines).toContain("The MCP server up asks this itself (its own question, not Raw's approval):");
      expect(lines).toContain("Really remove a.txt?");
      expect(lines.some((line) => line.startsWith("approve "))).toBe(false);

      g.answer(() => ({ action: "accept", content: { sure: "no" } }));
      expect(await g.call("remove", "b.txt")).toBe("kept b.txt");
      g.answer(() => ({ action: "decline" }));
      expect(await g.call("remove", "c.txt")).toBe("kept c.txt");
    } finally {
      await g.close();
    }
  });

  it("Raw's approval comes first and stays Raw's: the upstream's question is asked only after it, separately", async () => {
    const g = await gateway([
      { match: "*", effect: "allow" },
      { match: "mcp/up/remove", effect: "ask" },
    ]);
    try {
      g.answer((message) =>
        message.startsWith("approve ")
          ? { action: "accept", content: { approve: true } }
          : { action: "accept", content: { sure: "yes" } },
      );
      expect(await g.call("remove", "d.txt")).toBe("removed d.txt");
      expect(g.messages.map((m) => m.split("\n")[0])).toEqual([
        "approve mcp/up/remove?",
        "Question from MCP server up",
      ]);

      g.messages.length = 0;
      g.answer((message) =>
        message.startsWith("approve ")
          ? { action: "decline" }
          : { action: "accept", content: { sure: "yes" } },
      );
      const denied = await g.call("remove", "e.txt");
      expect(denied).toContain("approval_denied");
      // Declined: the upstream never ran, so it never asked.
      expect(g.messages.map((m) => m.split("\n")[0])).toEqual(["approve mcp/up/remove?"]);
    } finally {
      await g.close();
    }
  });

  it(`an upstream that asks forever is cut after ${MAX_MCP_UPSTREAM_INPUT_ROUNDS} rounds with mcp_server_error`, async () => {
    const g = await gateway([{ match: "*", effect: "allow" }]);
    try {
      g.answer(() => ({ action: "accept", content: { sure: "yes" } }));
      const text = await g.call("loop", "x");
      expect(text).toContain("mcp_server_error");
      expect(g.messages).toHaveLength(MAX_MCP_UPSTREAM_INPUT_ROUNDS);
      // The gateway still answers.
      g.answer(() => ({ action: "accept", content: { sure: "yes" } }));
      expect(await g.call("remove", "y")).toBe("removed y");
    } finally {
      await g.close();
    }
  });
});
