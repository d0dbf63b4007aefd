import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHookFolder } from "@raw/hook-protocol";
import { describe, expect, it } from "vitest";
import { PERMISSION_OPTIONS } from "../src/index.js";
import { connect, expectAllValid, updatesOf, workdir, writeArgs } from "./support.js";

const here = dirname(fileURLToPath(import.meta.url));
const select = (optionId: string) => () => ({ outcome: { outcome: "selected", optionId } });
const ASK_ONE = JSON.stringify({
  title: "Pick",
  questions: [
    {
      id: "color",
      label: "Color?",
      kind: "single_select",
      options: [
        { id: "red", label: "Red" },
        { id: "blue", label: "Blue" },
      ],
      required: true,
    },
  ],
});

function finalUpdate(updates: any[], toolCallId = "raw-1"): any {
  return updatesOf(updates, "tool_call_update")
    .filter((u) => u.toolCallId === toolCallId && (u.status === "completed" || u.status === "failed"))
    .at(-1);
}

describe("serveAcpAgent: tool calls and permission requests (A12)", () => {
  it("initialize answers protocol 1; a write asks with the four options and the A10 view, and allow_once writes", async () => {
    const cwd = workdir();
    const c = await connect({ cwd, script: { permission: select("allow_once") } });
    expect((c.init as { protocolVersion: number }).protocolVersion).toBe(1);
    const s = await c.newSession();
    const r = await c.prompt(s, `write_file ${writeArgs("a.txt")}`);
    expect(r.stopReason).toBe("end_turn");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("hello\n");
    const [call] = updatesOf(c.updates, "tool_call");
    expect(call).toMatchObject({
      toolCallId: "raw-1",
      title: "builtin/write_file",
      kind: "edit",
      status: "pending",
      locations: [{ path: join(cwd, "a.txt") }],
      rawInput: JSON.parse(writeArgs("a.txt")),
    });
    expect(c.permissions).toHaveLength(1);
    expect(c.permissions[0].options.map((o: any) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
      "reject_always",
    ]);
    expect(c.permissions[0].options).toEqual(PERMISSION_OPTIONS);
    expect(c.permissions[0].toolCall.content[0].content.text).toContain(`write ${join(cwd, "a.txt")}`);
    expect(c.permissions[0].toolCall.content[0].content.text).toMatch(/^approve builtin\/write_file\?/);
    expect(updatesOf(c.updates, "tool_call_update").map((u) => u.status)).toEqual([
      "in_progress",
      "completed",
    ]);
    expect(expectAllValid(c.sent)).toBeGreaterThan(4);
  });

  it("allow_always is remembered for the rest of the session and never across sessions", async () => {
    const cwd = workdir();
    const c = await connect({ cwd, script: { permission: select("allow_always") } });
    const s = await c.newSession();
    await c.prompt(s, `write_file ${writeArgs("a.txt")}`);
    await c.prompt(s, `write_file ${writeArgs("b.txt")}`);
    expect(c.permissions).toHaveLength(1);
    expect(existsSync(join(cwd, "b.txt"))).toBe(true);
    const s2 = await c.newSession();
    await c.prompt(s2, `write_file ${writeArgs("c.txt")}`);
    expect(c.permissions).toHaveLength(2);
    expectAllValid(c.sent);
  });

  it("reject_once denies (approval_denied, nothing written, turn ends end_turn); reject_always is remembered", async () => {
    const cwd = workdir();
    const answers = ["reject_once", "reject_always"];
    const c = await connect({
      cwd,
      script: { permission: () => ({ outcome: { outcome: "selected", optionId: answers.shift() } }) },
    });
    const s = await c.newSession();
    expect((await c.prompt(s, `write_file ${writeArgs("a.txt")}`)).stopReason).toBe("end_turn");
    expect(finalUpdate(c.updates)).toMatchObject({
      status: "failed",
      rawOutput: { code: "approval_denied" },
    });
    await c.prompt(s, `write_file ${writeArgs("b.txt")}`);
    await c.prompt(s, `write_file ${writeArgs("c.txt")}`);
    expect(c.permissions).toHaveLength(2);
    expect(finalUpdate(c.updates, "raw-3")).toMatchObject({
      status: "failed",
      rawOutput: { code: "approval_denied" },
    });
    for (const f of ["a.txt", "b.txt", "c.txt"]) expect(existsSync(join(cwd, f))).toBe(false);
    expectAllValid(c.sent);
  });

  it("an unknown option id or a malformed answer never approves", async () => {
    const cwd = workdir();
    const answers: unknown[] = [
      { outcome: { outcome: "selected", optionId: "allow_everything" } },
      { outcome: { outcome: "selected", optionId: "allow_once", extra: 1 }, junk: true },
    ];
    const c = await connect({ cwd, script: { permission: () => answers.shift() } });
    const s = await c.newSession();
    await c.prompt(s, `write_file ${writeArgs("a.txt")}`);
    expect(finalUpdate(c.updates)).toMatchObject({
      status: "failed",
      rawOutput: { code: "approval_denied" },
    });
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    expectAllValid(c.sent);
  });

  it("session/cancel during a pending permission ends the turn cancelled, the call aborted; a late answer runs nothing", async () => {
    const cwd = workdir();
    let answer: (value: unknown) => void = () => undefined;
    let asked: () => void = () => undefined;
    const wasAsked = new Promise<void>((r) => {
      asked = r;
    });
    const c = await connect({
      cwd,
      script: {
        permission: () =>
          new Promise((r) => {
            answer = r;
            asked();
          }),
      },
    });
    const s = await c.newSession();
    const pending = c.prompt(s, `write_file ${writeArgs("a.txt")}`);
    await wasAsked;
    await c.connection.agent.notify("session/cancel", { sessionId: s });
    expect((await pending).stopReason).toBe("cancelled");
    answer({ outcome: { outcome: "selected", optionId: "allow_once" } });
    await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    expect(finalUpdate(c.updates)).toMatchObject({ status: "failed", rawOutput: { code: "aborted" } });
    expect(c.sent.some((m: any) => m.method === "$/cancel_request")).toBe(true);
    // The agent stays up: the next turn of the same session runs.
    const r = await c.prompt(s, "/tools");
    expect(r.stopReason).toBe("end_turn");
    expectAllValid(c.sent);
  });

  it("a cancelled outcome from the client ends the call aborted", async () => {
    const cwd = workdir();
    const c = await connect({ cwd, script: { permission: () => ({ outcome: { outcome: "cancelled" } }) } });
    const s = await c.newSession();
    await c.prompt(s, `write_file ${writeArgs("a.txt")}`);
    expect(finalUpdate(c.updates)).toMatchObject({ status: "failed", rawOutput: { code: "aborted" } });
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });

  it("a deny hook beats a remembered allow_always (consulted after PreToolUse)", async () => {
    const cwd = workdir();
    mkdirSync(join(cwd, "protected"));
    const guard = await loadHookFolder(resolve(here, "../../../apps/raw/hooks/guard"));
    const c = await connect({ cwd, hooks: [guard], script: { permission: select("allow_always") } });
    const s = await c.newSession();
    await c.prompt(s, `write_file ${writeArgs("a.txt")}`);
    await c.prompt(s, `write_file ${writeArgs("protected/x.txt")}`);
    expect(c.permissions).toHaveLength(1);
    expect(existsSync(join(cwd, "protected/x.txt"))).toBe(false);
    expect(finalUpdate(c.updates, "raw-2").status).toBe("failed");
    const thoughts = updatesOf(c.updates, "agent_thought_chunk").map((u) => u.content.text);
    expect(thoughts.some((t) => t.startsWith("PreToolUse: denied"))).toBe(true);
    expectAllValid(c.sent);
  });

  it("allow rules run without asking; a deny rule hides the tool", async () => {
    const cwd = workdir();
    const c = await connect({
      cwd,
      rules: [
        { match: "builtin/write_file", effect: "allow" },
        { match: "builtin/bash", effect: "deny" },
      ] as any,
    });
    const s = await c.newSession();
    await c.prompt(s, `write_file ${writeArgs("a.txt")}`);
    expect(c.permissions).toHaveLength(0);
    expect(existsSync(join(cwd, "a.txt"))).toBe(true);
    await c.prompt(s, `bash {"commands":[{"command":"touch z"}]}`);
    // Refused before its effects were prepared: one `tool_call`, already failed, with the code.
    const refused = updatesOf(c.updates, "tool_call").find((u) => u.toolCallId === "raw-2");
    expect(refused).toMatchObject({ status: "failed", kind: "other", locations: [] });
    expect(refused.content[0].content.text).toMatch(/^tool_(not_found|hidden|denied)|^[a-z_]+/);
    expect(existsSync(join(cwd, "z"))).toBe(false);
    expectAllValid(c.sent);
  });
});

