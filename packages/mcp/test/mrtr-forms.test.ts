import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ToolHandlerContext } from "@raw/tool-api";
import { describe, expect, it } from "vitest";
import {
  createMcpServer,
  MAX_MCP_FORM_RETRIES,
  MCP_APPROVAL_INPUT_KEY,
  MCP_FORM_INPUT_KEY,
  type RawMcpServer,
} from "../src/index.js";

// Forms of `context.interactions` for a 2026-07-28 client (amendment A11): each form is an `input_required` result
// holding it, answered by a retry that goes through the host's interaction service (an invalid answer is asked
// again), bound to its call by `requestState`, which carries the approval and earlier answers between rounds.

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "modern-forms", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
const NO_ELICITATION = { ...META, "io.modelcontextprotocol/clientCapabilities": {} };

const PANEL = {
  id: "q",
  title: "Question",
  placement: "chat",
  actions: [
    { id: "submit", label: "Send", scope: "block", blocks: ["f"], kind: "response", response: "submit" },
    { id: "cancel", label: "Cancel", scope: "block", blocks: ["f"], kind: "response", response: "cancel" },
  ],
};
const COLOUR_FORM = {
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
};
const NAME_FORM = {
  blocks: [
    { id: "intro", kind: "markdown", text: "Your name" },
    { id: "f", kind: "form", fields: [{ id: "name", label: "Name", kind: "text", required: true }] },
  ],
};

/** Handler runs (the handler runs from the top each round), and what each finished run saw. */
const runs: string[] = [];
const tools = [
  {
    name: "survey",
    identity: "local/survey",
    description: "Asks two questions; asked before it runs.",
    inputSchema: { type: "object", properties: { topic: { type: "string" } } },
    panels: [PANEL],
    handler: async (args: { topic: string }, context: ToolHandlerContext) => {
      runs.push(`start ${args.topic}`);
      const colour = await context.interactions?.request({ panel: "q", document: COLOUR_FORM });
      if (colour?.status !== "answered") return ok(`colour ${colour?.status}`);
      const name = await context.interactions?.request({ panel: "q", document: NAME_FORM });
      if (name?.status !== "answered") return ok(`name ${name?.status}`);
      runs.push(`done ${args.topic}`);
      return ok(`${args.topic}: ${String(colour.answers.colour)} for ${String(name.answers.name)}`);
    },
  },
  {
    name: "pick",
    identity: "local/pick",
    description: "Asks one question; allowed.",
    inputSchema: { type: "object", properties: { topic: { type: "string" } } },
    panels: [PANEL],
    handler: async (_args: unknown, context: ToolHandlerContext) => {
      const colour = await context.interactions?.request({ panel: "q", document: COLOUR_FORM });
      return ok(
        colour?.status === "answered" ? `picked ${String(colour.answers.colour)}` : String(colour?.status),
      );
    },
  },
];
const rules = [
  { match: "*", effect: "allow" as const },
  { match: "local/survey", effect: "ask" as const },
];

function ok(text: string) {
  return { isError: false, content: [{ type: "text" as const, text }] };
}

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
  return async (params: Record<string, unknown>, meta: Record<string, unknown> = META) => {
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
  };
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content as Array<{ text?: string }> | undefined) ?? []).map((b) => b.text ?? "").join("\n");

type Question = { method: string; params: { mode: string; message: string; requestedSchema: unknown } };
const questionOf = (result: Record<string, unknown>, key: string) =>
  (result.inputRequests as Record<string, Question> | undefined)?.[key];

