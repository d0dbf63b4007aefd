import { describe, expect, it } from "vitest";
import {
  createToolRegistry,
  DISPATCH_CODES,
  DISPATCH_STEPS,
  type DispatchContext,
  type DispatchStepEvent,
  type ToolRegistryOptions,
  type ToolResult,
} from "../src/index.js";
import { CONTRACT_CODES } from "./adversarial/contract-codes.js";

const EFFECTS_SCHEMA = {
  type: "object",
  required: ["files"],
  properties: { files: { type: "array", items: { type: "string" } } },
};

/** A registry with one tool `touch` (identity `local/touch`, a descriptor); records every step event. */
function setup(options: ToolRegistryOptions = {}, describe?: (args: { paths: string[] }) => unknown) {
  const registry = createToolRegistry(options);
  registry.register({
    name: "touch",
    identity: "local/touch",
    description: "Creates files.",
    inputSchema: {
      type: "object",
      required: ["paths"],
      properties: { paths: { type: "array", items: { type: "string" } } },
    },
    effectsSchema: EFFECTS_SCHEMA,
    conditionSources: ["arguments", "effects"],
    describeEffects: describe ?? ((args: { paths: string[] }) => ({ files: args.paths })),
    handler: (args: { paths: string[] }) => ({
      isError: false,
      content: [
        { type: "text", text: args.paths.join(",") },
        { type: "panel", panel: "p", op: "replace" },
      ],
    }),
  });
  return registry;
}

async function trace(
  options: ToolRegistryOptions,
  args: unknown,
  context: Partial<DispatchContext> = {},
  name = "touch",
): Promise<{ result: ToolResult; events: DispatchStepEvent[] }> {
  const events: DispatchStepEvent[] = [];
  const result = await setup(options).dispatch(
    { name, arguments: args },
    { cwd: "/w", onStep: (event) => events.push(event), ...context },
  );
  return { result, events };
}

const brief = (events: DispatchStepEvent[]) => events.map((e) => `${e.number} ${e.step} ${e.status}`);

