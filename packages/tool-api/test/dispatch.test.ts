// What the spec fixes about dispatch (every code of DISPATCH_CODES, the order of steps, immutability, approval and
// abort) is the exported conformance suite, run against this registry by test/conformance.test.ts. This file keeps
// what is specific to this implementation: per-call overrides, observers, host-only fields, limits and edge cases.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createToolRegistry,
  type DispatchContext,
  type HandlerResult,
  type ToolHandlerContext,
  type ToolRegistration,
  type ToolRegistryOptions,
  type ToolResult,
} from "../src/index.js";

const inputSchema = {
  type: "object",
  additionalProperties: false,
  required: ["paths"],
  properties: { paths: { type: "array", items: { type: "string" } }, note: { type: "string" } },
};
const effectsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["files"],
  properties: {
    files: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "operation"],
        properties: { path: { type: "string" }, operation: { type: "string", enum: ["write"] } },
      },
    },
  },
};

const text = (t: string) => ({ type: "text" as const, text: t });
const okResult = (t = "done"): HandlerResult => ({ isError: false, content: [text(t)] });
const err = (code: string, message: string) => ({ isError: true, code, content: [text(message)] });

interface Harness {
  log: string[];
  seen: Record<string, unknown[]>;
  registry: ReturnType<typeof createToolRegistry>;
}

/** A touch tool with effects, and spies on every port, recording the order of steps. */
function harness(
  options: ToolRegistryOptions = {},
  patch: Partial<ToolRegistration<{ paths: string[] }>> = {},
  wire: { gate?: boolean; notify?: boolean } = { gate: true, notify: true },
): Harness {
  const log: string[] = [];
  const seen: Record<string, unknown[]> = { args: [], effects: [] };
  const registration: ToolRegistration<{ paths: string[] }> = {
    name: "touch",
    identity: "local/touch",
    description: "Creates files.",
    inputSchema,
    conditionSources: ["arguments", "effects"],
    effectsSchema,
    validateArgs(args) {
      log.push("validateArgs");
      seen.args?.push(args);
      return undefined;
    },
    describeEffects(args: { paths: string[] }, { cwd }) {
      log.push("describeEffects");
      seen.args?.push(args);
      return { files: args.paths.map((p) => ({ path: `${cwd}/${p}`, operation: "write" })) };
    },
    handler(args, context) {
      log.push("handler");
      seen.args?.push(args);
      seen.effects?.push(context.effects);
      seen.context = [context];
      return okResult();
    },
    ...patch,
  };
  const registry = createToolRegistry({
    ...(wire.gate
      ? {
          preToolUse: async (request) => {
            log.push("preToolUse");
            seen.args?.push(request.arguments);
            seen.effects?.push(request.effects);
            seen.gate = [request];
            return {};
          },
        }
      : {}),
    ...(wire.notify
      ? {
          notify: async (event, request) => {
            log.push(event);
            seen.args?.push(request.arguments);
            seen.effects?.push(request.effects);
            seen.notify = [request];
          },
        }
      : {}),
    ...options,
  });
  registry.register(registration);
  return { log, seen, registry };
}