describe("serveAcpAgent: plans, interactions, command mode", () => {
  it("todo (acp_plan) sends the checklist as a plan on every committed change", async () => {
    const cwd = workdir();
    const c = await connect({ cwd });
    const s = await c.newSession();
    const items = [
      { id: "a", label: "First", status: "done" },
      { id: "b", label: "Second", status: "in_progress", priority: "high" },
      { id: "c", label: "Child", parent: "b" },
    ];
    await c.prompt(s, `todo ${JSON.stringify({ mode: "replace", items })}`);
    await c.prompt(s, `todo ${JSON.stringify({ mode: "merge", items: [{ id: "b", status: "done" }] })}`);
    const plans = updatesOf(c.updates, "plan");
    expect(plans).toHaveLength(2);
    expect(plans[0].entries).toEqual([
      { content: "First", priority: "medium", status: "completed" },
      { content: "Second", priority: "high", status: "in_progress" },
      { content: "Child", priority: "medium", status: "pending" },
    ]);
    expect(plans[1].entries[1].status).toBe("completed");
    expectAllValid(c.sent);
  });

  it("ask_user becomes a form elicitation; an accepted answer shows in the final tool_call_update", async () => {
    const cwd = workdir();
    const c = await connect({
      cwd,
      script: {
        capabilities: { elicitation: { form: {} } },
        elicitation: () => ({ action: "accept", content: { color: "blue" } }),
      },
    });
    const s = await c.newSession();
    await c.prompt(s, `ask_user ${ASK_ONE}`);
    expect(c.elicitations).toHaveLength(1);
    expect(c.elicitations[0]).toMatchObject({
      mode: "form",
      sessionId: s,
      toolCallId: "raw-1",
      requestedSchema: {
        type: "object",
        properties: {
          color: {
            type: "string",
            oneOf: [
              { const: "red", title: "Red" },
              { const: "blue", title: "Blue" },
            ],
          },
        },
        required: ["color"],
      },
    });
    const final = finalUpdate(c.updates);
    expect(final.status).toBe("completed");
    expect(JSON.stringify(final.content)).toContain("blue");
    expectAllValid(c.sent);
  });

  it("a declined elicitation cancels the interaction", async () => {
    const cwd = workdir();
    const c = await connect({
      cwd,
      script: { capabilities: { elicitation: { form: {} } }, elicitation: () => ({ action: "decline" }) },
    });
    const s = await c.newSession();
    await c.prompt(s, `ask_user ${ASK_ONE}`);
    expect(c.elicitations).toHaveLength(1);
    expect(JSON.stringify(finalUpdate(c.updates).content)).toContain("cancel");
    expectAllValid(c.sent);
  });

  it("an invalid answer is refused by the interaction service and asked again with its code", async () => {
    const cwd = workdir();
    const answers: unknown[] = [
      { action: "accept", content: { color: "green" } },
      { action: "accept", content: "not an object" },
      { action: "accept", content: { color: "red" } },
    ];
    const c = await connect({
      cwd,
      script: { capabilities: { elicitation: { form: {} } }, elicitation: () => answers.shift() },
    });
    const s = await c.newSession();
    await c.prompt(s, `ask_user ${ASK_ONE}`);
    expect(c.elicitations).toHaveLength(3);
    expect(c.elicitations[1].message).toMatch(/refused \(interaction_[a-z_]+\)/);
    expect(JSON.stringify(finalUpdate(c.updates).content)).toContain("red");
    expectAllValid(c.sent);
  });

  it("a client without elicitation gets interaction_unavailable at once", async () => {
    const cwd = workdir();
    const c = await connect({ cwd });
    const s = await c.newSession();
    await c.prompt(s, `ask_user ${ASK_ONE}`);
    expect(c.elicitations).toHaveLength(0);
    expect(JSON.stringify(finalUpdate(c.updates))).toContain("interaction_unavailable");
    expectAllValid(c.sent);
  });

  it("/tools lists tools with identities; other text gets the help", async () => {
    const cwd = workdir();
    const c = await connect({ cwd });
    const s = await c.newSession();
    await c.prompt(s, "/tools");
    await c.prompt(s, "hello there");
    const said = updatesOf(c.updates, "agent_message_chunk").map((u) => u.content.text);
    expect(said[0]).toContain("write_file  builtin/write_file");
    expect(said[1]).toContain("command mode");
    expectAllValid(c.sent);
  });
});
