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

  it("with _raw/panels advertised, panel blocks of a client tool's answer become its panel (owner acp:<name>)", async () => {
    const calls: any[] = [];
    const c = await connect({
      cwd: workdir(),
      rules: [{ match: "acp:*", effect: "allow" }] as any,
      script: {
        capabilities: { _meta: { raw: { tools: true, panels: true } } },
        extension: (method, params) => {
          if (method !== "_raw/tool/call") return {};
          calls.push(params);
          return {
            content: [
              { type: "text", text: "indexed" },
              {
                type: "panel",
                panel: "hits",
                op: "replace",
                document: { blocks: [{ id: "list", kind: "checklist", items: [{ id: "a", label: "Hit" }] }] },
              },
            ],
          };
        },
      },
    });
    const s = await c.newSession();
    await c.connection.agent.request("_raw/tool/register", { sessionId: s, tools: [LOOKUP] });
    await c.prompt(s, `lookup {"q":"x"}`);
    expect(calls).toHaveLength(1);
    const panelUpdates = (c.sent as any[])
      .filter((m) => m.method === "_raw/panel/update")
      .map((m) => m.params);
    expect(panelUpdates).toEqual([
      expect.objectContaining({
        sessionId: s,
        owner: "acp:lookup",
        panel: "hits",
        revision: 1,
        closed: false,
      }),
    ]);
    expect(finalOf(c.updates, "raw-1")).toMatchObject({ status: "completed" });
    expectAllValid(c.sent);
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

  it("a schema within the size limit that compiles past the schema budget is refused schema_budget_exceeded; the others register", async () => {
    const t = await toolClient({});
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 1_250; i++)
      properties[`p${i}`] = { type: "string", pattern: `^[a-z]{1,${(i % 50) + 1}}$` };
    const slow = { type: "object", properties };
    expect(JSON.stringify(slow).length).toBeLessThanOrEqual(MAX_CLIENT_TOOL_SCHEMA_BYTES);
    const answer = await t.register([{ name: "slow", input_schema: slow }, LOOKUP]);
    expect(answer.registered).toEqual([{ name: "lookup", identity: "acp:lookup" }]);
    expect(answer.rejected).toEqual([
      expect.objectContaining({ index: 0, code: "schema_budget_exceeded", path: "/tools/0/input_schema" }),
    ]);
    expect(answer.rejected[0].message).toMatch(/^tools\[0\]\.input_schema: .* did not compile within \d+ ms/);
  }, 30_000);

  it("a client that did not advertise _meta.raw.tools cannot register", async () => {
    const c = await connect({ cwd: workdir() });
    const s = await c.newSession();
    await expect(
      c.connection.agent.request("_raw/tool/register", { sessionId: s, tools: [LOOKUP] }),
    ).rejects.toMatchObject({ data: { code: CLIENT_TOOL_CODES.unsupported } });
  });
});
