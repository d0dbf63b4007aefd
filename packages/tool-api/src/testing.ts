import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DISPATCH_CODES, type DispatchCode } from "./dispatch-codes.js";
import type { ToolRegistry, ToolRegistryOptions } from "./registry.js";
import type {
  DispatchContext,
  DispatchStepEvent,
  HandlerResult,
  ToolRegistration,
  ToolResult,
} from "./types.js";

/** Builds the registry under test from the registry options the suite wires (rules, ports, defaults). */
export type RegistryFactory = (options: ToolRegistryOptions) => ToolRegistry | Promise<ToolRegistry>;

const INPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["paths"],
  properties: { paths: { type: "array", items: { type: "string" } } },
};
const EFFECTS_SCHEMA = {
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

const text = (value: string) => ({ type: "text" as const, text: value });
const errorOf = (code: string, message: string) => ({ isError: true, code, content: [text(message)] });

interface Probe {
  readonly log: string[];
  readonly args: unknown[];
  readonly effects: unknown[];
  readonly approvals: unknown[];
  /** The `onStep` events of every dispatch of this probe, in order. */
  readonly steps: DispatchStepEvent[];
  readonly registry: ToolRegistry;
  dispatch(args?: unknown, context?: Partial<DispatchContext>): Promise<ToolResult>;
}

/**
 * Registers the dispatch conformance cases of raw.tool-api/2 (spec `tool-api.md` §7–§8) with vitest: the order of
 * steps, every result code and message, immutability of arguments and effects, approval and abort, panel-block
 * extraction and output capping. `factory` receives the registry options the suite needs (rules, the three ports,
 * approval and output defaults) and returns the host's registry.
 */
export function defineRegistryConformance(name: string, factory: RegistryFactory): void {
  async function makeProbe(
    options: ToolRegistryOptions = {},
    patch: Partial<ToolRegistration> = {},
  ): Promise<Probe> {
    const log: string[] = [];
    const args: unknown[] = [];
    const effects: unknown[] = [];
    const approvals: unknown[] = [];
    const steps: DispatchStepEvent[] = [];
    const registry = await factory({
      preToolUse: async (request) => {
        log.push("PreToolUse");
        args.push(request.arguments);
        effects.push(request.effects);
        return {};
      },
      notify: async (event, request) => {
        log.push(event);
        args.push(request.arguments);
        effects.push(request.effects);
      },
      approve: (request) => {
        log.push("approve");
        approvals.push(request);
        args.push(request.arguments);
        effects.push(request.effects);
        return true;
      },
      ...options,
    });
    registry.register({
      name: "touch",
      identity: "local/touch",
      description: "Creates empty files.",
      inputSchema: INPUT_SCHEMA,
      conditionSources: ["arguments", "effects"],
      effectsSchema: EFFECTS_SCHEMA,
      validateArgs(value: { paths: string[] }) {
        log.push("validateArgs");
        return value.paths.includes("") ? "empty path" : undefined;
      },
      describeEffects(value: { paths: string[] }, { cwd }) {
        log.push("describeEffects");
        args.push(value);
        return { files: value.paths.map((path) => ({ path: `${cwd}/${path}`, operation: "write" })) };
      },
      handler(value, context): HandlerResult {
        log.push("handler");
        args.push(value);
        effects.push(context.effects);
        return { isError: false, content: [text("ok")] };
      },
      ...patch,
    });
    return {
      log,
      args,
      effects,
      approvals,
      steps,
      registry,
      dispatch: (value: unknown = { paths: ["a"] }, context: Partial<DispatchContext> = {}) =>
        registry.dispatch(
          { name: "touch", arguments: value, toolCallId: "c1" },
          { cwd: "/w", onStep: (event) => steps.push(event), ...context },
        ),
    };
  }

  describe(`${name}: raw.tool-api/2 dispatch conformance`, () => {
    let unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    beforeEach(() => {
      unhandled = [];
      process.on("unhandledRejection", onUnhandled);
    });
    afterEach(() => {
      process.off("unhandledRejection", onUnhandled);
    });
    const ticks = () => new Promise((resolve) => setTimeout(resolve, 10));

    /**
     * One case per entry of `DISPATCH_CODES` (tool-api.md §7.3 and §8.2): the call that produces the code, and what
     * else the spec fixes about it. Typed by the table, so a code added to it without a case does not compile.
     */
    const CODE_CASES: Record<
      DispatchCode,
      () => Promise<{ probe: Probe; result: ToolResult; message: string }>
    > = {
      async tool_not_exposed() {
        const probe = await makeProbe();
        expect(await probe.registry.dispatch({ name: "nope", arguments: {} }, { cwd: "/w" })).toEqual(
          errorOf("tool_not_exposed", "tool unavailable: nope"),
        );
        const result = await probe.dispatch(undefined, { whitelist: ["other"] });
        expect(probe.log).toEqual([]);
        return { probe, result, message: "tool unavailable: touch" };
      },
      async tool_denied() {
        const probe = await makeProbe({ rules: [{ match: "local/touch", effect: "deny" }] });
        const result = await probe.dispatch({ wrong: 1 });
        expect(probe.log).toEqual([]);
        expect(probe.registry.definitions()).toEqual([]);
        return { probe, result, message: "tool denied: local/touch" };
      },
      async invalid_arguments() {
        const probe = await makeProbe();
        const result = await probe.dispatch({ paths: [1] });
        expect(probe.log).toEqual([]);
        return { probe, result, message: "/paths/0: must be string" };
      },
      async aborted() {
        const probe = await makeProbe({ autoApprove: false });
        const controller = new AbortController();
        controller.abort();
        const result = await probe.dispatch(undefined, { signal: controller.signal });
        expect(probe.log).toEqual(["validateArgs"]);
        return { probe, result, message: "tool call aborted" };
      },
      async invalid_effects() {
        const probe = await makeProbe({}, { describeEffects: () => Promise.reject(new Error("async")) });
        const result = await probe.dispatch();
        await ticks();
        expect(unhandled).toEqual([]);
        expect(probe.log).toEqual(["validateArgs"]);
        return { probe, result, message: "effects descriptors must return synchronously" };
      },
      async effects_error() {
        const probe = await makeProbe(
          {},
          {
            describeEffects: () => {
              throw new Error("bad");
            },
          },
        );
        return { probe, result: await probe.dispatch(), message: "cannot describe touch: bad" };
      },
      async hook_denied() {
        const probe = await makeProbe({
          preToolUse: async () => ({ blocked: "denied", reason: "protected" }),
          autoApprove: false,
        });
        const result = await probe.dispatch();
        expect(probe.log).toEqual(["validateArgs", "describeEffects"]);
        return { probe, result, message: "protected" };
      },
      async hook_error() {
        const probe = await makeProbe({
          preToolUse: () => Promise.reject(new Error("crash")),
          autoApprove: false,
        });
        const result = await probe.dispatch();
        expect(probe.log).toEqual(["validateArgs", "describeEffects"]);
        return { probe, result, message: "hook error: crash" };
      },
      async approval_required() {
        const probe = await makeProbe({ approve: undefined, rules: [{ match: "*", effect: "ask" }] });
        return { probe, result: await probe.dispatch(), message: "approval required for touch" };
      },
      async approval_error() {
        const probe = await makeProbe({
          approve: () => Promise.reject(new Error("gone")),
          autoApprove: false,
        });
        return { probe, result: await probe.dispatch(), message: "approval failed: gone" };
      },
      async approval_expired() {
        let yes: (value: boolean) => void = () => {};
        const probe = await makeProbe({
          autoApprove: false,
          approvalTimeoutMs: 5,
          approve: () =>
            new Promise<boolean>((resolve) => {
              yes = resolve;
            }),
        });
        const result = await probe.dispatch();
        yes(true);
        await ticks();
        expect(probe.log).not.toContain("handler");
        return { probe, result, message: "approval expired for touch" };
      },
      async approval_denied() {
        const probe = await makeProbe({ approve: async () => false, autoApprove: false });
        const result = await probe.dispatch();
        expect(probe.log).not.toContain("handler");
        return { probe, result, message: "approval denied for touch" };
      },
      async tool_error() {
        const probe = await makeProbe(
          {},
          {
            handler: () => {
              throw new Error("disk");
            },
          },
        );
        const result = await probe.dispatch();
        expect(probe.log.at(-1)).toBe("PostToolUseFailure");
        const invalid = await makeProbe({}, { handler: () => ({ ok: true }) as never });
        expect(await invalid.dispatch()).toEqual(errorOf("tool_error", "touch returned an invalid result"));
        return { probe, result, message: "touch failed: disk" };
      },
      async image_too_large() {
        const huge = "A".repeat(Math.ceil(((16 * 1024 * 1024 + 1) * 4) / 3) + 4);
        const content = [{ type: "image", mimeType: "image/png", data: huge }];
        const probe = await makeProbe({}, { handler: () => ({ isError: false, content }) as never });
        return { probe, result: await probe.dispatch(), message: "tool images exceed 16 MiB" };
      },
      async output_budget_too_small() {
        const rows = [{ index: 0, status: "ok", output: "x".repeat(200) }];
        const content = [{ type: "json", value: { results: rows } }];
        const probe = await makeProbe({}, { handler: () => ({ isError: false, content }) as never });
        const result = await probe.dispatch(undefined, { maxOutputBytes: 64 });
        return { probe, result, message: "batch status exceeds output budget" };
      },
    };

    describe("every result code of DISPATCH_CODES, with the step that produces it", () => {
      it("has one case per code of the table", () => {
        expect(Object.keys(CODE_CASES).sort()).toEqual(Object.keys(DISPATCH_CODES).sort());
      });

      for (const code of Object.keys(DISPATCH_CODES) as DispatchCode[]) {
        const { steps } = DISPATCH_CODES[code];
        it(`${code}: produced at step ${steps.join(", ")} with the spec's message`, async () => {
          const { probe, result, message } = await CODE_CASES[code]();
          expect(result).toEqual(errorOf(code, message));
          // The step that ended the call reports it: a `failed` event with the code, at a step of the table.
          const failed = probe.steps.filter((event) => event.status === "failed");
          expect(failed.map((event) => event.code)).toEqual([code]);
          expect(steps).toContain(failed[0]?.number);
          // Nothing of the pipeline runs after it but the closing steps (settle, notification, capping).
          const after = probe.steps.slice(probe.steps.indexOf(failed[0] as DispatchStepEvent) + 1);
          for (const event of after) expect(["settle", "notify", "cap"]).toContain(event.step);
        });
      }
    });

    it("runs the steps in order: validation, effects, PreToolUse, approval, handler, PostToolUse", async () => {
      const p = await makeProbe({ rules: [{ match: "local/*", effect: "ask" }] });
      expect(await p.dispatch()).toEqual({ isError: false, content: [text("ok")] });
      expect(p.log).toEqual([
        "validateArgs",
        "describeEffects",
        "PreToolUse",
        "approve",
        "handler",
        "PostToolUse",
      ]);
    });

    it("invalid_arguments: every schema error as a line, then validateArgs on schema-valid input", async () => {
      const p = await makeProbe();
      expect(await p.dispatch({ paths: [1, 2] })).toEqual(
        errorOf("invalid_arguments", "/paths/0: must be string\n/paths/1: must be string"),
      );
      expect(await p.dispatch({})).toEqual(
        errorOf("invalid_arguments", "(root): must have required property 'paths'"),
      );
      expect(p.log).toEqual([]);
      expect(await p.dispatch({ paths: [""] })).toEqual(errorOf("invalid_arguments", "empty path"));
      expect(p.log).toEqual(["validateArgs"]);
    });

    it("invalid_arguments: the validateArgs outcomes of §4.2", async () => {
      const cases: Array<[unknown, string]> = [
        [() => "", "arguments rejected by validateArgs"],
        [() => null, "validateArgs returned a non-string result"],
        [() => Promise.reject(new Error("x")), "validateArgs returned a non-string result"],
        [
          () => {
            throw new Error("boom");
          },
          "validateArgs failed: boom",
        ],
      ];
      for (const [validateArgs, message] of cases) {
        const p = await makeProbe({}, { validateArgs: validateArgs as never });
        expect(await p.dispatch()).toEqual(errorOf("invalid_arguments", message));
      }
      await ticks();
      expect(unhandled).toEqual([]);
    });

    it("immutability: one deep-frozen snapshot of arguments and effects for every consumer", async () => {
      const p = await makeProbe({ autoApprove: false });
      const args = { paths: ["a"] };
      await p.dispatch(args);
      expect(Object.isFrozen(args)).toBe(false);
      const frozen = p.args[0];
      expect(frozen).toEqual(args);
      expect(frozen).not.toBe(args);
      expect(Object.isFrozen(frozen)).toBe(true);
      for (const value of p.args) expect(value).toBe(frozen);
      const effects = p.effects[0];
      expect(effects).toEqual({ files: [{ path: "/w/a", operation: "write" }] });
      expect(Object.isFrozen((effects as { files: unknown[] }).files)).toBe(true);
      for (const value of p.effects) expect(value).toBe(effects);
      expect(p.args).toHaveLength(5);
    });

    it("immutability: a hook writing to the frozen effects gets a TypeError and the call succeeds", async () => {
      const errors: unknown[] = [];
      const p = await makeProbe({
        preToolUse: async (request) => {
          try {
            (request.effects as { files: unknown[] }).files.push(1);
          } catch (error) {
            errors.push(error);
          }
          return {};
        },
      });
      expect((await p.dispatch()).isError).toBe(false);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(TypeError);
    });

    it("PreToolUse: denial, error and failure codes; a hook denial means approval is never asked", async () => {
      const cases: Array<[() => unknown, ReturnType<typeof errorOf>]> = [
        [async () => ({ blocked: "denied", reason: "protected" }), errorOf("hook_denied", "protected")],
        [async () => ({ blocked: "denied" }), errorOf("hook_denied", "hook denied")],
        [async () => ({ blocked: "error" }), errorOf("hook_error", "hook error")],
        [() => Promise.reject(new Error("crash")), errorOf("hook_error", "hook error: crash")],
      ];
      for (const [gate, expected] of cases) {
        const p = await makeProbe({ preToolUse: gate as never, autoApprove: false });
        expect(await p.dispatch()).toEqual(expected);
        expect(p.log).toEqual(["validateArgs", "describeEffects"]);
      }
    });

    it("PreToolUse: abort is checked before the gate's answer", async () => {
      const controller = new AbortController();
      const p = await makeProbe({
        preToolUse: async () => {
          controller.abort();
          return { blocked: "denied" };
        },
      });
      expect(await p.dispatch(undefined, { signal: controller.signal })).toEqual(
        errorOf("aborted", "tool call aborted"),
      );
    });

    it("approval: the request carries identity, name, frozen arguments and effects, toolCallId, signal", async () => {
      const p = await makeProbe({ autoApprove: false });
      const controller = new AbortController();
      await p.dispatch(undefined, { signal: controller.signal });
      expect(p.approvals).toEqual([
        {
          identity: "local/touch",
          name: "touch",
          arguments: { paths: ["a"] },
          effects: { files: [{ path: "/w/a", operation: "write" }] },
          toolCallId: "c1",
          signal: controller.signal,
        },
      ]);
    });

    it("approval: a pending approval plus an abort gives aborted and the handler never runs", async () => {
      const controller = new AbortController();
      const p = await makeProbe({
        autoApprove: false,
        approve: () => {
          setTimeout(() => controller.abort(), 5);
          return new Promise<boolean>(() => {});
        },
      });
      expect(await p.dispatch(undefined, { signal: controller.signal })).toEqual(
        errorOf("aborted", "tool call aborted"),
      );
      expect(p.log).not.toContain("handler");
      expect(p.log).not.toContain("PostToolUse");
    });

    it("panel blocks are removed before hooks and capping and handed to the sink in order", async () => {
      const sunk: unknown[] = [];
      const seen: unknown[] = [];
      const a = { type: "panel" as const, panel: "a", op: "close" };
      const b = { type: "panel" as const, panel: "b", op: "close" };
      const p = await makeProbe(
        {
          panelSink: (blocks) => {
            sunk.push(...blocks);
          },
          notify: async (_event, request) => {
            seen.push(request.result);
          },
        },
        { handler: () => ({ isError: false, content: [a, text("abcdef"), b] }) },
      );
      const result = await p.dispatch(undefined, { maxOutputBytes: 3 });
      expect(sunk).toEqual([a, b]);
      expect(seen).toEqual([{ isError: false, content: [text("abcdef")] }]);
      expect(result).toMatchObject({ isError: false, content: [text("abc")], truncated: true });
    });

    it("capping: text at the boundary, JSON preview, image limit, and capped errors", async () => {
      const value = { k: "v" };
      const json = JSON.stringify(value);
      const run = async (content: unknown[], maxOutputBytes: number) => {
        const p = await makeProbe({}, { handler: () => ({ isError: false, content }) as never });
        return p.dispatch(undefined, { maxOutputBytes });
      };
      expect(await run([text("abc")], 3)).toEqual({ isError: false, content: [text("abc")] });
      expect(await run([{ type: "json", value }], json.length - 1)).toMatchObject({
        content: [text(`[JSON preview] ${json}`.slice(0, json.length - 1))],
        truncated: true,
      });
      const huge = "A".repeat(Math.ceil(((16 * 1024 * 1024 + 1) * 4) / 3) + 4);
      expect(await run([{ type: "image", mimeType: "image/png", data: huge }], 100)).toEqual(
        errorOf("image_too_large", "tool images exceed 16 MiB"),
      );
      const p = await makeProbe();
      expect(
        await p.registry.dispatch({ name: "missing", arguments: {} }, { cwd: "/w", maxOutputBytes: 4 }),
      ).toMatchObject({
        code: "tool_not_exposed",
        content: [text("tool")],
        truncated: true,
      });
    });
  });
}
