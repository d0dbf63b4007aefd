import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describeApproval } from "@raw/host";
import { isContractError } from "@raw/schema";
import type { ToolHandlerContext } from "@raw/tool-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer, listenMcpHttp, type McpHttpListener, type RawMcpServer } from "../src/index.js";

const ok = (text: string) => ({ isError: false, content: [{ type: "text" as const, text }] });
const FILES_SCHEMA = {
  type: "object",
  properties: {
    files: {
      type: "array",
      items: { type: "object", properties: { operation: { type: "string" }, path: { type: "string" } } },
    },
  },
};

function buildSession() {
  const session = {
    rules: [
      { match: "*", effect: "allow" },
      { match: "local/hidden", effect: "deny" },
      { match: "local/write", effect: "ask" },
    ] as const,
    tools: [
      {
        name: "read",
        identity: "local/read",
        description: "Reads.",
        inputSchema: { type: "object", properties: { path: { type: "string" } } },
        handler: (args: { path: string }) => ok(`read ${args.path}`),
      },
      {
        name: "hidden",
        identity: "local/hidden",
        description: "Never listed.",
        inputSchema: { type: "object" },
        handler: () => ok("hidden ran"),
      },
      {
        name: "write",
        identity: "local/write",
        description: "Writes.",
        inputSchema: {
          type: "object",
          properties: { path: { type: "string" }, content: { type: "string" } },
        },
        effectsSchema: FILES_SCHEMA,
        describeEffects: (args: { path: string }) => ({
          files: [{ operation: "write", path: `/w/${args.path}` }],
        }),
        handler: (args: { path: string }) => ok(`wrote ${args.path}`),
      },
      {
        name: "ask_user",
        identity: "local/ask_user",
        description: "Asks a question.",
        inputSchema: { type: "object" },
        panels: [
          {
            id: "q",
            title: "Question",
            placement: "chat",
            actions: [
              {
                id: "submit",
                label: "Send",
                scope: "block",
                blocks: ["f"],
                kind: "response",
                response: "submit",
              },
              {
                id: "cancel",
                label: "Cancel",
                scope: "block",
                blocks: ["f"],
                kind: "response",
                response: "cancel",
              },
            ],
          },
        ],
        handler: async (_args: unknown, context: ToolHandlerContext) => {
          const answer = await context.interactions?.request({
            panel: "q",
            document: {
              blocks: [
                { id: "intro", kind: "markdown", text: "Pick a colour" },
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
          return { isError: false, content: [{ type: "json", value: answer }] };
        },
      },
    ],
  };
  return session;
}

let server: RawMcpServer;
let listener: McpHttpListener;

beforeAll(async () => {
  const { rules, tools } = buildSession();
  server = createMcpServer({
    cwd: "/w",
    rules: [...rules],
    tools: tools as never,
    title: (name) => (name === "write" ? "Write a file" : undefined),
  });
  listener = await listenMcpHttp(server, { token: "a-long-enough-test-token" });
});
afterAll(async () => {
  await listener?.close();
  await server?.close();
});

async function client(
  elicit?: (message: string, schema: unknown) => Record<string, unknown> | "decline",
): Promise<Client> {
  const c = new Client(
    { name: "test", version: "1" },
    { capabilities: elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) {
    c.setRequestHandler(ElicitRequestSchema, (request) => {
      const params = request.params as { message: string; requestedSchema: unknown };
      const answer = elicit(params.message, params.requestedSchema);
      return answer === "decline" ? { action: "decline" } : { action: "accept", content: answer as never };
    });
  }
  await c.connect(
    new StreamableHTTPClientTransport(new URL(listener.url), {
      requestInit: { headers: { authorization: "Bearer a-long-enough-test-token" } },
    }),
  );
  return c;
}

const text = (result: unknown) =>
  ((result as CallToolResult).content as Array<{ type: string; text?: string }>)
    .map((b) => b.text ?? "")
    .join("\n");

describe("createMcpServer over Streamable HTTP, driven by the SDK client", () => {
  it("tools/list lists exactly what policy exposes, with honest annotations", async () => {
    const c = await client();
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(["read", "write", "ask_user"]);
    // A title where the `title` option gives one; none invented for the others.
    expect(tools.map((t) => t.title)).toEqual([undefined, "Write a file", undefined]);
    expect(tools[0]?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    const hidden = await c.callTool({ name: "hidden", arguments: {} });
    expect(hidden.isError).toBe(true);
    expect(text(hidden)).toContain("tool_denied");
    expect((await c.callTool({ name: "read", arguments: { path: "a" } })).content).toEqual([
      { type: "text", text: "read a" },
    ]);
    await c.close();
  });

  it("a client with URL elicitation only cannot answer a form: approval_required", async () => {
    const c = new Client({ name: "url-only", version: "1" }, { capabilities: { elicitation: { url: {} } } });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), {
        requestInit: { headers: { authorization: "Bearer a-long-enough-test-token" } },
      }),
    );
    const result = await c.callTool({ name: "write", arguments: { path: "x", content: "y" } });
    expect(text(result)).toContain("approval_required");
    await c.close();
  });

  it("ask without client elicitation is approval_required, never an implicit yes", async () => {
    const c = await client();
    const result = await c.callTool({ name: "write", arguments: { path: "x", content: "y" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("approval_required");
    expect(result._meta).toEqual({ "raw/code": "approval_required" });
    await c.close();
  });

  it("ask with elicitation: effects are shown first, then arguments; accept runs, decline refuses", async () => {
    const messages: string[] = [];
    let answer: Record<string, unknown> | "decline" = { approve: true };
    const c = await client((message) => {
      messages.push(message);
      return answer;
    });
    const approved = await c.callTool({ name: "write", arguments: { path: "x.txt", content: "y" } });
    expect(approved.isError).toBe(false);
    expect(text(approved)).toBe("wrote x.txt");
    const message = messages[0] as string;
    // The one approval view of A10 (`describeApproval`): identity, then the effects, then the arguments.
    expect(message).toBe(
      describeApproval(
        {
          identity: "local/write",
          arguments: { path: "x.txt", content: "y" },
          effects: { files: [{ path: "x.txt", operation: "write" }] },
        },
        { cwd: "/w" },
      ).text,
    );
    expect(message.indexOf("write /w/x.txt")).toBeGreaterThan(0);
    expect(message.indexOf("write /w/x.txt")).toBeLessThan(message.indexOf("arguments:"));
    answer = "decline";
    const declined = await c.callTool({ name: "write", arguments: { path: "x.txt", content: "y" } });
    expect(text(declined)).toContain("approval_denied");
    answer = { approve: false };
    expect(text(await c.callTool({ name: "write", arguments: { path: "x", content: "y" } }))).toContain(
      "approval_denied",
    );
    await c.close();
  });

  it("the approval elicitation escapes bidi, C1 and ESC from the arguments and effect paths (A1, A10)", async () => {
    const messages: string[] = [];
    const c = await client((message) => {
      messages.push(message);
      return { approve: false };
    });
    const path = "notes\u202etxt.exe\u009b2J\u001b]0;pwned\u0007\nwrite /w/SAFE";
    const result = await c.callTool({
      name: "write",
      arguments: { path, content: "\u2066hidden\u2069\u001b[31m" },
    });
    expect(text(result)).toContain("approval_denied");
    const message = messages[0] as string;
    expect(message).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(message).toContain("\\u202e");
    expect(message).toContain("\\x1b");
    expect(message).toContain("\\x9b");
    // The line break in the path cannot forge a second, harmless-looking effect line.
    expect(message.split("\n").filter((line) => line.trim().startsWith("write "))).toHaveLength(1);
    await c.close();
  });

  it("an ask_user form becomes an elicitation when the client supports it, else it is cancelled", async () => {
    const plain = await client();
    const unavailable = await plain.callTool({ name: "ask_user", arguments: {} });
    // The form went through the host's interaction service; a client that cannot be asked cancels it.
    expect(JSON.stringify(unavailable.content)).toContain("cancelled");
    await plain.close();
    const schemas: unknown[] = [];
    const c = await client((_message, schema) => {
      schemas.push(schema);
      return { colour: "blue" };
    });
    const answered = await c.callTool({ name: "ask_user", arguments: {} });
    expect(answered.structuredContent).toEqual({ status: "answered", answers: { colour: "blue" } });
    expect(schemas[0]).toEqual({
      type: "object",
      properties: {
        colour: {
          type: "string",
          title: "Colour",
          oneOf: [
            { const: "red", title: "Red" },
            { const: "blue", title: "Blue" },
          ],
        },
      },
      required: ["colour"],
    });
    await c.close();
  });

  it("panel updates are resources with update notifications", async () => {
    const declarations = [
      {
        id: "status",
        title: "Status",
        icon: "panel",
        open: "never",
        context: "none",
        placement: "sidebar",
        acp_plan: false,
        actions: [],
      },
    ] as const;
    const first = server.session.panels.beginCall({ owner: "local/read", declarations: [...declarations] });
    await first.context.update("status", { op: "replace", document: { blocks: [] } });
    first.settle({ hasOtherContent: true });
    const c = await client();
    const { resources } = await c.listResources();
    const uri = resources[0]?.uri as string;
    expect(uri).toBe("raw-panel:///local%2Fread%23status");
    const updated: string[] = [];
    c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await c.subscribeResource({ uri });
    const call = server.session.panels.beginCall({ owner: "local/read", declarations: [...declarations] });
    await call.context.update("status", {
      op: "replace",
      document: { blocks: [{ id: "m", kind: "markdown", text: "step 2" }] },
    });
    call.settle({ hasOtherContent: true });
    await expect.poll(() => updated).toEqual([uri]);
    const read = await c.readResource({ uri });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(body.revision).toBe(2);
    expect(body.document.blocks[0].text).toBe("step 2");
    await c.close();
  });
});

describe("Streamable HTTP binding", () => {
  it("refuses requests without the bearer token, and foreign Host headers on loopback", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: {} };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const none = await fetch(listener.url, { method: "POST", headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    const wrong = await fetch(listener.url, {
      method: "POST",
      headers: { ...headers, authorization: "Bearer a-long-enough-test-tokeX" },
      body: JSON.stringify(init),
    });
    expect(wrong.status).toBe(401);
    const open = await listenMcpHttp(server, {});
    try {
      const { request } = await import("node:http");
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          open.url,
          {
            method: "POST",
            headers: { ...headers, authorization: `Bearer ${open.token}`, host: "evil.example:80" },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(init));
      });
      expect(status).toBe(403);
    } finally {
      await open.close();
    }
  });

  it("binding off loopback requires a token: mcp_token_required, nothing bound", async () => {
    try {
      await listenMcpHttp(server, { host: "0.0.0.0" });
      expect.unreachable();
    } catch (error) {
      expect(isContractError(error) && error.issues[0]?.code).toBe("mcp_token_required");
    }
  });
});