const call = (args: unknown = { paths: ["a.txt"] }) => ({
  name: "touch",
  arguments: args,
  toolCallId: "call-1",
});
const ctx = (patch: Partial<DispatchContext> = {}): DispatchContext => ({ cwd: "/work//repo/", ...patch });

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});
const settleTicks = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("dispatch: the happy path and the order of steps (tool-api.md §7.2)", () => {
  it("runs validation, effects, gate, handler and notification in order", async () => {
    const approvals: unknown[] = [];
    const h = harness({
      approve: (r) => approvals.push(r) > 0,
      rules: [{ match: "local/*", effect: "ask" }],
    });
    const result = await h.registry.dispatch(call(), ctx());
    expect(result).toEqual({ isError: false, content: [text("done")] });
    expect(h.log).toEqual(["validateArgs", "describeEffects", "preToolUse", "handler", "PostToolUse"]);
    expect(approvals).toHaveLength(1);
    expect(result.effects).toEqual({ files: [{ path: "/work/repo/a.txt", operation: "write" }] });
    expect(Object.keys(result)).not.toContain("effects");
  });

  it("hands the same frozen arguments and effects to every consumer; the caller's object is untouched", async () => {
    const approvals: Array<{ arguments: unknown; effects?: unknown }> = [];
    const h = harness({ autoApprove: false, approve: (r) => approvals.push(r) > 0 });
    const args = { paths: ["a.txt"] };
    await h.registry.dispatch(call(args), ctx());
    expect(Object.isFrozen(args)).toBe(false);
    expect(args).toEqual({ paths: ["a.txt"] });
    // A6: validateArgs receives the frozen snapshot too.
    const rest = h.seen.args as unknown[];
    const frozen = rest[0];
    expect(frozen).not.toBe(args);
    expect(frozen).toEqual(args);
    expect(Object.isFrozen(frozen)).toBe(true);
    expect(Object.isFrozen((frozen as { paths: unknown }).paths)).toBe(true);
    for (const value of rest) expect(value).toBe(frozen);
    expect(approvals[0]?.arguments).toBe(frozen);
    const effects = h.seen.effects?.[0];
    expect(Object.isFrozen(effects)).toBe(true);
    for (const value of h.seen.effects as unknown[]) expect(value).toBe(effects);
    expect(approvals[0]?.effects).toBe(effects);
  });

  it("a hook that writes to the frozen effects gets a TypeError and the call still succeeds", async () => {
    const errors: unknown[] = [];
    const h = harness({
      preToolUse: async (request) => {
        try {
          (request.effects as { files: unknown[] }).files.push({ path: "/x", operation: "write" });
        } catch (error) {
          errors.push(error);
        }
        try {
          (request.arguments as { paths: string[] }).paths[0] = "evil";
        } catch (error) {
          errors.push(error);
        }
        return {};
      },
    });
    const result = await h.registry.dispatch(call(), ctx());
    expect(result.isError).toBe(false);
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toBeInstanceOf(TypeError);
    expect(h.seen.args?.at(-1)).toEqual({ paths: ["a.txt"] });
  });

  it("gives the handler exactly the context of §4.4", async () => {
    const controller = new AbortController();
    const panels = { protocol: 2 as const, update: async () => ({ revision: 1 }), get: () => undefined };
    const h = harness({ approve: () => true, maxOutputBytes: 100 }, { outputLimit: 500 });
    await h.registry.dispatch(call(), ctx({ signal: controller.signal, panels, autoApprove: false }));
    const context = h.seen.context?.[0] as ToolHandlerContext;
    expect(Object.keys(context).sort()).toEqual([
      "cwd",
      "effects",
      "maxOutputBytes",
      "panels",
      "signal",
      "toolCallId",
    ]);
    expect(context.cwd).toBe("/work/repo");
    expect(context.maxOutputBytes).toBe(500);
    expect(context.signal).toBe(controller.signal);
    expect(context.toolCallId).toBe("call-1");
    expect(context.panels).toBe(panels);
  });
});

describe("dispatch steps 1–2: exposure and visibility", () => {
  it("tool_not_exposed for unknown names and names outside the whitelist", async () => {
    const h = harness();
    expect(await h.registry.dispatch({ name: "nope", arguments: {} }, ctx())).toEqual(
      err("tool_not_exposed", "tool unavailable: nope"),
    );
    expect(await h.registry.dispatch(call(), ctx({ whitelist: ["other"] }))).toEqual(
      err("tool_not_exposed", "tool unavailable: touch"),
    );
    expect((await h.registry.dispatch(call(), ctx({ whitelist: new Set(["touch"]) }))).isError).toBe(false);
    expect(h.log.filter((s) => s === "handler")).toHaveLength(1);
  });

  it("a later conditional ask does not un-hide; a later unconditional allow does", async () => {
    const when = { source: "arguments", any: "note", regex: "." } as const;
    const hidden = harness({
      rules: [
        { match: "*", effect: "deny" },
        { match: "*", effect: "ask", when },
      ],
    });
    expect((await hidden.registry.dispatch(call(), ctx())).code).toBe("tool_denied");
    const shown = harness({
      rules: [
        { match: "*", effect: "deny" },
        { match: "local/*", effect: "allow" },
      ],
    });
    expect((await shown.registry.dispatch(call(), ctx())).isError).toBe(false);
  });

  it("matches rules against the identity, never the model-facing name", async () => {
    const h = harness({ rules: [{ match: "touch", effect: "deny" }] });
    expect((await h.registry.dispatch(call(), ctx())).isError).toBe(false);
  });
});

