import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHookFolder } from "@raw/hook-protocol";
import { describe, expect, it } from "vitest";
import { CLIENT_TOOL_CODES, MAX_CLIENT_TOOL_SCHEMA_BYTES } from "../src/index.js";
import { connect, expectAllValid, updatesOf, workdir } from "./support.js";

const here = dirname(fileURLToPath(import.meta.url));
const select = (optionId: string) => () => ({ outcome: { outcome: "selected", optionId } });
const TOOLS = { _meta: { raw: { tools: true } } };
const LOOKUP = {
  name: "lookup",
  description: "Looks a word up in the editor's index",
  input_schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
};

/** A client that advertises `_raw/tools`, records each `_raw/tool/call` and answers it with `answer`. */
async function toolClient(options: { rules?: any[]; hooks?: any[]; permission?: string; answer?: unknown }) {
  const calls: any[] = [];
  const cwd = workdir();
  const c = await connect({
    cwd,
    ...(options.rules ? { rules: options.rules } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    script: {
      capabilities: TOOLS,
      ...(options.permission ? { permission: select(options.permission) } : {}),
      extension: (method, params) => {
        if (method !== "_raw/tool/call") return {};
        calls.push(params);
        return options.answer ?? { content: [{ type: "text", text: `found ${params.arguments.q}` }] };
      },
    },
  });
  const s = await c.newSession();
  const register = (tools: unknown[]) =>
    c.connection.agent.request<any>("_raw/tool/register", { sessionId: s, tools });
  return { c, s, calls, register, cwd };
}

function finalOf(updates: any[], toolCallId: string): any {
  return updatesOf(updates, "tool_call_update")
    .concat(updatesOf(updates, "tool_call"))
    .filter((u) => u.toolCallId === toolCallId && (u.status === "completed" || u.status === "failed"))
    .at(-1);
}

describe("_raw/tool/register and _raw/tool/call (A12: client tools as acp:<name>)", () => {
  it("initialize advertises tools: true; a registered tool asks under an ask rule and is called on the client", async () => {
    const t = await toolClient({ rules: [{ match: "acp:*", effect: "ask" }], permission: "allow_once" });
    expect((t.c.init as any).agentCapabilities._meta.raw.tools).toBe(true);
    const answer = await t.register([LOOKUP]);
    expect(answer).toEqual({ registered: [{ name: "lookup", identity: "acp:lookup" }], rejected: [] });
    const r = await t.c.prompt(t.s, `lookup {"q":"word"}`);
    expect(r.stopReason).toBe("end_turn");
    expect(t.c.permissions).toHaveLength(1);
    expect(t.c.permissions[0].toolCall.title).toBe("acp:lookup");
    expect(t.c.permissions[0].toolCall.content[0].content.text).toMatch(/^approve acp:lookup\?/);
    expect(t.calls).toEqual([
      { sessionId: t.s, toolCallId: "raw-1", name: "lookup", arguments: { q: "word" } },
    ]);
    expect(finalOf(t.c.updates, "raw-1")).toMatchObject({ status: "completed" });
    expect(JSON.stringify(finalOf(t.c.updates, "raw-1").content)).toContain("found word");
    expectAllValid(t.c.sent);
  });

  it("reject_once, a deny rule and a deny hook each keep the call from ever reaching the client", async () => {
    const rejected = await toolClient({
      rules: [{ match: "acp:*", effect: "ask" }],
      permission: "reject_once",
    });
    await rejected.register([LOOKUP]);
    await rejected.c.prompt(rejected.s, `lookup {"q":"x"}`);
    expect(rejected.c.permissions).toHaveLength(1);
    expect(rejected.calls).toHaveLength(0);
    expect(finalOf(rejected.c.updates, "raw-1").rawOutput).toMatchObject({ code: "approval_denied" });

    const denied = await toolClient({ rules: [{ match: "acp:lookup", effect: "deny" }] });
    await denied.register([LOOKUP]);
    await denied.c.prompt(denied.s, `lookup {"q":"x"}`);
    expect(denied.calls).toHaveLength(0);
    expect(finalOf(denied.c.updates, "raw-1").status).toBe("failed");

    const hook = await loadHookFolder(resolve(here, "fixtures/deny-acp"));
    const hooked = await toolClient({ hooks: [hook], permission: "allow_once" });
    await hooked.register([LOOKUP]);
    await hooked.c.prompt(hooked.s, `lookup {"q":"x"}`);
    expect(hooked.calls).toHaveLength(0);
    expect(finalOf(hooked.c.updates, "raw-1").rawOutput).toMatchObject({ code: "hook_denied" });
    const thoughts = updatesOf(hooked.c.updates, "agent_thought_chunk").map((u) => u.content.text);
    expect(thoughts.some((text) => text.startsWith("PreToolUse: denied"))).toBe(true);
    expectAllValid([...rejected.c.sent, ...denied.c.sent, ...hooked.c.sent]);
  });

  it("arguments that break the registered schema get the registry's invalid_arguments; the client is never called", async () => {
    const t = await toolClient({ rules: [{ match: "acp:*", effect: "allow" }] });
    await t.register([LOOKUP]);
    await t.c.prompt(t.s, `lookup {"q":5}`);
    expect(t.calls).toHaveLength(0);
    expect(finalOf(t.c.updates, "raw-1").content[0].content.text).toMatch(/^invalid_arguments/);
  });

  it("the client cannot pick the result code: isError is client_tool_error; panel blocks are dropped without _raw/panels", async () => {
    const t = await toolClient({
      rules: [{ match: "acp:*", effect: "allow" }],
      answer: {
        isError: true,
        code: "approval_granted",
        content: [
          { type: "text", text: "bad\u001b[31m" },
          { type: "panel", panel: "x", mode: "replace", document: { blocks: [] } },
          { type: "video", url: "http://x" },
        ],
      },
    });
    await t.register([LOOKUP]);
    await t.c.prompt(t.s, `lookup {"q":"x"}`);
    const last = finalOf(t.c.updates, "raw-1");
    expect(last.rawOutput).toEqual({ isError: true, code: CLIENT_TOOL_CODES.error });
    expect(last.content[0].content.text).toContain("bad\\x1b[31m");
    expect(last.content[0].content.text).toContain("[2 content blocks dropped]");
  });

  it("hostile registrations get a stable code naming the field, and never touch the registry", async () => {
    const t = await toolClient({});
    const big = { type: "object", description: "x".repeat(MAX_CLIENT_TOOL_SCHEMA_BYTES) };
    const answer = await t.register([
      "not an object",
      { name: "../etc/passwd", input_schema: { type: "object" } },
      { name: "a".repeat(65), input_schema: { type: "object" } },
      { name: "write_file", input_schema: { type: "object" } },
      { name: "remote", input_schema: { type: "object", $ref: "https://example.com/s.json" } },
      { name: "huge", input_schema: big },
      { name: "noschema", input_schema: "string" },
      { name: "desc", description: 42, input_schema: { type: "object" } },
      { name: "badpanels", input_schema: { type: "object" }, panels: [{ id: "Bad Id!" }] },
      { name: "twice", input_schema: { type: "object" } },
      { name: "twice", input_schema: { type: "object" } },
    ]);
    expect(answer.registered).toEqual([{ name: "twice", identity: "acp:twice" }]);
    const codes = answer.rejected.map((r: any) => [r.index, r.code, r.path]);
    expect(codes).toEqual([
      [0, CLIENT_TOOL_CODES.invalid, "/tools/0"],
      [1, CLIENT_TOOL_CODES.invalidName, "/tools/1/name"],
      [2, CLIENT_TOOL_CODES.invalidName, "/tools/2/name"],
      [3, CLIENT_TOOL_CODES.duplicate, "/tools/3/name"],
      [4, "schema_remote_ref", "/tools/4/input_schema"],
      [5, CLIENT_TOOL_CODES.schemaTooLarge, "/tools/5/input_schema"],
      [6, CLIENT_TOOL_CODES.invalidSchema, "/tools/6/input_schema"],
      [7, CLIENT_TOOL_CODES.invalidDescription, "/tools/7/description"],
      [8, expect.stringMatching(/^panel_|^manifest_/), "/tools/8/panels"],
      [10, CLIENT_TOOL_CODES.duplicate, "/tools/10/name"],
    ]);
    for (const r of answer.rejected) expect(r.message).toMatch(/^tools\[\d+\]/);
    // Refused means untouched: only `twice` was added, and `write_file` is still the bundled tool.
    await t.c.prompt(t.s, "/tools");
    const listing = updatesOf(t.c.updates, "agent_message_chunk").at(-1).content.text as string;
    expect(listing.match(/acp:/g)).toHaveLength(1);
    expect(listing).toContain("write_file  builtin/write_file");
    await expect(t.register(Array.from({ length: 65 }, () => LOOKUP))).rejects.toMatchObject({
      data: { code: CLIENT_TOOL_CODES.invalidRequest },
    });
  });

  it("a client that did not advertise _meta.raw.tools cannot register", async () => {
    const c = await connect({ cwd: workdir() });
    const s = await c.newSession();
    await expect(
      c.connection.agent.request("_raw/tool/register", { sessionId: s, tools: [LOOKUP] }),
    ).rejects.toMatchObject({ data: { code: CLIENT_TOOL_CODES.unsupported } });
  });
});
