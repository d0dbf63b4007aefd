import { existsSync } from "node:fs";
import { join } from "node:path";
import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import {
  buildHookPayload,
  createHookDispatcher,
  type HookResponse,
  type HookRunner,
  type HookRunResult,
  type LoadedHook,
  parseHookManifest,
  type RunHookOptions,
} from "../src/index.js";
import { postPayload, prePayload, tempFolder } from "./helpers.js";

type Events = Array<Record<string, unknown>>;

/** A hook (not loaded from a folder) whose command is `sh -c <script>`. */
function hook(
  id: string,
  events: Events,
  script = "cat >/dev/null; echo '{}'",
  timeoutMs = 5000,
): LoadedHook {
  const result = parseHookManifest({
    protocol_version: 2,
    name: "h",
    events,
    command: "sh",
    args: ["-c", script],
    timeout_ms: timeoutMs,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return { id, folder: "/", manifest: result.manifest };
}

/** A runner double: answers per hook id and records every call. */
function fakeRunner(answers: Record<string, HookResponse | Error> = {}) {
  const calls: Array<{ id: string; event: string; options: RunHookOptions }> = [];
  const runner: HookRunner = async (h, payload, options) => {
    calls.push({ id: h.id, event: payload.event, options });
    const answer = answers[h.id] ?? { outcome: "continued" };
    if (answer instanceof Error) throw answer;
    const receipt: HookRunResult["receipt"] = {
      id: h.id,
      event: payload.event,
      outcome: answer.outcome,
      durationMs: 1,
    };
    if (answer.code) receipt.code = answer.code;
    if (answer.message) receipt.message = answer.message;
    return { ...answer, receipt };
  };
  return { runner, calls, ids: () => calls.map((c) => c.id) };
}

const deny = (id: string, reason = `hook ${id} denied`): HookResponse => ({
  outcome: "denied",
  decision: "deny",
  reason,
});
const fail = (id: string, code: HookResponse["code"] = "exit"): HookResponse => ({
  outcome: "error",
  code,
  reason: `hook ${id} failed: ${code}`,
});

const RM = { source: "arguments", any: "commands[*].command", regex: "(^|[;&|()\\n])\\s*rm(\\s|$)" };
const PROTECTED = { source: "effects", any: "files[*].path", regex: "protected\\.txt$" };
const bash = (commands: string[]) => prePayload("/", { commands: commands.map((command) => ({ command })) });
const writeCall = (effects?: Record<string, unknown>) =>
  buildHookPayload("PreToolUse", {
    cwd: "/",
    tool: { identity: "builtin/write_file", name: "write_file", arguments: { path: "a" }, effects },
  });

describe("createHookDispatcher: order and chain", () => {
  it("runs hooks in selection order and returns their receipts", async () => {
    const fake = fakeRunner();
    const d = createHookDispatcher(
      [
        hook("agent/c", [{ name: "Stop" }]),
        hook("agent/a", [{ name: "Stop" }]),
        hook("agent/b", [{ name: "Stop" }]),
      ],
      {
        runner: fake.runner,
      },
    );
    const result = await d.run(
      "Stop",
      buildHookPayload("Stop", { cwd: "/", run: { status: "completed", steps: 1 } }),
    );
    expect(fake.ids()).toEqual(["agent/c", "agent/a", "agent/b"]);
    expect(result.blocked).toBeUndefined();
    expect(result.receipts.map((r) => r.id)).toEqual(["agent/c", "agent/a", "agent/b"]);
  });

  it("stops a gate at the first denial; a continue never prevents a later deny", async () => {
    const fake = fakeRunner({ "agent/b": deny("agent/b", "no rm") });
    const hooks = ["agent/a", "agent/b", "agent/c"].map((id) => hook(id, [{ name: "PreToolUse" }]));
    const result = await createHookDispatcher(hooks, { runner: fake.runner }).run("PreToolUse", bash(["ls"]));
    expect(fake.ids()).toEqual(["agent/a", "agent/b"]);
    expect(result).toMatchObject({ blocked: "denied", reason: "no rm" });
    expect(result.receipts.map((r) => [r.id, r.outcome])).toEqual([
      ["agent/a", "continued"],
      ["agent/b", "denied"],
    ]);
  });

  it("stops a gate at the first error with `hook <id> failed: <code>`", async () => {
    const fake = fakeRunner({ "agent/a": fail("agent/a", "timeout"), "agent/b": deny("agent/b") });
    const hooks = ["agent/a", "agent/b"].map((id) => hook(id, [{ name: "UserPromptSubmit" }]));
    const result = await createHookDispatcher(hooks, { runner: fake.runner }).run(
      "UserPromptSubmit",
      buildHookPayload("UserPromptSubmit", { cwd: "/", input: "hi" }),
    );
    expect(fake.ids()).toEqual(["agent/a"]);
    expect(result).toMatchObject({ blocked: "error", reason: "hook agent/a failed: timeout" });
    expect(result.receipts).toEqual([
      { id: "agent/a", event: "UserPromptSubmit", outcome: "error", durationMs: 1, code: "timeout" },
    ]);
  });

  it("runs every hook on a notification, errors included", async () => {
    const fake = fakeRunner({ "agent/a": fail("agent/a"), "agent/b": fail("agent/b", "invalid_output") });
    const hooks = ["agent/a", "agent/b", "agent/c"].map((id) => hook(id, [{ name: "PostToolUse" }]));
    const result = await createHookDispatcher(hooks, { runner: fake.runner }).run(
      "PostToolUse",
      postPayload("/"),
    );
    expect(fake.ids()).toEqual(["agent/a", "agent/b", "agent/c"]);
    expect(result.blocked).toBeUndefined();
    expect(result.receipts.map((r) => r.outcome)).toEqual(["error", "error", "continued"]);
  });

  it("runs a hook at most once per event and reports receipts to onReceipt", async () => {
    const fake = fakeRunner();
    const seen: string[] = [];
    const h = hook("agent/a", [
      { name: "PreToolUse" },
      { name: "PreToolUse", match: "builtin/*" },
      { name: "PostToolUse" },
    ]);
    const d = createHookDispatcher([h], {
      runner: fake.runner,
      onReceipt: (r) => {
        seen.push(r.id);
        throw new Error("observers cannot break dispatch");
      },
    });
    const result = await d.run("PreToolUse", bash(["ls"]));
    expect(fake.ids()).toEqual(["agent/a"]);
    expect(seen).toEqual(["agent/a"]);
    expect(result).toEqual({
      receipts: [{ id: "agent/a", event: "PreToolUse", outcome: "continued", durationMs: 1 }],
    });
  });

  it("maps a runner exception to hook_callback", async () => {
    const fake = fakeRunner({ "agent/a": new Error("boom") });
    const d = createHookDispatcher([hook("agent/a", [{ name: "PreToolUse" }])], { runner: fake.runner });
    const result = await d.run("PreToolUse", bash(["ls"]));
    expect(result).toMatchObject({ blocked: "error", reason: "hook agent/a failed: hook_callback" });
    expect(result.receipts[0]).toMatchObject({ id: "agent/a", outcome: "error", code: "hook_callback" });
  });

  it("builds the request from fields and refuses a mismatched or foreign-version request", async () => {
    const fake = fakeRunner();
    const d = createHookDispatcher([hook("agent/a", [{ name: "SessionStart" }])], { runner: fake.runner });
    await d.run("SessionStart", { cwd: "/repo", source: "resume" });
    expect(fake.calls[0]?.event).toBe("SessionStart");
    await expect(d.run("SessionStart", buildHookPayload("SessionEnd", { cwd: "/" }))).rejects.toThrow(
      TypeError,
    );
    await expect(
      d.run("SessionStart", {
        ...buildHookPayload("SessionStart", { cwd: "/" }),
        protocol_version: 1,
      } as never),
    ).rejects.toMatchObject({ code: "hook_protocol_version_unsupported" });
  });

  it("refuses duplicate hook ids", () => {
    let thrown: unknown;
    try {
      createHookDispatcher([hook("agent/a", [{ name: "Stop" }]), hook("agent/a", [{ name: "Stop" }])]);
    } catch (error) {
      thrown = error;
    }
    expect(isContractError(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: "hook_selection_duplicate",
      message: "duplicate selected hook: agent/a",
    });
  });
});

describe("createHookDispatcher: matching", () => {
  const cases: Array<[string, Events, ReturnType<typeof bash>, boolean]> = [
    ["event name only", [{ name: "PreToolUse" }], bash(["ls"]), true],
    ["another event", [{ name: "PostToolUse" }], bash(["ls"]), false],
    ["exact glob", [{ name: "PreToolUse", match: "builtin/bash" }], bash(["ls"]), true],
    ["glob is anchored", [{ name: "PreToolUse", match: "builtin/bas" }], bash(["ls"]), false],
    ["glob is case-sensitive", [{ name: "PreToolUse", match: "Builtin/bash" }], bash(["ls"]), false],
    ["* glob", [{ name: "PreToolUse", match: "builtin/*" }], bash(["ls"]), true],
    ["? glob", [{ name: "PreToolUse", match: "builtin/?ash" }], bash(["ls"]), true],
    ["other namespace", [{ name: "PreToolUse", match: "mcp/*" }], bash(["ls"]), false],
    [
      "predicate matches",
      [{ name: "PreToolUse", match: "builtin/bash", when: RM }],
      bash(["touch x", "echo a&&rm b"]),
      true,
    ],
    [
      "predicate does not match",
      [{ name: "PreToolUse", match: "builtin/bash", when: RM }],
      bash(["rmdir x"]),
      false,
    ],
    [
      "predicate without match applies to every tool",
      [{ name: "PreToolUse", when: RM }],
      bash(["rm -rf /"]),
      true,
    ],
    [
      "glob fails before the predicate",
      [{ name: "PreToolUse", match: "mcp/*", when: RM }],
      bash(["rm x"]),
      false,
    ],
    [
      "any subscription suffices",
      [
        { name: "PreToolUse", match: "mcp/*" },
        { name: "PreToolUse", when: RM },
      ],
      bash(["rm x"]),
      true,
    ],
  ];
  it.each(cases)("%s", async (_title, events, payload, runs) => {
    const fake = fakeRunner();
    await createHookDispatcher([hook("agent/a", events)], { runner: fake.runner }).run("PreToolUse", payload);
    expect(fake.calls.length).toBe(runs ? 1 : 0);
  });

  it("spawns no process for 100 non-matching subscriptions", async () => {
    const dir = await tempFolder();
    const hooks = Array.from({ length: 100 }, (_, i) =>
      hook(
        `agent/h${i}`,
        [
          { name: "PreToolUse", match: "mcp/*" },
          { name: "PreToolUse", when: RM },
        ],
        `touch ${join(dir, `m${i}`)}`,
      ),
    );
    const d = createHookDispatcher(hooks);
    const result = await d.run("PreToolUse", bash(["ls -la"]));
    expect(result).toEqual({ receipts: [] });
    for (let i = 0; i < 100; i++) expect(existsSync(join(dir, `m${i}`))).toBe(false);
  });
});

describe("createHookDispatcher: the effects fail-closed rule", () => {
  it("blocks a gate whose effects subscription covers a call without effects, spawning nothing", async () => {
    const fake = fakeRunner();
    const hooks = [
      hook("agent/a", [{ name: "PreToolUse" }]),
      hook("agent/b", [{ name: "PreToolUse", match: "builtin/write_file", when: PROTECTED }]),
      hook("agent/c", [{ name: "PreToolUse" }]),
    ];
    const result = await createHookDispatcher(hooks, { runner: fake.runner }).run("PreToolUse", writeCall());
    expect(result).toEqual({
      blocked: "error",
      reason: "hook agent/b: effects inspection unavailable",
      receipts: [{ id: "agent/a", event: "PreToolUse", outcome: "continued", durationMs: 1 }],
    });
    expect(fake.ids()).toEqual(["agent/a"]);
  });

  it("applies to a subscription without match and not to one whose glob misses", async () => {
    const fake = fakeRunner();
    const noMatch = createHookDispatcher([hook("agent/b", [{ name: "PreToolUse", when: PROTECTED }])], {
      runner: fake.runner,
    });
    expect((await noMatch.run("PreToolUse", writeCall())).reason).toBe(
      "hook agent/b: effects inspection unavailable",
    );
    const other = createHookDispatcher(
      [hook("agent/b", [{ name: "PreToolUse", match: "mcp/*", when: PROTECTED }])],
      {
        runner: fake.runner,
      },
    );
    expect(await other.run("PreToolUse", writeCall())).toEqual({ receipts: [] });
    expect(fake.calls).toEqual([]);
  });

  it("matches normally when effects are present", async () => {
    const fake = fakeRunner({ "agent/b": deny("agent/b", "protected") });
    const d = createHookDispatcher([hook("agent/b", [{ name: "PreToolUse", when: PROTECTED }])], {
      runner: fake.runner,
    });
    const hit = await d.run(
      "PreToolUse",
      writeCall({ files: [{ path: "/p/protected.txt", operation: "write" }] }),
    );
    expect(hit).toMatchObject({ blocked: "denied", reason: "protected" });
    const miss = await d.run(
      "PreToolUse",
      writeCall({ files: [{ path: "/p/other.txt", operation: "write" }] }),
    );
    expect(miss).toEqual({ receipts: [] });
  });

  it("is simply no match on a notification", async () => {
    const fake = fakeRunner();
    const d = createHookDispatcher([hook("agent/b", [{ name: "PostToolUse", when: PROTECTED }])], {
      runner: fake.runner,
    });
    const payload = buildHookPayload("PostToolUse", {
      cwd: "/",
      tool: {
        identity: "builtin/write_file",
        name: "write_file",
        arguments: {},
        result: { isError: false, content: [] },
      },
    });
    expect(await d.run("PostToolUse", payload)).toEqual({ receipts: [] });
    expect(fake.calls).toEqual([]);
  });
});

describe("createHookDispatcher: tool views", () => {
  const bashTool = {
    name: "bash",
    identity: "builtin/bash",
    inputSchema: {
      type: "object",
      properties: {
        commands: { type: "array", items: { type: "object", properties: { command: { type: "string" } } } },
      },
    },
  };
  const writeTool = {
    name: "write_file",
    identity: "builtin/write_file",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    conditionSources: ["arguments", "effects"],
    effectsSchema: {
      type: "object",
      properties: {
        files: { type: "array", items: { type: "object", properties: { path: { type: "string" } } } },
      },
    },
  };
  const hooks = () => [
    hook("agent/a", [{ name: "PreToolUse", match: "builtin/bash", when: RM }]),
    hook("agent/b", [{ name: "PostToolUse", match: "builtin/write_file", when: PROTECTED }]),
  ];

  it("binds every when against the visible tools", () => {
    const d = createHookDispatcher(hooks(), { tools: [bashTool, writeTool] });
    expect(d.view.map((t) => t.name)).toEqual(["bash", "write_file"]);
  });

  it("refuses a view that does not bind and keeps the previous one", () => {
    const d = createHookDispatcher(hooks(), { tools: [bashTool] });
    const badBash = {
      ...bashTool,
      inputSchema: { type: "object", properties: { commands: { type: "string" } } },
    };
    const cases: Array<[unknown[], string]> = [
      [[badBash], "when.any path does not resolve to a string in bash schema"],
      [[{ ...writeTool, conditionSources: undefined }], "when.source effects is unavailable in write_file"],
      [[{ ...writeTool, effectsSchema: undefined }], "when.source effects has no schema in write_file"],
    ];
    for (const [tools, message] of cases) {
      let thrown: unknown;
      try {
        d.bindToolView(tools as never);
      } catch (error) {
        thrown = error;
      }
      expect(isContractError(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: "predicate_unbound", message });
      expect(d.view.map((t) => t.name)).toEqual(["bash"]);
    }
    d.bindToolView([writeTool, { name: "other", inputSchema: { type: "object" } }]);
    expect(d.view.map((t) => t.name)).toEqual(["write_file", "other"]);
  });

  it("refuses a view at construction", () => {
    expect(() =>
      createHookDispatcher(hooks(), { tools: [{ ...writeTool, conditionSources: ["arguments"] }] }),
    ).toThrow("when.source effects is unavailable in write_file");
  });
});

describe("createHookDispatcher: abort, hurry and deadlines", () => {
  it("blocks a gate with `hook aborted` and skips the rest of a notification, without receipts", async () => {
    const fake = fakeRunner();
    const controller = new AbortController();
    controller.abort();
    const hooks = [hook("agent/a", [{ name: "PreToolUse" }, { name: "PostToolUse" }])];
    const d = createHookDispatcher(hooks, { runner: fake.runner });
    expect(await d.run("PreToolUse", bash(["ls"]), { signal: controller.signal })).toEqual({
      blocked: "error",
      reason: "hook aborted",
      receipts: [],
    });
    expect(await d.run("PostToolUse", postPayload("/"), { signal: controller.signal })).toEqual({
      receipts: [],
    });
    expect(fake.calls).toEqual([]);
  });

  it("stops without receipts once the deadline passed, and gives each hook the remaining time", async () => {
    const fake = fakeRunner();
    const d = createHookDispatcher([hook("agent/a", [{ name: "Stop" }])], { runner: fake.runner });
    const stop = buildHookPayload("Stop", { cwd: "/", run: { status: "cancelled", steps: 0 } });
    expect(await d.run("Stop", stop, { deadline: Date.now() - 1 })).toEqual({ receipts: [] });
    expect(fake.calls).toEqual([]);
    await d.run("Stop", stop, { deadline: Date.now() + 5000 });
    const timeout = fake.calls[0]?.options.timeoutMs as number;
    expect(timeout).toBeGreaterThanOrEqual(1);
    expect(timeout).toBeLessThanOrEqual(5000);
  });

  it("shares the hurry deadline with the remaining hooks", async () => {
    const fake = fakeRunner();
    const hurry = new AbortController();
    hurry.abort();
    const hooks = [hook("agent/a", [{ name: "PostToolUse" }]), hook("agent/b", [{ name: "PostToolUse" }])];
    await createHookDispatcher(hooks, { runner: fake.runner }).run("PostToolUse", postPayload("/"), {
      hurry: { signal: hurry.signal, graceMs: 2000 },
    });
    expect(fake.calls.map((c) => (c.options.timeoutMs as number) <= 2000)).toEqual([true, true]);
  });
});

describe("createHookDispatcher: ports and real processes", () => {
  it("implements PreToolUseGate and ToolNotification", async () => {
    const fake = fakeRunner({ "agent/a": deny("agent/a", "blocked by policy") });
    const payloads: unknown[] = [];
    const runner: HookRunner = (h, payload, options) => {
      payloads.push(payload);
      return fake.runner(h, payload, options);
    };
    let turn = 0;
    const d = createHookDispatcher(
      [hook("agent/a", [{ name: "PreToolUse", when: RM }, { name: "PostToolUseFailure" }])],
      {
        runner,
        envelope: () => ({ cwd: "/repo", agent_id: "coder", turn_id: `op-${++turn}` }),
      },
    );
    const request = {
      identity: "builtin/bash",
      name: "bash",
      arguments: { commands: [{ command: "rm x" }] },
      toolCallId: "c1",
    };
    expect(await d.preToolUse(request)).toEqual({ blocked: "denied", reason: "blocked by policy" });
    expect(await d.preToolUse({ ...request, arguments: { commands: [] } })).toEqual({});
    const result = { isError: true, code: "tool_error", content: [{ type: "text", text: "bash failed: x" }] };
    expect(await d.notify("PostToolUseFailure", { ...request, result })).toBeUndefined();
    expect(await d.notify("PostToolUse", { ...request, result })).toBeUndefined();
    expect(payloads).toEqual([
      {
        protocol_version: 2,
        event: "PreToolUse",
        cwd: "/repo",
        agent_id: "coder",
        turn_id: "op-1",
        tool: {
          identity: "builtin/bash",
          name: "bash",
          source: "model",
          tool_call_id: "c1",
          arguments: request.arguments,
        },
      },
      {
        protocol_version: 2,
        event: "PostToolUseFailure",
        cwd: "/repo",
        agent_id: "coder",
        turn_id: "op-3",
        tool: {
          identity: "builtin/bash",
          name: "bash",
          source: "model",
          tool_call_id: "c1",
          arguments: request.arguments,
          result,
        },
      },
    ]);
  });

  it("stops a gate at the first real denial: later hooks never spawn", async () => {
    const dir = await tempFolder();
    const marker = join(dir, "ran");
    const hooks = [
      hook("agent/ok", [{ name: "PreToolUse" }], 'cat >/dev/null; echo \'{"message":"fine"}\''),
      hook(
        "agent/deny",
        [{ name: "PreToolUse", match: "builtin/*" }],
        'cat >/dev/null; echo \'{"decision":"continue"}\'; exit 2',
      ),
      hook("agent/late", [{ name: "PreToolUse" }], `touch ${marker}`),
    ];
    const result = await createHookDispatcher(hooks).run("PreToolUse", bash(["ls"]));
    expect(result.blocked).toBe("denied");
    expect(result.reason).toBe("hook agent/deny denied");
    expect(result.receipts.map((r) => [r.id, r.outcome, r.message])).toEqual([
      ["agent/ok", "continued", "fine"],
      ["agent/deny", "denied", undefined],
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it("runs every real notification hook even after an error", async () => {
    const dir = await tempFolder();
    const hooks = [
      hook("agent/one", [{ name: "PostToolUse" }], "exit 1"),
      hook("agent/two", [{ name: "PostToolUse" }], `cat > ${join(dir, "two.json")}`),
    ];
    const result = await createHookDispatcher(hooks, { env: { PATH: process.env.PATH ?? "/bin" } }).run(
      "PostToolUse",
      postPayload(dir),
    );
    expect(result.receipts.map((r) => [r.id, r.outcome, r.code])).toEqual([
      ["agent/one", "error", "exit"],
      ["agent/two", "continued", undefined],
    ]);
    expect(existsSync(join(dir, "two.json"))).toBe(true);
  });
});
