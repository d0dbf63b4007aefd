import { openHostSession } from "@raw/host";
import { describe, expect, it } from "vitest";
import { PANEL_ACTION_BUSY, PANEL_ACTION_CODES, PANEL_ACTION_DENIED } from "../src/index.js";
import { bundledTools, connect, expectAllValid, updatesOf, workdir } from "./support.js";

const PANELS = { _meta: { raw: { panels: true } } };
const ITEMS = [
  { id: "a", label: "First" },
  { id: "b", label: "Second", status: "done" },
];
const TODO = `todo ${JSON.stringify({ mode: "replace", items: ITEMS })}`;
const DONE_A = { panel: "builtin/todo#todo", action: "done", block: "tasks", item: "a" };

/** Waits (bounded: 5 s) until `check` returns a value. */
async function until<T>(check: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function finalOf(updates: any[], toolCallId: string): any {
  return updatesOf(updates, "tool_call_update").find(
    (u) => u.toolCallId === toolCallId && (u.status === "completed" || u.status === "failed"),
  );
}

describe("_raw/panel/action (A12, panels.md §10)", () => {
  it("a tool action runs the declaring tool again as user_action and answers { operationId } at once", async () => {
    const c = await connect({ cwd: workdir(), script: { capabilities: PANELS } });
    const s = await c.newSession();
    await c.prompt(s, TODO);
    const answer = await c.connection.agent.request<any>("_raw/panel/action", { sessionId: s, ...DONE_A });
    expect(answer).toEqual({ operationId: "raw-2", kind: "tool" });
    const last = await until(() => finalOf(c.updates, "raw-2"));
    expect(last.status).toBe("completed");
    const plan = await until(() => updatesOf(c.updates, "plan")[1]);
    expect(plan.entries.map((e: any) => e.status)).toEqual(["completed", "completed"]);
    const prompt = await c.connection.agent.request<any>("_raw/panel/action", {
      sessionId: s,
      panel: "todo",
      action: "discuss",
      block: "tasks",
      item: "a",
    });
    expect(prompt).toMatchObject({ kind: "prompt", text: "About the task First (a): ", send: false });
    expectAllValid(c.sent);
  });

  it("a click is never approval: under an ask rule the action's call asks, and reject_once leaves the panel as it was", async () => {
    let answers = 0;
    const c = await connect({
      cwd: workdir(),
      rules: [{ match: "builtin/todo", effect: "ask" }] as any,
      script: {
        capabilities: PANELS,
        permission: () => ({
          outcome: { outcome: "selected", optionId: answers++ === 0 ? "allow_once" : "reject_once" },
        }),
      },
    });
    const s = await c.newSession();
    await c.prompt(s, TODO);
    expect(c.permissions).toHaveLength(1);
    await c.connection.agent.request("_raw/panel/action", { sessionId: s, ...DONE_A });
    const last = await until(() => finalOf(c.updates, "raw-2"));
    expect(c.permissions).toHaveLength(2);
    expect(last.rawOutput).toMatchObject({ code: "approval_denied" });
    expect(updatesOf(c.updates, "plan")).toHaveLength(1);
  });

  it("denied by the rules → -32004 (a restored panel whose tool is now denied); a running turn → -32002; bad selections → invalid_action", async () => {
    const todo = (await bundledTools()).find((t) => t.identity === "builtin/todo") as any;
    let release: (() => void) | undefined;
    const c = await connect({
      cwd: workdir(),
      rules: [{ match: "builtin/write_file", effect: "ask" }] as any,
      script: {
        capabilities: PANELS,
        permission: () =>
          new Promise((resolve) => {
            release = () => resolve({ outcome: { outcome: "selected", optionId: "reject_once" } });
          }),
      },
      extra: {
        // A session whose rules deny todo, over a panel the tool wrote before (as a restored session holds it).
        session: (binding) => {
          const host = openHostSession({
            cwd: binding.cwd,
            tools: [todo],
            rules: [{ match: "builtin/todo", effect: "deny" }] as any,
            approve: binding.approve,
          });
          const call = host.panels.beginCall({
            owner: "builtin/todo",
            declarations: todo.registration.panels,
          });
          void call.context.update("todo", {
            op: "replace",
            document: { blocks: [{ id: "tasks", kind: "checklist", items: [{ id: "a", label: "First" }] }] },
          });
          call.settle();
          return host;
        },
      },
    });
    const denied = await c.newSession();
    const act = (s: string, params: object) =>
      c.connection.agent.request("_raw/panel/action", { sessionId: s, ...params });
    await expect(act(denied, DONE_A)).rejects.toMatchObject({
      code: PANEL_ACTION_DENIED,
      data: { code: PANEL_ACTION_CODES.denied },
    });
    await expect(act(denied, { ...DONE_A, item: "zzz" })).rejects.toMatchObject({
      data: { code: "invalid_action" },
      message: expect.stringContaining('item "zzz" does not exist in block "tasks"'),
    });
    await expect(act(denied, { ...DONE_A, panel: "builtin/todo#nope" })).rejects.toMatchObject({
      data: { code: PANEL_ACTION_CODES.unknownPanel },
    });
    await expect(act(denied, { ...DONE_A, action: 5 })).rejects.toMatchObject({
      data: { code: PANEL_ACTION_CODES.invalid },
    });
    const plain = await connect({
      cwd: workdir(),
      rules: [{ match: "builtin/write_file", effect: "ask" }] as any,
      script: {
        capabilities: PANELS,
        permission: () =>
          new Promise((resolve) => {
            release = () => resolve({ outcome: { outcome: "selected", optionId: "reject_once" } });
          }),
      },
    });
    const s = await plain.newSession();
    await plain.prompt(s, TODO);
    const turn = plain.prompt(s, `write_file {"operations":[{"path":"x","mode":"overwrite","content":""}]}`);
    await until(() => (release === undefined ? undefined : true));
    await expect(
      plain.connection.agent.request("_raw/panel/action", { sessionId: s, ...DONE_A }),
    ).rejects.toMatchObject({ code: PANEL_ACTION_BUSY, data: { code: PANEL_ACTION_CODES.busy } });
    release?.();
    await turn;
    expectAllValid([...c.sent, ...plain.sent]);
  });

  it("a client that did not advertise _meta.raw.panels cannot run actions", async () => {
    const c = await connect({ cwd: workdir() });
    const s = await c.newSession();
    await c.prompt(s, TODO);
    await expect(
      c.connection.agent.request("_raw/panel/action", { sessionId: s, ...DONE_A }),
    ).rejects.toMatchObject({ data: { code: PANEL_ACTION_CODES.unsupported } });
  });
});

describe("_raw/panel/action: a cancel response action", () => {
  it("cancels the question pending on the panel; the call ends and the elicitation is withdrawn", async () => {
    let asked = false;
    const c = await connect({
      cwd: workdir(),
      script: {
        capabilities: { elicitation: { form: {} }, ...PANELS },
        elicitation: () => {
          asked = true;
          return new Promise(() => undefined);
        },
      },
    });
    const s = await c.newSession();
    const turn = c.prompt(
      s,
      `ask_user ${JSON.stringify({ questions: [{ id: "why", label: "Why?", kind: "text", required: true }] })}`,
    );
    await until(() => (asked ? true : undefined));
    const answer = await c.connection.agent.request<any>("_raw/panel/action", {
      sessionId: s,
      panel: "builtin/ask_user#questions",
      action: "cancel",
      block: "form",
    });
    expect(answer.kind).toBe("response");
    expect((await turn).stopReason).toBe("end_turn");
    expect(JSON.stringify(finalOf(c.updates, "raw-1"))).toContain("cancel");
    await expect(
      c.connection.agent.request("_raw/panel/action", {
        sessionId: s,
        panel: "builtin/ask_user#questions",
        action: "cancel",
        block: "form",
      }),
    ).rejects.toMatchObject({ data: { code: PANEL_ACTION_CODES.unknownPanel } });
    expectAllValid(c.sent);
  });
});