describe("DISPATCH_STEPS and DISPATCH_CODES (tool-api.md §7.2, §7.3)", () => {
  it("lists the fourteen steps in order", () => {
    expect(DISPATCH_STEPS.map((s) => s.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(DISPATCH_STEPS[8]).toEqual({ number: 9, name: "pre_tool_use" });
  });

  it("lists every contract code of a dispatch result, each with the steps of the spec's table", () => {
    expect(new Set(Object.keys(DISPATCH_CODES))).toEqual(CONTRACT_CODES);
    expect(DISPATCH_CODES.aborted.steps).toEqual([4, 8, 9, 10, 11]);
    expect(DISPATCH_CODES.invalid_arguments.steps).toEqual([3, 5]);
    expect(DISPATCH_CODES.tool_denied).toEqual({ steps: [2], message: "tool denied: <identity>" });
    expect(Object.isFrozen(DISPATCH_CODES)).toBe(true);
  });
});

describe("DispatchContext.onStep", () => {
  it("reports every step of a successful call, in order, as it happens", async () => {
    const sunk: unknown[] = [];
    const { result, events } = await trace(
      { panelSink: (blocks) => sunk.push(...blocks), notify: async () => {}, preToolUse: async () => ({}) },
      { paths: ["a"] },
    );
    expect(result.isError).toBe(false);
    expect(brief(events)).toEqual([
      "1 exposure ok",
      "2 visibility ok",
      "3 validation ok",
      "4 abort_check ok",
      "5 snapshot ok",
      "6 effects ok",
      "7 policy ok",
      "8 abort_check ok",
      "9 pre_tool_use ok",
      "10 approval skipped",
      "11 handler started",
      "11 handler ok",
      "12 settle ok",
      "13 notify ok",
      "14 cap ok",
    ]);
    expect(events[0]).toMatchObject({ identity: "local/touch" });
    expect(events[5]?.effects).toBe(result.effects);
    expect(events[6]).toMatchObject({ decision: "allow", ruleIndex: null, hidden: false });
    expect(events[10]).toMatchObject({ maxOutputBytes: 65536 });
    expect(typeof events[11]?.durationMs).toBe("number");
    expect(events[12]).toMatchObject({ panelBlocks: 1 });
    expect(events[13]).toMatchObject({ notification: "PostToolUse" });
    expect(events.every(Object.isFrozen)).toBe(true);
  });

  it("names the deciding rule of visibility and of conditional policy (§9.5)", async () => {
    const rules = [
      { match: "*", effect: "allow" as const },
      {
        match: "local/*",
        effect: "ask" as const,
        when: { source: "arguments" as const, any: "paths[*]", regex: "^x" },
      },
    ];
    const asked = await trace({ rules, approve: () => true }, { paths: ["xy"] });
    const policy = asked.events.find((e) => e.step === "policy");
    expect(policy).toMatchObject({ decision: "ask", ruleIndex: 1, hidden: false });
    expect(asked.events.find((e) => e.step === "approval")?.status).toBe("ok");

    const allowed = await trace({ rules }, { paths: ["ab"] });
    expect(allowed.events.find((e) => e.step === "policy")).toMatchObject({
      decision: "allow",
      ruleIndex: 0,
    });

    const hidden = await trace({ rules: [...rules, { match: "local/touch", effect: "deny" as const }] }, {});
    expect(brief(hidden.events)).toEqual(["1 exposure ok", "2 visibility failed"]);
    expect(hidden.events[1]).toMatchObject({
      code: "tool_denied",
      message: "tool denied: local/touch",
      decision: "deny",
      ruleIndex: 2,
      hidden: true,
    });
  });

  it.each([
    ["an unknown tool", {}, { paths: [] }, {}, "nope", "1 exposure failed", "tool_not_exposed"],
    ["invalid arguments", {}, { paths: 3 }, {}, "touch", "3 validation failed", "invalid_arguments"],
    [
      "arguments without a snapshot",
      {},
      { paths: [], f: () => 1 },
      {},
      "touch",
      "5 snapshot failed",
      "invalid_arguments",
    ],
    [
      "a call aborted before it starts",
      {},
      { paths: [] },
      { signal: AbortSignal.abort() },
      "touch",
      "4 abort_check failed",
      "aborted",
    ],
    [
      "a gate that denies",
      { preToolUse: async () => ({ blocked: "denied" as const, reason: "no" }) },
      { paths: [] },
      {},
      "touch",
      "9 pre_tool_use failed",
      "hook_denied",
    ],
    [
      "a gate that throws",
      {
        preToolUse: async () => {
          throw new Error("down");
        },
      },
      { paths: [] },
      {},
      "touch",
      "9 pre_tool_use failed",
      "hook_error",
    ],
    [
      "approval without a callback",
      { autoApprove: false },
      { paths: [] },
      {},
      "touch",
      "10 approval failed",
      "approval_required",
    ],
    [
      "approval denied",
      { autoApprove: false, approve: () => false },
      { paths: [] },
      {},
      "touch",
      "10 approval failed",
      "approval_denied",
    ],
  ] as const)(
    "ends the trace at the step that stopped %s, with its code",
    async (_label, options, args, context, name, last, code) => {
      const { result, events } = await trace(
        options as ToolRegistryOptions,
        args,
        context as Partial<DispatchContext>,
        name,
      );
      expect(result.code).toBe(code);
      expect(brief(events).at(-1)).toBe(last);
      const stopped = events.at(-1) as DispatchStepEvent;
      expect(stopped.code).toBe(code);
      expect(DISPATCH_CODES[code].steps).toContain(stopped.number);
      expect(stopped.message).toBe((result.content[0] as { text: string }).text);
    },
  );

  it("never reads the arguments of a hidden tool (the snapshot is taken after visibility)", async () => {
    let reads = 0;
    const args = {
      get paths() {
        reads++;
        return ["a"];
      },
    };
    const { result } = await trace({ rules: [{ match: "local/touch", effect: "deny" }] }, args);
    expect(result.code).toBe("tool_denied");
    expect(reads).toBe(0);
  });

  it("reports a gate's block and reason", async () => {
    const { events } = await trace(
      { preToolUse: async () => ({ blocked: "denied", reason: "policy says no" }) },
      { paths: [] },
    );
    expect(events.at(-1)).toMatchObject({
      step: "pre_tool_use",
      blocked: "denied",
      reason: "policy says no",
    });
  });

  it("reports effects failures at step 6 and a handler failure at step 11, then the rest of the pipeline", async () => {
    const events: DispatchStepEvent[] = [];
    const registry = setup({}, () => ({ files: [1] }));
    const bad = await registry.dispatch(
      { name: "touch", arguments: { paths: [] } },
      { cwd: "/w", onStep: (e) => events.push(e) },
    );
    expect(bad.code).toBe("invalid_effects");
    expect(brief(events).at(-1)).toBe("6 effects failed");

    const registry2 = createToolRegistry();
    registry2.register({
      name: "boom",
      description: "Throws.",
      inputSchema: { type: "object" },
      handler: () => {
        throw new Error("kaput");
      },
    });
    const seen: DispatchStepEvent[] = [];
    const result = await registry2.dispatch(
      { name: "boom", arguments: {} },
      { cwd: "/", onStep: (e) => seen.push(e) },
    );
    expect(result.code).toBe("tool_error");
    expect(brief(seen).slice(-5)).toEqual([
      "11 handler started",
      "11 handler failed",
      "12 settle ok",
      "13 notify skipped",
      "14 cap ok",
    ]);
    expect(seen.at(-4)).toMatchObject({ code: "tool_error", message: "boom failed: kaput" });
    expect(seen.at(-1)).toMatchObject({ code: "tool_error", truncated: false });
  });

  it("an observer that throws changes nothing", async () => {
    const registry = setup();
    const plain = await registry.dispatch({ name: "touch", arguments: { paths: ["a"] } }, { cwd: "/w" });
    const observed = await registry.dispatch(
      { name: "touch", arguments: { paths: ["a"] } },
      {
        cwd: "/w",
        onStep: () => {
          throw new Error("observer");
        },
      },
    );
    expect(observed).toEqual(plain);
  });
});