describe("dispatch step 3: input validation (§3.5, §4.2)", () => {
  it("reports every schema error as <pointer or (root)>: <message> lines, before validateArgs", async () => {
    const h = harness();
    expect(await h.registry.dispatch(call({ paths: [1, "b", 2], extra: 1 }), ctx())).toEqual(
      err(
        "invalid_arguments",
        "(root): must NOT have additional properties\n/paths/0: must be string\n/paths/2: must be string",
      ),
    );
    expect(await h.registry.dispatch(call({}), ctx())).toEqual(
      err("invalid_arguments", "(root): must have required property 'paths'"),
    );
    expect(await h.registry.dispatch({ name: "touch", arguments: undefined }, ctx())).toEqual(
      err("invalid_arguments", "(root): must be object"),
    );
    expect(h.log).toEqual([]);
  });

  const outcomes: Array<[string, () => unknown, string | undefined]> = [
    ["undefined is valid", () => undefined, undefined],
    ["a string rejects", () => "paths must not be empty", "paths must not be empty"],
    ["the empty string rejects", () => "", "arguments rejected by validateArgs"],
    ["null", () => null, "validateArgs returned a non-string result"],
    ["a number", () => 0, "validateArgs returned a non-string result"],
    ["an object", () => ({}), "validateArgs returned a non-string result"],
    [
      "a rejecting promise",
      () => Promise.reject(new Error("late")),
      "validateArgs returned a non-string result",
    ],
    [
      "a throw",
      () => {
        throw new Error("boom");
      },
      "validateArgs failed: boom",
    ],
    [
      "a thrown non-error",
      () => {
        throw 42;
      },
      "validateArgs failed: 42",
    ],
  ];
  it.each(outcomes)("validateArgs: %s", async (_name, outcome, message) => {
    const h = harness({}, { validateArgs: outcome as never });
    const result = await h.registry.dispatch(call(), ctx());
    if (message === undefined) expect(result.isError).toBe(false);
    else expect(result).toEqual(err("invalid_arguments", message));
    await settleTicks();
    expect(unhandled).toEqual([]);
  });

  it("rejects arguments that pass the schema but cannot be cloned", async () => {
    const h = harness({}, { inputSchema: { type: "object" }, validateArgs: undefined });
    const result = await h.registry.dispatch(call({ paths: ["a"], f: () => 1 }), ctx());
    expect(result).toEqual(err("invalid_arguments", "arguments must be plain JSON data"));
    expect(h.log).toEqual([]);
  });
});

describe("dispatch steps 4–8: abort, snapshot, effects, conditional policy", () => {
  it("a throwing descriptor gives effects_error; an invalid result gives invalid_effects", async () => {
    const throwing = harness(
      {},
      {
        describeEffects: () => {
          throw new Error("bad path");
        },
      },
    );
    expect(await throwing.registry.dispatch(call(), ctx())).toEqual(
      err("effects_error", "cannot describe touch: bad path"),
    );
    const invalid = harness({}, { describeEffects: () => ({ files: [{ path: 1 }] }) });
    expect(await invalid.registry.dispatch(call(), ctx())).toEqual(
      err("invalid_effects", "invalid intended effects for touch"),
    );
    expect(throwing.log).toEqual(["validateArgs"]);
  });

  it("calls the descriptor exactly once", async () => {
    let calls = 0;
    const h = harness(
      {},
      {
        describeEffects: () => {
          calls++;
          return { files: [] };
        },
      },
    );
    await h.registry.dispatch(call(), ctx());
    expect(calls).toBe(1);
  });

  it("an abort during effects preparation stops at step 8, before the gate", async () => {
    const controller = new AbortController();
    const h = harness(
      {},
      {
        describeEffects: () => {
          controller.abort();
          return { files: [] };
        },
      },
    );
    const result = await h.registry.dispatch(call(), ctx({ signal: controller.signal }));
    expect(result).toEqual(err("aborted", "tool call aborted"));
    expect(result.effects).toEqual({ files: [] });
    expect(h.log).toEqual(["validateArgs"]);
  });

  it("conditional policy on effects asks; otherwise allow runs without approval", async () => {
    const rules = [
      { match: "local/*", effect: "ask", when: { source: "effects", any: "files[*].path", regex: "secret" } },
    ] as const;
    const asked: string[] = [];
    const h = harness({ rules, approve: (r) => asked.push(r.name) === 0 });
    expect((await h.registry.dispatch(call({ paths: ["a"] }), ctx())).isError).toBe(false);
    expect(asked).toEqual([]);
    expect(await h.registry.dispatch(call({ paths: ["secret"] }), ctx())).toEqual(
      err("approval_denied", "approval denied for touch"),
    );
    expect(asked).toEqual(["touch"]);
  });
});

