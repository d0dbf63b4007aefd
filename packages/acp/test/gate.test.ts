import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHookFolder } from "@raw/hook-protocol";
import { describe, expect, it } from "vitest";
import { outsideFolderPattern } from "../src/index.js";
import { failedUpdates, gateWorkdir, openGate, SHUFFLED_OPTIONS } from "./gate-support.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const select = (optionId: string) => () => ({ outcome: { outcome: "selected", optionId } });
const gateOptionOf = (kind: string) => () => ({ outcome: { outcome: "selected", optionId: kind } });

describe("createAcpGate: the A13 rows between an SDK client and a scripted SDK agent", () => {
  it("identities use the agent's initialize name made identity-safe; initialize passes unchanged", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, rules: [{ match: "acp/*", effect: "deny" }] });
    expect((g.init as any).agentInfo?.name).toBe("Scripted Agent");
    const [answer] = await g.run([{ request: "fs/read_text_file", params: { path: join(cwd, "a.txt") } }]);
    expect(answer.error.message).toContain("acp/scripted-agent/fs/read_text_file");
    expect(g.gate.agentName).toBe("scripted-agent");
    await g.close();
  });

  it("deny: a denied write never reaches the client's file handler; the agent's error names the rule; failed update", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({
      cwd,
      name: "bot",
      rules: [
        { match: "acp/bot/fs/*", effect: "allow" },
        { match: "acp/bot/fs/write_text_file", effect: "deny" },
      ],
    });
    await g.run([
      {
        update: {
          sessionUpdate: "tool_call",
          toolCallId: "w1",
          title: "Write",
          kind: "edit",
          status: "pending",
        },
      },
    ]);
    const [, answer] = await g.run([
      { update: { sessionUpdate: "tool_call_update", toolCallId: "w1", status: "in_progress" } },
      { request: "fs/write_text_file", params: { path: join(cwd, "a.txt"), content: "x" } },
    ]);
    expect(g.writes).toEqual([]);
    expect(answer.error.code).toBe(-32004);
    expect(answer.error.message).toContain("acp/bot/fs/write_text_file is denied by rule 1");
    expect(answer.error.data).toMatchObject({ code: "tool_denied", rule: { index: 1 } });
    expect(failedUpdates(g.updates)).toMatchObject([{ toolCallId: "w1", status: "failed" }]);
    expect(g.lines.some((l) => l.method === "fs/write_text_file")).toBe(false);
    await g.close();
  });

  it("allow: an allowed write reaches the client unchanged and its answer reaches the agent", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({
      cwd,
      name: "bot",
      rules: [{ match: "acp/bot/fs/write_text_file", effect: "allow" }],
    });
    const params = { path: join(cwd, "a.txt"), content: "line\u202e\n", _meta: { x: [1, { y: null }] } };
    const [answer] = await g.run([{ request: "fs/write_text_file", params }]);
    expect(answer).toEqual({ step: 0, result: {} });
    expect(g.writes).toEqual([{ sessionId: g.sessionId, ...params }]);
    expect(g.permissions).toEqual([]);
    await g.close();
  });

  it("ask (default rules): the client gets the gate's own permission request with the A10 view; a rejected terminal never runs", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot", script: { permission: gateOptionOf("reject_once") } });
    const [answer] = await g.run([
      {
        request: "terminal/create",
        params: { command: "rm", args: ["-rf", "/"], env: [{ name: "TOKEN", value: "s3cret-value" }] },
      },
    ]);
    expect(g.terminals).toEqual([]);
    expect(answer.error.message).toContain("the user did not approve acp/bot/terminal/create");
    expect(g.permissions).toHaveLength(1);
    const asked = g.permissions[0];
    expect(asked.options.map((o: any) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
      "reject_always",
    ]);
    const view = asked.toolCall.content[0].content.text as string;
    expect(view).toContain("approve acp/bot/terminal/create?");
    expect(view).toContain('"command": "rm"');
    expect(view).toContain("[redacted]");
    expect(JSON.stringify(g.lines)).not.toContain("s3cret-value");
    expect(failedUpdates(g.updates)).toHaveLength(1);
    await g.close();
  });

  it("ask approved: the terminal request reaches the client unchanged (env included)", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot", script: { permission: gateOptionOf("allow_once") } });
    const params = { command: "ls", args: ["-l"], env: [{ name: "TOKEN", value: "v" }], cwd };
    const [answer] = await g.run([{ request: "terminal/create", params }]);
    expect(answer.result).toEqual({ terminalId: "t-1" });
    expect(g.terminals).toEqual([{ sessionId: g.sessionId, ...params }]);
    await g.close();
  });

  it("a self-declared `read` with a protected location is denied by the hook; the client never sees it", async () => {
    const cwd = gateWorkdir();
    mkdirSync(join(cwd, "protected"));
    const hook = await loadHookFolder(resolve(here, "fixtures/protect"));
    const g = await openGate({
      cwd,
      name: "bot",
      hooks: [hook],
      rules: [{ match: "acp/bot/tool/read", effect: "allow" }],
      script: { permission: select("yes") },
    });
    const [answer] = await g.run([
      {
        request: "session/request_permission",
        params: {
          toolCall: {
            toolCallId: "c1",
            title: "Read",
            kind: "read",
            locations: [{ path: join(cwd, "protected/key") }],
          },
          options: SHUFFLED_OPTIONS,
        },
      },
    ]);
    expect(answer.result).toEqual({ outcome: { outcome: "selected", optionId: "no" } });
    expect(g.permissions).toEqual([]);
    const failed = failedUpdates(g.updates);
    expect(failed).toMatchObject([{ toolCallId: "c1", status: "failed" }]);
    expect(failed[0].content[0].content.text).toContain("hook protect denied acp/bot/tool/read");
    await g.close();
  });

  it("hook deny on fs: the error names the hook", async () => {
    const cwd = gateWorkdir();
    const hook = await loadHookFolder(resolve(here, "fixtures/protect"));
    const g = await openGate({
      cwd,
      name: "bot",
      hooks: [hook],
      rules: [{ match: "acp/*", effect: "allow" }],
    });
    const [answer] = await g.run([
      { request: "fs/read_text_file", params: { path: join(cwd, "protected/a") } },
    ]);
    expect(g.reads).toEqual([]);
    expect(answer.error.message).toContain("hook protect denied acp/bot/fs/read_text_file");
    expect(answer.error.data).toMatchObject({ code: "hook_denied", hook: { id: expect.any(String) } });
    await g.close();
  });

  it("allow on a permission request: the gate answers allow_once chosen by kind (shuffled options), the client is not asked", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot", rules: [{ match: "acp/bot/tool/*", effect: "allow" }] });
    const [answer] = await g.run([
      {
        request: "session/request_permission",
        params: {
          toolCall: { toolCallId: "c1", title: "Edit", kind: "edit", locations: [{ path: join(cwd, "a") }] },
          options: SHUFFLED_OPTIONS,
        },
      },
    ]);
    expect(answer.result).toEqual({ outcome: { outcome: "selected", optionId: "yes" } });
    expect(g.permissions).toEqual([]);
    await g.close();
  });

  it("deny on a permission request: reject_once chosen by kind; the kind never skips a rule", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({
      cwd,
      name: "bot",
      rules: [
        { match: "acp/bot/tool/*", effect: "allow" },
        { match: "acp/bot/tool/other", effect: "deny" },
      ],
    });
    const [answer] = await g.run([
      {
        request: "session/request_permission",
        params: { toolCall: { toolCallId: "c9", title: "?", kind: "not-a-kind" }, options: SHUFFLED_OPTIONS },
      },
    ]);
    expect(answer.result).toEqual({ outcome: { outcome: "selected", optionId: "no" } });
    expect(failedUpdates(g.updates)).toMatchObject([{ toolCallId: "c9" }]);
    await g.close();
  });

  it("ask on a permission request: the agent's own request with the A10 view prepended; the client's answer goes back", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot", script: { permission: select("yes-forever") } });
    const toolCall = {
      toolCallId: "c2",
      title: "Edit",
      kind: "edit",
      locations: [{ path: join(cwd, "x\u001b[31m.txt") }],
      content: [{ type: "content", content: { type: "text", text: "agent's own text" } }],
      rawInput: { a: 1 },
    };
    const [answer] = await g.run([
      { request: "session/request_permission", params: { toolCall, options: SHUFFLED_OPTIONS } },
    ]);
    expect(answer.result).toEqual({ outcome: { outcome: "selected", optionId: "yes-forever" } });
    const asked = g.permissions[0];
    expect(asked.options).toEqual(SHUFFLED_OPTIONS);
    expect(asked.toolCall.content[1]).toEqual(toolCall.content[0]);
    const view = asked.toolCall.content[0].content.text as string;
    expect(view).toContain("approve acp/bot/tool/edit?");
    expect(view).toContain(`write ${cwd}/x\\x1b[31m.txt`);
    expect(view).not.toContain("\u001b");
    await g.close();
  });

  it("allow_always is remembered for the ACP session, per identity and rule; a deny hook still wins", async () => {
    const cwd = gateWorkdir();
    const hook = await loadHookFolder(resolve(here, "fixtures/protect"));
    const g = await openGate({
      cwd,
      name: "bot",
      hooks: [hook],
      script: { permission: gateOptionOf("allow_always") },
    });
    const write = (path: string) => ({
      request: "fs/write_text_file",
      params: { path: join(cwd, path), content: "x" },
    });
    const answers = await g.run([write("a.txt"), write("b.txt"), write("protected/c.txt")]);
    expect(g.permissions).toHaveLength(1);
    expect(g.writes.map((w) => w.path)).toEqual([join(cwd, "a.txt"), join(cwd, "b.txt")]);
    expect(answers[2].error.data).toMatchObject({ code: "hook_denied" });
    // reject_always on the terminal identity: remembered too, and only for it.
    await g.close();
  });

  it("reject_always is remembered; a new ACP session asks again", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot", script: { permission: gateOptionOf("reject_always") } });
    const term = { request: "terminal/create", params: { command: "ls" } };
    const answers = await g.run([term, term]);
    expect(g.permissions).toHaveLength(1);
    expect(answers.map((a) => a.error?.data?.code)).toEqual(["approval_denied", "approval_denied"]);
    const other = await g.connection.agent.request("session/new", { cwd, mcpServers: [] });
    await g.connection.agent.request("session/prompt", {
      sessionId: other.sessionId,
      prompt: [{ type: "text", text: JSON.stringify([term]) }],
    });
    expect(g.permissions).toHaveLength(2);
    expect(g.terminals).toEqual([]);
    await g.close();
  });

  it("a conditional ask on files[*].path: writes inside the project pass, writes outside are asked", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({
      cwd,
      name: "bot",
      script: { permission: gateOptionOf("reject_once") },
      rules: [
        { match: "acp/*/fs/write_text_file", effect: "allow" },
        {
          match: "acp/*/fs/write_text_file",
          effect: "ask",
          when: { source: "effects", any: "files[*].path", regex: outsideFolderPattern(cwd) },
        },
      ],
    });
    const answers = await g.run([
      { request: "fs/write_text_file", params: { path: join(cwd, "in.txt"), content: "x" } },
      { request: "fs/write_text_file", params: { path: join(cwd, "../out.txt"), content: "x" } },
    ]);
    expect(answers[0].result).toEqual({});
    expect(answers[1].error.data.code).toBe("approval_denied");
    expect(g.writes.map((w) => w.path)).toEqual([join(cwd, "in.txt")]);
    expect(g.permissions[0].toolCall.content[0].content.text).toContain("outside");
    await g.close();
  });

  it("streaming updates and other requests pass unchanged (equal after JSON normalization)", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot" });
    const updates = [
      { sessionUpdate: "plan", entries: [{ content: "a\u202e", priority: "high", status: "pending" }] },
      {
        sessionUpdate: "tool_call",
        toolCallId: "t",
        title: "x",
        kind: "read",
        status: "pending",
        rawInput: { deep: [1, "2", { n: null }] },
      },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hé\u0000llo" } },
    ];
    await g.run([...updates.map((update) => ({ update })), { request: "_custom/thing", params: { q: 1 } }]);
    const seen = g.lines.filter((l) => l.method === "session/update").map((l) => l.params.update);
    for (const update of updates) expect(seen).toContainEqual(update);
    expect(g.lines.find((l) => l.method === "_custom/thing")?.params).toEqual({
      sessionId: g.sessionId,
      q: 1,
    });
    await g.close();
  });

  it("a hook subscribed to acp/* with an effects predicate binds to every gated identity (reads have no files)", async () => {
    const cwd = gateWorkdir();
    const dir = join(mkdtempSync(join(tmpdir(), "raw-gate-hook-")), "protect");
    mkdirSync(dir);
    copyFileSync(resolve(here, "fixtures/protect/index.mjs"), join(dir, "index.mjs"));
    writeFileSync(
      join(dir, "hook.json"),
      JSON.stringify({
        protocol_version: 2,
        name: "protect",
        events: [
          {
            name: "PreToolUse",
            match: "acp/*",
            when: { source: "effects", any: "files[*].path", regex: "/protected/" },
          },
        ],
        command: "node",
        args: ["./index.mjs"],
        timeout_ms: 5000,
      }),
    );
    const hook = await loadHookFolder(dir);
    const g = await openGate({
      cwd,
      name: "bot",
      hooks: [hook],
      rules: [{ match: "acp/*", effect: "allow" }],
    });
    const answers = await g.run([
      { request: "fs/read_text_file", params: { path: join(cwd, "a.txt") } },
      { request: "fs/write_text_file", params: { path: join(cwd, "protected/a"), content: "" } },
      { request: "fs/write_text_file", params: { path: join(cwd, "b"), content: "" } },
    ]);
    expect(answers[0].result).toEqual({ content: "file text\n" });
    expect(answers[1].error.data).toMatchObject({ code: "hook_denied" });
    expect(answers[2].result).toEqual({});
    expect(g.writes.map((w) => w.path)).toEqual([join(cwd, "b")]);
    await g.close();
  });

  it("default rules (no rules file): reads are asked too; the gate's own card is completed once allowed", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({ cwd, name: "bot", script: { permission: gateOptionOf("allow_once") } });
    const [answer] = await g.run([{ request: "fs/read_text_file", params: { path: join(cwd, "a.txt") } }]);
    expect(answer.result).toEqual({ content: "file text\n" });
    expect(g.permissions).toHaveLength(1);
    const card = g.permissions[0].toolCall.toolCallId;
    const updates = g.updates.map((n) => n.update).filter((u) => u.toolCallId === card);
    expect(updates.map((u) => [u.sessionUpdate, u.status])).toEqual([
      ["tool_call", "pending"],
      ["tool_call_update", "completed"],
    ]);
    await g.close();
  });

  it("the agent withdraws a gated request ($/cancel_request): the client's question is withdrawn under the gate's id", async () => {
    const cwd = gateWorkdir();
    let answer: (value: unknown) => void = () => undefined;
    const g = await openGate({
      cwd,
      name: "bot",
      script: { permission: () => new Promise((resolve) => (answer = resolve)) },
    });
    const [result] = await g.run([
      { request: "terminal/create", params: { command: "sleep" }, cancelAfterMs: 300 },
    ]);
    expect(result.error.code).toBe(-32800);
    const asked = g.lines.find((l) => l.method === "session/request_permission");
    expect(g.lines.find((l) => l.method === "$/cancel_request")?.params).toEqual({ requestId: asked.id });
    answer({ outcome: { outcome: "selected", optionId: "allow_once" } });
    await new Promise((r) => setTimeout(r, 200));
    expect(g.terminals).toEqual([]);
    await g.close();
  });

  it("an argument predicate on a permission request's rawInput: a conditional ask on acp/*/tool/execute", async () => {
    const cwd = gateWorkdir();
    const g = await openGate({
      cwd,
      name: "bot",
      script: { permission: select("no") },
      rules: [
        { match: "acp/*/tool/*", effect: "allow" },
        {
          match: "acp/*/tool/execute",
          effect: "ask",
          when: { source: "arguments", any: "command", regex: "\\brm\\b" },
        },
      ],
    });
    const run = (command: string, toolCallId: string) => ({
      request: "session/request_permission",
      params: {
        toolCall: { toolCallId, title: "Run", kind: "execute", rawInput: { command } },
        options: SHUFFLED_OPTIONS,
      },
    });
    const answers = await g.run([run("ls -l", "e1"), run("rm -rf build", "e2")]);
    expect(answers[0].result.outcome).toEqual({ outcome: "selected", optionId: "yes" });
    expect(answers[1].result.outcome).toEqual({ outcome: "selected", optionId: "no" });
    expect(g.permissions.map((p) => p.toolCall.toolCallId)).toEqual(["e2"]);
    await g.close();
  });
});
