import { isContractError, validateWith } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { buildHookPayload, HOOK_EVENTS, HookPayloadSchema } from "../src/index.js";

const tool = { identity: "builtin/write_file", name: "write_file", arguments: { path: "a.txt" } };
const result = { isError: false, content: [{ type: "text", text: "ok" }] };
const all = { cwd: "/repo", agent_id: "coder", session_id: "s-1", turn_id: "op-7" };

describe("buildHookPayload", () => {
  it("reproduces the PreToolUse example line of hooks.md §7.2", () => {
    const payload = buildHookPayload("PreToolUse", {
      cwd: "/repo/project",
      agent_id: "coder",
      turn_id: "op-7",
      tool: {
        identity: "builtin/write_file",
        name: "write_file",
        source: "model",
        tool_call_id: "call-3",
        arguments: { patch: "*** Begin Patch\n*** Add File: protected.txt\n+x\n*** End Patch" },
        effects: { files: [{ path: "/repo/project/protected.txt", operation: "write" }] },
      },
    });
    expect(JSON.stringify(payload)).toBe(
      '{"protocol_version":2,"event":"PreToolUse","cwd":"/repo/project","agent_id":"coder","turn_id":"op-7",' +
        '"tool":{"identity":"builtin/write_file","name":"write_file","source":"model","tool_call_id":"call-3",' +
        '"arguments":{"patch":"*** Begin Patch\\n*** Add File: protected.txt\\n+x\\n*** End Patch"},' +
        '"effects":{"files":[{"path":"/repo/project/protected.txt","operation":"write"}]}}}',
    );
  });

  const cases: Array<[string, Parameters<typeof buildHookPayload>[1], Record<string, unknown>]> = [
    [
      "SessionStart",
      { ...all },
      {
        protocol_version: 2,
        event: "SessionStart",
        cwd: "/repo",
        agent_id: "coder",
        session_id: "s-1",
        source: "create",
      },
    ],
    [
      "SessionStart",
      { cwd: "/repo", source: "resume" },
      { protocol_version: 2, event: "SessionStart", cwd: "/repo", source: "resume" },
    ],
    [
      "UserPromptSubmit",
      { ...all, input: "hi" },
      {
        protocol_version: 2,
        event: "UserPromptSubmit",
        cwd: "/repo",
        agent_id: "coder",
        session_id: "s-1",
        turn_id: "op-7",
        input: "hi",
      },
    ],
    [
      "UserPromptSubmit",
      { cwd: "/repo", input: [{ type: "text", text: "hi" }] },
      { protocol_version: 2, event: "UserPromptSubmit", cwd: "/repo", input: [{ type: "text", text: "hi" }] },
    ],
    [
      "PreToolUse",
      { cwd: "/repo", tool: { ...tool, result } },
      { protocol_version: 2, event: "PreToolUse", cwd: "/repo", tool: { ...tool, source: "model" } },
    ],
    [
      "PreToolUse",
      { cwd: "/repo", turnId: "op-2", tool: { ...tool, source: "user_action", toolCallId: "c-9" } },
      {
        protocol_version: 2,
        event: "PreToolUse",
        cwd: "/repo",
        turn_id: "op-2",
        tool: { ...tool, source: "user_action", tool_call_id: "c-9" },
      },
    ],
    [
      "PostToolUse",
      { ...all, tool: { ...tool, result } },
      {
        protocol_version: 2,
        event: "PostToolUse",
        cwd: "/repo",
        agent_id: "coder",
        session_id: "s-1",
        turn_id: "op-7",
        tool: { ...tool, source: "model", result },
      },
    ],
    [
      "PostToolUseFailure",
      {
        cwd: "/repo",
        tool: { ...tool, effects: { files: [] }, result: { isError: true, code: "tool_error", content: [] } },
      },
      {
        protocol_version: 2,
        event: "PostToolUseFailure",
        cwd: "/repo",
        tool: {
          ...tool,
          source: "model",
          effects: { files: [] },
          result: { isError: true, code: "tool_error", content: [] },
        },
      },
    ],
    [
      "Stop",
      { ...all, run: { status: "completed", steps: 3, text: "done" } },
      {
        protocol_version: 2,
        event: "Stop",
        cwd: "/repo",
        agent_id: "coder",
        session_id: "s-1",
        turn_id: "op-7",
        run: { status: "completed", steps: 3, text: "done" },
      },
    ],
    [
      "SessionEnd",
      { ...all, input: "dropped", tool },
      { protocol_version: 2, event: "SessionEnd", cwd: "/repo", agent_id: "coder", session_id: "s-1" },
    ],
  ];
  it.each(cases)("%s: builds the envelope and the event's fields only", (event, fields, expected) => {
    const payload = buildHookPayload(event as (typeof HOOK_EVENTS)[number], fields);
    expect(payload).toEqual(expected);
    expect(Object.isFrozen(payload)).toBe(true);
    expect(validateWith(HookPayloadSchema, payload)).toEqual([]);
    expect(validateWith(HookPayloadSchema[event as (typeof HOOK_EVENTS)[number]], payload)).toEqual([]);
  });

  it("keeps the frozen arguments and effects by reference", () => {
    const args = Object.freeze({ command: "ls" });
    const payload = buildHookPayload("PreToolUse", {
      cwd: "/",
      tool: { identity: "a", name: "a", arguments: args },
    });
    expect((payload as { tool: { arguments: unknown } }).tool.arguments).toBe(args);
  });

  const invalid: Array<[string, unknown, string]> = [
    ["Nope", { cwd: "/" }, "invalid hook payload: unknown event Nope"],
    ["SessionEnd", {}, "invalid hook payload: cwd must be a string"],
    ["SessionEnd", { cwd: "/", agent_id: 3 }, "invalid hook payload: agent_id must be a string"],
    ["SessionStart", { cwd: "/", source: "new" }, "invalid hook payload: source must be create or resume"],
    [
      "UserPromptSubmit",
      { cwd: "/" },
      "invalid hook payload: UserPromptSubmit requires input (a string or an array of content blocks)",
    ],
    ["PreToolUse", { cwd: "/" }, "invalid hook payload: PreToolUse requires tool"],
    [
      "PreToolUse",
      { cwd: "/", tool: { name: "a", arguments: {} } },
      "invalid hook payload: tool.identity must be a string",
    ],
    [
      "PreToolUse",
      { cwd: "/", tool: { identity: "a", name: "a", arguments: [] } },
      "invalid hook payload: tool.arguments must be an object",
    ],
    [
      "PreToolUse",
      { cwd: "/", tool: { identity: "a", name: "a", arguments: {}, source: "user" } },
      "invalid hook payload: tool.source must be model or user_action",
    ],
    [
      "PostToolUse",
      { cwd: "/", tool: { identity: "a", name: "a", arguments: {} } },
      "invalid hook payload: PostToolUse requires tool.result",
    ],
    ["Stop", { cwd: "/" }, "invalid hook payload: Stop requires run"],
  ];
  it.each(invalid)("%s with bad fields throws hook_payload_invalid", (event, fields, message) => {
    let thrown: unknown;
    try {
      buildHookPayload(event as "Stop", fields as { cwd: string });
    } catch (error) {
      thrown = error;
    }
    expect(isContractError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: "hook_payload_invalid", message });
  });

  it("exposes one schema per event, hidden from the serialized union", () => {
    for (const event of HOOK_EVENTS) expect(HookPayloadSchema[event].properties.event.const).toBe(event);
    expect(Object.keys(HookPayloadSchema)).not.toContain("PreToolUse");
    expect(
      validateWith(HookPayloadSchema, { protocol_version: 1, event: "SessionEnd", cwd: "/" }).length,
    ).toBeGreaterThan(0);
  });
});