describe("dispatch step 9: the PreToolUse gate (§7.7)", () => {
  const blocks: Array<[string, unknown, { code: string; message: string }]> = [
    [
      "denied with a reason",
      { blocked: "denied", reason: "no writes" },
      { code: "hook_denied", message: "no writes" },
    ],
    ["denied without a reason", { blocked: "denied" }, { code: "hook_denied", message: "hook denied" }],
    [
      "error with a reason",
      { blocked: "error", reason: "hook h failed: timeout" },
      { code: "hook_error", message: "hook h failed: timeout" },
    ],
    ["error without a reason", { blocked: "error" }, { code: "hook_error", message: "hook error" }],
  ];
  it.each(blocks)("%s", async (_name, answer, { code, message }) => {
    let asked = false;
    const h = harness({
      preToolUse: async () => answer as never,
      approve: () => {
        asked = true;
        return true;
      },
      autoApprove: false,
    });
    expect(await h.registry.dispatch(call(), ctx())).toEqual(err(code, message));
    expect(asked).toBe(false);
    expect(h.log).toEqual(["validateArgs", "describeEffects"]);
  });

  it("a throwing or rejecting gate gives hook error: <message>", async () => {
    const rejecting = harness({ preToolUse: () => Promise.reject(new Error("spawn failed")) });
    expect(await rejecting.registry.dispatch(call(), ctx())).toEqual(
      err("hook_error", "hook error: spawn failed"),
    );
    const throwing = harness({
      preToolUse: () => {
        throw "sync";
      },
    });
    expect(await throwing.registry.dispatch(call(), ctx())).toEqual(err("hook_error", "hook error: sync"));
  });

  it("receives identity, name, source, arguments, effects, toolCallId and signal", async () => {
    const controller = new AbortController();
    const h = harness();
    await h.registry.dispatch({ ...call(), source: "user_action" }, ctx({ signal: controller.signal }));
    expect(h.seen.gate?.[0]).toEqual({
      identity: "local/touch",
      name: "touch",
      source: "user_action",
      arguments: { paths: ["a.txt"] },
      effects: { files: [{ path: "/work/repo/a.txt", operation: "write" }] },
      toolCallId: "call-1",
      signal: controller.signal,
    });
  });
});