describe("forms for a 2026-07-28 client (input_required)", () => {
  it("approval, then each form in turn, an invalid answer asked again; only the latest answer is sent", async () => {
    runs.length = 0;
    const server = createMcpServer({ cwd: "/w", tools: tools as never, rules });
    const call = await modernPeer(server);
    const args = { topic: "t1" };
    const approval = await call({ name: "survey", arguments: args });
    expect(Object.keys(approval.inputRequests as object)).toEqual([MCP_APPROVAL_INPUT_KEY]);
    expect(runs).toEqual([]);

    const colour = await call({
      name: "survey",
      arguments: args,
      inputResponses: { [MCP_APPROVAL_INPUT_KEY]: { action: "accept", content: { approve: true } } },
      requestState: approval.requestState,
    });
    expect(colour.resultType).toBe("input_required");
    expect(Object.keys(colour.inputRequests as object)).toEqual([MCP_FORM_INPUT_KEY]);
    const form = questionOf(colour, MCP_FORM_INPUT_KEY);
    expect(form?.method).toBe("elicitation/create");
    expect(form?.params.mode).toBe("form");
    expect(form?.params.message).toBe("Pick a colour");
    expect(form?.params.requestedSchema).toEqual({
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

    // An answer the interaction service refuses stays pending: the same form again, the reason first.
    const invalid = await call({
      name: "survey",
      arguments: args,
      inputResponses: { [MCP_FORM_INPUT_KEY]: { action: "accept", content: { colour: "green" } } },
      requestState: colour.requestState,
    });
    expect(invalid.resultType).toBe("input_required");
    const again = questionOf(invalid, MCP_FORM_INPUT_KEY);
    expect(again?.params.message).toMatch(/^[a-z_]+: .*\n\nPick a colour$/su);

    const name = await call({
      name: "survey",
      arguments: args,
      inputResponses: { [MCP_FORM_INPUT_KEY]: { action: "accept", content: { colour: "blue" } } },
      requestState: invalid.requestState,
    });
    expect(questionOf(name, MCP_FORM_INPUT_KEY)?.params.message).toBe("Your name");

    // The last round: the approval and the colour come from the state, the name from this answer.
    const done = await call({
      name: "survey",
      arguments: args,
      inputResponses: { [MCP_FORM_INPUT_KEY]: { action: "accept", content: { name: "Ada" } } },
      requestState: name.requestState,
    });
    expect(done.resultType).toBe("complete");
    expect(textOf(done)).toBe("t1: blue for Ada");
    expect(runs.filter((r) => r.startsWith("done"))).toEqual(["done t1"]);

    // Each state is single use, and bound to its call's tool and arguments.
    const replay = await call({
      name: "survey",
      arguments: args,
      inputResponses: { [MCP_FORM_INPUT_KEY]: { action: "accept", content: { name: "Eve" } } },
      requestState: name.requestState,
    });
    expect(textOf(replay)).toContain("request_state_used");
    expect(runs.filter((r) => r.startsWith("done"))).toEqual(["done t1"]);
  });

  it("a form state never carries over: other arguments, another tool, a forged approval", async () => {
    runs.length = 0;
    const server = createMcpServer({ cwd: "/w", tools: tools as never, rules });
    const call = await modernPeer(server);
    const pick = await call({ name: "pick", arguments: { topic: "p" } });
    expect(questionOf(pick, MCP_FORM_INPUT_KEY)?.params.message).toBe("Pick a colour");
    const blue = { [MCP_FORM_INPUT_KEY]: { action: "accept", content: { colour: "blue" } } };

    const otherArgs = await call({
      name: "pick",
      arguments: { topic: "q" },
      inputResponses: blue,
      requestState: pick.requestState,
    });
    expect(textOf(otherArgs)).toContain("request_state_arguments_mismatch");

    const fresh = await call({ name: "pick", arguments: { topic: "p" } });
    // The form state of an allowed tool, sent with a forged approval to a tool that asks: never runs it.
    const forged = await call({
      name: "survey",
      arguments: { topic: "p" },
      inputResponses: { ...blue, [MCP_APPROVAL_INPUT_KEY]: { action: "accept", content: { approve: true } } },
      requestState: fresh.requestState,
    });
    expect(textOf(forged)).toContain("request_state_tool_mismatch");
    expect(runs).toEqual([]);

    const answered = await call({
      name: "pick",
      arguments: { topic: "p" },
      inputResponses: blue,
      requestState: (await call({ name: "pick", arguments: { topic: "p" } })).requestState,
    });
    expect(textOf(answered)).toBe("picked blue");
  });

  it("a declined form is cancelled; a client without elicitation gets it cancelled; too many invalid answers end it", async () => {
    const server = createMcpServer({ cwd: "/w", tools: tools as never, rules });
    const call = await modernPeer(server);
    const first = await call({ name: "pick", arguments: {} });
    const declined = await call({
      name: "pick",
      arguments: {},
      inputResponses: { [MCP_FORM_INPUT_KEY]: { action: "decline" } },
      requestState: first.requestState,
    });
    expect(textOf(declined)).toBe("cancelled");

    const unable = await call({ name: "pick", arguments: {} }, NO_ELICITATION);
    expect(unable.resultType).toBe("complete");
    expect(textOf(unable)).toBe("cancelled");

    let state = (await call({ name: "pick", arguments: {} })).requestState;
    let last: Record<string, unknown> = {};
    for (let i = 0; i <= MAX_MCP_FORM_RETRIES; i += 1) {
      last = await call({
        name: "pick",
        arguments: {},
        inputResponses: { [MCP_FORM_INPUT_KEY]: { action: "accept", content: { colour: "green" } } },
        requestState: state,
      });
      state = last.requestState;
    }
    expect(last.resultType).toBe("complete");
    expect(textOf(last)).toBe("cancelled");
  });
});
