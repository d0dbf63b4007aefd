import { PassThrough } from "node:stream";
import type { ToolHandlerContext } from "@raw/tool-api";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer, type RawMcpServer, ServerStdioTransport } from "../src/index.js";

/** A hand-written 2025-11-25 client on the server's stdio streams: sends lines, answers elicitations. */
function stdioPeer(server: RawMcpServer, answer: (message: string) => Record<string, unknown>) {
  const input = new PassThrough();
  const output = new PassThrough();
  const results: Array<Record<string, unknown>> = [];
  let buffered = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>;
      buffered = buffered.slice(nl + 1);
      if (message.method === "elicitation/create") {
        const params = message.params as { message: string };
        send({
          jsonrpc: "2.0",
          id: message.id,
          result: { action: "accept", content: answer(params.message) },
        });
      } else if ("result" in message || "error" in message) results.push(message);
    }
  });
  const send = (message: unknown) => input.write(`${JSON.stringify(message)}\n`);
  const connected = server.connect(new ServerStdioTransport(input, output));
  return { send, results, connected, close: () => input.end() };
}

const FORM_PANEL = {
  id: "q",
  title: "Question",
  placement: "chat",
  actions: [
    { id: "submit", label: "Send", scope: "block", blocks: ["f"], kind: "response", response: "submit" },
    { id: "cancel", label: "Cancel", scope: "block", blocks: ["f"], kind: "response", response: "cancel" },
  ],
};

let server: RawMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("concurrent calls that share a JSON-RPC request id", () => {
  it("each call's approval goes to that call; a later call under the same id gets its own form", async () => {
    server = createMcpServer({
      cwd: "/w",
      rules: [
        { match: "*", effect: "allow" },
        { match: "local/write", effect: "ask" },
      ],
      tools: [
        {
          name: "pick",
          identity: "local/pick",
          description: "Asks who picks what.",
          inputSchema: { type: "object", properties: { who: { type: "string" } } },
          panels: [FORM_PANEL],
          handler: async (args: { who: string }, context: ToolHandlerContext) => {
            const answer = await context.interactions?.request({
              panel: "q",
              document: {
                blocks: [
                  { id: "intro", kind: "markdown", text: `Pick for ${args.who}` },
                  {
                    id: "f",
                    kind: "form",
                    fields: [
                      {
                        id: "colour",
                        label: "Colour",
                        kind: "single_select",
                        required: true,
                        options: [
                          { id: "red", label: "Red" },
                          { id: "blue", label: "Blue" },
                        ],
                      },
                    ],
                  },
                ],
              },
            });
            return { isError: false, content: [{ type: "json", value: { who: args.who, answer } }] };
          },
        },
        {
          name: "write",
          identity: "local/write",
          description: "Writes.",
          inputSchema: { type: "object", properties: { path: { type: "string" } } },
          handler: (args: { path: string }) => ({
            isError: false,
            content: [{ type: "text", text: `wrote ${args.path}` }],
          }),
        },
      ] as never,
    });
    // The form of A is answered "red"; the approval of a "yes" path accepted, of a "no" path declined.
    const peer = stdioPeer(server, (message) => {
      if (message.includes("Pick for A")) return { colour: "red" };
      return { approve: message.includes('"path": "yes') };
    });
    await peer.connected;
    peer.send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: "test", version: "1" },
      },
    });
    peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const call = (name: string, args: Record<string, unknown>) =>
      peer.send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name, arguments: args } });
    const answered = async (count: number): Promise<string[]> => {
      const deadline = Date.now() + 5_000;
      while (peer.results.length < count && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      return peer.results
        .filter((message) => message.id === 5)
        .map((message) => JSON.stringify(message.result ?? message.error));
    };
    // Four approvals in flight at once under one request id: each is shown its own view and gets its own answer.
    for (const path of ["yes.txt", "no.txt", "yes-2.txt", "no-2.txt"]) call("write", { path });
    const approvals = await answered(5);
    expect(approvals).toHaveLength(4);
    expect(approvals.filter((t) => t.includes("wrote yes.txt"))).toHaveLength(1);
    expect(approvals.filter((t) => t.includes("wrote yes-2.txt"))).toHaveLength(1);
    expect(approvals.filter((t) => t.includes("wrote no"))).toHaveLength(0);
    expect(approvals.filter((t) => t.includes("approval_denied"))).toHaveLength(2);
    // The id used again afterwards: the form reaches this call's client (nothing of the earlier calls is left).
    call("pick", { who: "A" });
    const all = await answered(6);
    expect(all).toHaveLength(5);
    expect(all[4]).toContain('{"who":"A","answer":{"status":"answered","answers":{"colour":"red"}}}');
    peer.close();
  });
});