describe("dispatch step 10: approval (§7.5)", () => {
  it("approval_required without a callback, for ask or autoApprove false", async () => {
    const ask = harness({ rules: [{ match: "*", effect: "ask" }], autoApprove: true });
    expect(await ask.registry.dispatch(call(), ctx())).toEqual(
      err("approval_required", "approval required for touch"),
    );
    expect(ask.log).toEqual(["validateArgs", "describeEffects", "preToolUse"]);
    const forced = harness();
    expect(await forced.registry.dispatch(call(), ctx({ autoApprove: false }))).toEqual(
      err("approval_required", "approval required for touch"),
    );
  });

  it("autoApprove true never skips an ask", async () => {
    const h = harness({ rules: [{ match: "*", effect: "ask" }], approve: () => false, autoApprove: true });
    expect((await h.registry.dispatch(call(), ctx({ autoApprove: true }))).code).toBe("approval_denied");
  });

  it("sends one request with the frozen snapshots and the call's id and signal", async () => {
    const requests: unknown[] = [];
    const controller = new AbortController();
    const h = harness({ autoApprove: false, approve: (r) => requests.push(r) > 0 });
    await h.registry.dispatch(call(), ctx({ signal: controller.signal }));
    expect(requests).toEqual([
      {
        identity: "local/touch",
        name: "touch",
        arguments: { paths: ["a.txt"] },
        effects: { files: [{ path: "/work/repo/a.txt", operation: "write" }] },
        toolCallId: "call-1",
        signal: controller.signal,
      },
    ]);
    const noEffects = createToolRegistry({ autoApprove: false, approve: (r) => requests.push(r) > 0 });
    noEffects.register({
      name: "t",
      description: "d",
      inputSchema: { type: "object" },
      handler: () => okResult(),
    });
    await noEffects.dispatch({ name: "t", arguments: {} }, { cwd: "/" });
    expect(requests[1]).toEqual({ identity: "t", name: "t", arguments: {} });
  });

  const outcomes: Array<
    [string, ToolRegistryOptions["approve"], { code: string; message: string } | undefined]
  > = [
    ["true", () => true, undefined],
    ["a truthy promise", async () => "yes", undefined],
    ["false", () => false, { code: "approval_denied", message: "approval denied for touch" }],
    ["a falsy promise", async () => 0, { code: "approval_denied", message: "approval denied for touch" }],
    [
      "a throw",
      () => {
        throw new Error("ui gone");
      },
      { code: "approval_error", message: "approval failed: ui gone" },
    ],
    [
      "a rejection",
      () => Promise.reject("closed"),
      { code: "approval_error", message: "approval failed: closed" },
    ],
  ];
  it.each(outcomes)("an approval that settles with %s", async (_name, approve, failure) => {
    const h = harness({ autoApprove: false, approve });
    const result = await h.registry.dispatch(call(), ctx());
    if (failure === undefined) expect(result.isError).toBe(false);
    else expect(result).toEqual(err(failure.code, failure.message));
    expect(h.log.includes("handler")).toBe(failure === undefined);
  });

  it("a per-call approvalTimeoutMs overrides the registry default", async () => {
    const h = harness({
      autoApprove: false,
      approvalTimeoutMs: 60_000,
      approve: () => new Promise(() => {}),
    });
    expect((await h.registry.dispatch(call(), ctx({ approvalTimeoutMs: 1 }))).code).toBe("approval_expired");
  });

  it("an answer that arrives after the signal aborted is aborted", async () => {
    const controller = new AbortController();
    const h = harness({
      autoApprove: false,
      approve: () => {
        controller.abort();
        return true;
      },
    });
    expect((await h.registry.dispatch(call(), ctx({ signal: controller.signal }))).code).toBe("aborted");
    expect(h.log).not.toContain("handler");
  });

  it("a per-call approve overrides the registry's", async () => {
    const h = harness({ autoApprove: false, approve: () => false });
    expect((await h.registry.dispatch(call(), ctx({ approve: () => true }))).isError).toBe(false);
  });
});

