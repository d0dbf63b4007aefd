import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolRegistry, ToolRegistryOptions } from "./registry.js";
import type { DispatchContext, HandlerResult, ToolRegistration, ToolResult } from "./types.js";

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
  async function probe(
    options: ToolRegistryOptions = {},
    patch: Partial<ToolRegistration> = {},
  ): Promise<Probe> {
    const log: string[] = [];
    const args: unknown[] = [];
    const effects: unknown[] = [];
    const approvals: unknown[] = [];
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
      registry,
      dispatch: (value: unknown = { paths: ["a"] }, context: Partial<DispatchContext> = {}) =>
        registry.dispatch({ name: "touch", arguments: value, toolCallId: "c1" }, { cwd: "/w", ...context }),
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

    it("runs the steps in order: validation, effects, PreToolUse, approval, handler, PostToolUse", async () => {
      const p = await probe({ rules: [{ match: "local/*", effect: "ask" }] });
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

    it("tool_not_exposed: unknown names and names outside the whitelist", async () => {
      const p = await probe();
      expect(await p.registry.dispatch({ name: "nope", arguments: {} }, { cwd: "/w" })).toEqual(
        errorOf("tool_not_exposed", "tool unavailable: nope"),
      );
      expect(await p.dispatch(undefined, { whitelist: ["other"] })).toEqual(
        errorOf("tool_not_exposed", "tool unavailable: touch"),
      );
      expect(p.log).toEqual([]);
    });

    it("tool_denied: an unconditional deny hides the tool before validation, effects and hooks", async () => {
      const p = await probe({ rules: [{ match: "local/touch", effect: "deny" }] });
      expect(await p.dispatch({ wrong: 1 })).toEqual(errorOf("tool_denied", "tool denied: local/touch"));
      expect(p.log).toEqual([]);
      expect(p.registry.definitions()).toEqual([]);
    });

    it("invalid_arguments: every schema error as a line, then validateArgs on schema-valid input", async () => {
      const p = await probe();
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
        const p = await probe({}, { validateArgs: validateArgs as never });
        expect(await p.dispatch()).toEqual(errorOf("invalid_arguments", message));
      }
      await ticks();
      expect(unhandled).toEqual([]);
    });

    it("aborted: a signal aborted before dispatch stops at step 4; approval is never asked", async () => {
      const p = await probe({ autoApprove: false });
      const controller = new AbortController();
      controller.abort();
      expect(await p.dispatch(undefined, { signal: controller.signal })).toEqual(
        errorOf("aborted", "tool call aborted"),
      );
      expect(p.log).toEqual(["validateArgs"]);
    });

    it("invalid_effects: a descriptor returning a promise, with no unhandled rejection", async () => {
      const p = await probe({}, { describeEffects: () => Promise.reject(new Error("async")) });
      expect(await p.dispatch()).toEqual(
        errorOf("invalid_effects", "effects descriptors must return synchronously"),
      );
      await ticks();
      expect(unhandled).toEqual([]);
      expect(p.log).toEqual(["validateArgs"]);
    });

    it("effects_error: a throwing descriptor", async () => {
      const p = await probe(
        {},
        {
          describeEffects: () => {
            throw new Error("bad");
          },
        },
      );
      expect(await p.dispatch()).toEqual(errorOf("effects_error", "cannot describe touch: bad"));
    });

    it("immutability: one deep-frozen snapshot of arguments and effects for every consumer", async () => {
      const p = await probe({ autoApprove: false });
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
      const p = await probe({
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
        const p = await probe({ preToolUse: gate as never, autoApprove: false });
        expect(await p.dispatch()).toEqual(expected);
        expect(p.log).toEqual(["validateArgs", "describeEffects"]);
      }
    });

    it("PreToolUse: abort is checked before the gate's answer", async () => {
      const controller = new AbortController();
      const p = await probe({
        preToolUse: async () => {
          controller.abort();
          return { blocked: "denied" };
        },
      });
      expect(await p.dispatch(undefined, { signal: controller.signal })).toEqual(
        errorOf("aborted", "tool call aborted"),
      );
    });

    it("approval: required, denied and failed", async () => {
      const none = await probe({ approve: undefined, rules: [{ match: "*", effect: "ask" }] });
      expect(await none.dispatch()).toEqual(errorOf("approval_required", "approval required for touch"));
      const denied = await probe({ approve: async () => false, autoApprove: false });
      expect(await denied.dispatch()).toEqual(errorOf("approval_denied", "approval denied for touch"));
      const failed = await probe({ approve: () => Promise.reject(new Error("gone")), autoApprove: false });
      expect(await failed.dispatch()).toEqual(errorOf("approval_error", "approval failed: gone"));
      expect(denied.log).not.toContain("handler");
    });

    it("approval: the request carries identity, name, frozen arguments and effects, toolCallId, signal", async () => {
      const p = await probe({ autoApprove: false });
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
      const p = await probe({
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
    });

    it("approval: approvalTimeoutMs gives approval_expired and a late yes is ignored", async () => {
      let yes: (value: boolean) => void = () => {};
      const p = await probe({
        autoApprove: false,
        approvalTimeoutMs: 5,
        approve: () =>
          new Promise<boolean>((resolve) => {
            yes = resolve;
          }),
      });
      expect(await p.dispatch()).toEqual(errorOf("approval_expired", "approval expired for touch"));
      yes(true);
      await ticks();
      expect(p.log).not.toContain("handler");
    });

    it("handler: tool_error for a throw and for an invalid result, with PostToolUseFailure", async () => {
      const throwing = await probe(
        {},
        {
          handler: () => {
            throw new Error("disk");
          },
        },
      );
      expect(await throwing.dispatch()).toEqual(errorOf("tool_error", "touch failed: disk"));
      expect(throwing.log.at(-1)).toBe("PostToolUseFailure");
      const invalid = await probe({}, { handler: () => ({ ok: true }) as never });
      expect(await invalid.dispatch()).toEqual(errorOf("tool_error", "touch returned an invalid result"));
    });

    it("panel blocks are removed before hooks and capping and handed to the sink in order", async () => {
      const sunk: unknown[] = [];
      const seen: unknown[] = [];
      const a = { type: "panel" as const, panel: "a", op: "close" };
      const b = { type: "panel" as const, panel: "b", op: "close" };
      const p = await probe(
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
        const p = await probe({}, { handler: () => ({ isError: false, content }) as never });
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
      const p = await probe();
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