describe("dispatch steps 11–13: handler, settle, notification", () => {
  it("checks abort before and after onStart", async () => {
    const controller = new AbortController();
    const started: unknown[] = [];
    const h = harness();
    const result = await h.registry.dispatch(
      call(),
      ctx({
        signal: controller.signal,
        onStart: (info) => {
          started.push(info);
          controller.abort();
        },
      }),
    );
    expect(result).toEqual(err("aborted", "tool call aborted"));
    expect(started).toEqual([
      { identity: "local/touch", name: "touch", source: "model", toolCallId: "call-1" },
    ]);
    expect(h.log).not.toContain("handler");
    expect(h.log).not.toContain("PostToolUseFailure");
  });

  it("observers' exceptions are ignored", async () => {
    const h = harness();
    const result = await h.registry.dispatch(
      call(),
      ctx({
        onStart: () => {
          throw new Error("x");
        },
        onHandlerSettled: () => {
          throw new Error("y");
        },
      }),
    );
    expect(result.isError).toBe(false);
  });

  it("a throwing handler gives tool_error and fires PostToolUseFailure with it", async () => {
    const h = harness(
      {},
      {
        handler: async () => {
          throw new Error("disk full");
        },
      },
    );
    expect(await h.registry.dispatch(call(), ctx())).toEqual(err("tool_error", "touch failed: disk full"));
    expect(h.log.at(-1)).toBe("PostToolUseFailure");
    expect((h.seen.notify?.[0] as { result: unknown } | undefined)?.result).toEqual(
      err("tool_error", "touch failed: disk full"),
    );
  });

  it.each([
    ["undefined", undefined],
    ["a string", "ok"],
    ["isError not boolean", { isError: "no", content: [] }],
    ["content not an array", { isError: false, content: "x" }],
    ["an unknown block", { isError: false, content: [{ type: "audio" }] }],
    ["a text block without text", { isError: false, content: [{ type: "text" }] }],
    ["an unserializable json block", { isError: false, content: [{ type: "json", value: 1n }] }],
  ])("a result that is %s gives tool_error", async (_name, value) => {
    const h = harness({}, { handler: () => value as never });
    expect(await h.registry.dispatch(call(), ctx())).toEqual(
      err("tool_error", "touch returned an invalid result"),
    );
    expect(h.log.at(-1)).toBe("PostToolUseFailure");
  });

  it("removes panel blocks before hooks and capping and hands them to the sink in order", async () => {
    const sunk: unknown[] = [];
    const order: string[] = [];
    const p1 = { type: "panel" as const, panel: "todo", op: "close" };
    const p2 = { type: "panel" as const, panel: "log", op: "close" };
    const h = harness(
      {
        panelSink: (blocks, info) => {
          order.push("sink");
          sunk.push(blocks, info);
        },
      },
      { handler: () => ({ isError: false, content: [p1, text("x".repeat(20)), p2] }) },
    );
    const result = await h.registry.dispatch(
      call(),
      ctx({ maxOutputBytes: 5, onHandlerSettled: () => order.push("settled") }),
    );
    expect(order).toEqual(["settled", "sink"]);
    expect(sunk).toEqual([
      [p1, p2],
      { identity: "local/touch", name: "touch", source: "model", toolCallId: "call-1" },
    ]);
    expect(result).toEqual({
      isError: false,
      content: [text("xxxxx")],
      truncated: true,
      retainedBytes: 5,
      observedBytes: 20,
    });
    expect((h.seen.notify?.[0] as { result: unknown } | undefined)?.result).toEqual({
      isError: false,
      content: [text("x".repeat(20))],
    });
  });

  it("a throwing sink and a throwing notification change nothing", async () => {
    const h = harness(
      {
        panelSink: () => {
          throw new Error("sink");
        },
        notify: async () => {
          throw new Error("post");
        },
      },
      {
        handler: () => ({
          isError: false,
          content: [{ type: "panel" as const, panel: "p", op: "close" }, text("ok")],
        }),
      },
    );
    expect(await h.registry.dispatch(call(), ctx())).toEqual({ isError: false, content: [text("ok")] });
  });

  it("a notification cannot change the result", async () => {
    const h = harness({
      notify: async (_event, request) => {
        try {
          (request.result.content as unknown[]).push(text("injected"));
        } catch {
          // frozen
        }
      },
    });
    expect(await h.registry.dispatch(call(), ctx())).toEqual({ isError: false, content: [text("done")] });
  });

  it("stops at approval with PreToolUse fired and no post notification", async () => {
    const h = harness({ autoApprove: false, approve: () => false });
    await h.registry.dispatch(call(), ctx());
    expect(h.log).toEqual(["validateArgs", "describeEffects", "preToolUse"]);
  });

  it("keeps handler fields such as exitCode; a handler's own truncated flag is honoured", async () => {
    const h = harness(
      {},
      {
        handler: () => ({
          isError: true,
          code: "exit_nonzero",
          exitCode: 2,
          truncated: true,
          observedBytes: 999,
          content: [text("oops")],
        }),
      },
    );
    expect(await h.registry.dispatch(call(), ctx())).toEqual({
      isError: true,
      code: "exit_nonzero",
      exitCode: 2,
      content: [text("oops")],
      truncated: true,
      retainedBytes: 4,
      observedBytes: 999,
    });
    expect(h.log.at(-1)).toBe("PostToolUseFailure");
  });

  it("never throws: an invalid cwd becomes a dispatch_error result", async () => {
    const h = harness();
    const result: ToolResult = await h.registry.dispatch(call(), { cwd: "relative" });
    expect(result.code).toBe("dispatch_error");
    expect(result.isError).toBe(true);
  });
});
