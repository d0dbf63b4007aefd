/**
 * Issue 8 — arguments and effects through registry dispatch. Every hostile value of the corpus is dispatched to a
 * handful of small tools (an open schema, a strict schema with `validateArgs`, a tool whose descriptor echoes part
 * of its arguments as effects, and the reference `write_file` effects under an effects-sourced `ask` rule). Each
 * result must carry a code of the contract (or be a success), `dispatch` must never reject, nothing may pollute a
 * built-in prototype, whatever a consumer receives must be a deep-frozen value the schema accepts, and the heap
 * must not keep anything once the calls are over.
 */
import {
  describeWriteFileEffects,
  FILES_EFFECTS_SCHEMA,
  validateWriteFileArgs,
  WRITE_FILE_INPUT_SCHEMA,
} from "@raw/effects";
import { compileObjectSchema } from "@raw/schema";
import { expectNoPollution, hostileArguments, isDeepFrozen, MiB, retainedBytes } from "@raw/test-support";
import { describe, expect, it } from "vitest";
import { type AnyToolRegistration, createToolRegistry, type DispatchContext } from "../../src/index.js";
import { expectContractResult } from "./contract-codes.js";

const OPEN_SCHEMA = { type: "object" };
const STRICT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    path: { type: "string", maxLength: 4096, pattern: "^[^\\u0000]*$" },
    paths: { type: "array", maxItems: 1000, items: { type: "string" } },
  },
};
const ECHO_EFFECTS_SCHEMA = {
  type: "object",
  required: ["files"],
  properties: {
    files: {
      type: "array",
      items: {
        type: "object",
        required: ["path"],
        properties: { path: { type: "string" } },
      },
    },
  },
};

interface Seen {
  tool: string;
  args: unknown;
  effects: unknown;
}

function registryWithTools(keep = true) {
  const seen: Seen[] = [];
  const record = (tool: string) => (args: unknown, context: { effects?: unknown }) => {
    if (keep) seen.push({ tool, args, effects: context.effects });
    return { isError: false, content: [{ type: "text" as const, text: "ok" }] };
  };
  const tools: AnyToolRegistration[] = [
    { name: "open", description: "Accepts any object.", inputSchema: OPEN_SCHEMA, handler: record("open") },
    {
      name: "strict",
      identity: "local/strict",
      description: "A path and a bounded list of paths.",
      inputSchema: STRICT_SCHEMA,
      validateArgs: (args: { path?: string }) =>
        typeof args.path === "string" && args.path.includes("..") ? "no climbing" : undefined,
      handler: record("strict"),
    },
    {
      name: "echo_effects",
      identity: "local/echo",
      description: "Describes its arguments as effects.",
      inputSchema: OPEN_SCHEMA,
      conditionSources: ["arguments", "effects"],
      effectsSchema: ECHO_EFFECTS_SCHEMA,
      describeEffects: (args: Record<string, unknown>) => ({
        files: [
          { path: args.path },
          ...(Array.isArray(args.paths) ? args.paths.map((p) => ({ path: p })) : []),
        ],
        raw: args,
      }),
      handler: record("echo_effects"),
    },
    {
      name: "write_file",
      identity: "builtin/write_file",
      description: "The reference write_file effects.",
      inputSchema: WRITE_FILE_INPUT_SCHEMA as Record<string, unknown>,
      conditionSources: ["effects"],
      effectsSchema: FILES_EFFECTS_SCHEMA as Record<string, unknown>,
      validateArgs: validateWriteFileArgs,
      describeEffects: describeWriteFileEffects,
      handler: record("write_file"),
    },
  ];
  const approvals: unknown[] = [];
  const gate: unknown[] = [];
  const registry = createToolRegistry({
    rules: [
      { match: "local/strict", effect: "ask", when: { source: "arguments", any: "path", regex: "secret" } },
      {
        match: "local/echo",
        effect: "ask",
        when: { source: "effects", any: "files[*].path", regex: "(a+)+$" },
      },
      {
        match: "builtin/*",
        effect: "ask",
        when: { source: "effects", any: "files[*].path", regex: "/etc/" },
      },
    ],
    preToolUse: async (request) => {
      if (keep) gate.push(request);
      return {};
    },
    approve: (request) => {
      if (keep) approvals.push(request);
      return true;
    },
  });
  registry.register(tools);
  return { registry, seen, approvals, gate, names: tools.map((t) => t.name) };
}

const validators = {
  open: compileObjectSchema(OPEN_SCHEMA, { name: "open" }),
  strict: compileObjectSchema(STRICT_SCHEMA, { name: "strict" }),
  echo_effects: compileObjectSchema(OPEN_SCHEMA, { name: "echo" }),
  write_file: compileObjectSchema(WRITE_FILE_INPUT_SCHEMA, { name: "write_file" }),
} as const;

const context: DispatchContext = { cwd: "/repo/project" };

describe("adversarial: hostile arguments through registry dispatch", () => {
  const corpus = hostileArguments();
  const { registry, seen, approvals, gate, names } = registryWithTools();
  const tried: string[] = [];

  it.each(corpus.map((c) => [c.name, c] as const))("%s", async (_name, hostile) => {
    for (const name of names) {
      const label = `${hostile.name} → ${name}`;
      seen.length = 0;
      const settled = await registry.dispatch({ name, arguments: hostile.make() }, context).then(
        (result) => ({ ok: true as const, result }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      expect(settled.ok, `${label}: dispatch rejected`).toBe(true);
      if (!settled.ok) continue;
      expectContractResult(settled.result, label);
      expectNoPollution(label);
      for (const entry of seen) {
        // Whatever reached the handler is a deep-frozen snapshot the tool's own schema accepts.
        expect(isDeepFrozen(entry.args), `${label}: arguments frozen`).toBe(true);
        expect(isDeepFrozen(entry.effects), `${label}: effects frozen`).toBe(true);
        expect(validators[entry.tool as keyof typeof validators].test(entry.args), `${label}: valid`).toBe(
          true,
        );
      }
      tried.push(label);
    }
  });

  it("frozen snapshots only ever reached the gate and approval", () => {
    for (const request of [...gate, ...approvals] as Array<{ arguments: unknown; effects?: unknown }>) {
      expect(isDeepFrozen(request.arguments)).toBe(true);
      expect(isDeepFrozen(request.effects)).toBe(true);
    }
    expect(tried.length).toBe(corpus.length * names.length);
  });
});

describe("adversarial: what is validated is what every consumer receives", () => {
  /**
   * An accessor answers the schema's reads with an accepted value and later reads with something else. The
   * snapshot must be the value that was validated, so the handler never sees data the schema did not accept.
   */
  const schema = {
    type: "object",
    additionalProperties: false,
    required: ["mode"],
    properties: { mode: { type: "string", enum: ["safe"] } },
  };
  const validator = compileObjectSchema(schema, { name: "mode" });

  it.each([1, 2, 3, 4, 5, 6, 8])("a getter that turns evil after %i reads", async (honest) => {
    const received: unknown[] = [];
    const registry = createToolRegistry({
      preToolUse: async (request) => {
        received.push(request.arguments);
        return {};
      },
    });
    registry.register({
      name: "mode",
      description: "Takes a safe mode.",
      inputSchema: schema,
      handler: (args) => {
        received.push(args);
        return { isError: false, content: [] };
      },
    });
    let reads = 0;
    const args = Object.defineProperty({}, "mode", {
      enumerable: true,
      get() {
        reads++;
        return reads <= honest ? "safe" : "rm -rf /";
      },
    });
    const result = await registry.dispatch({ name: "mode", arguments: args }, context);
    expectContractResult(result, `honest for ${honest} reads`);
    for (const value of received) {
      expect(validator.test(value)).toBe(true);
      expect(value).toEqual({ mode: "safe" });
    }
    if (!result.isError) expect(received).toHaveLength(2);
  });

  it("the caller's object is never mutated, even with prototype-named keys", async () => {
    const { registry } = registryWithTools();
    const text = '{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}},"path":"a","paths":["b"]}';
    const args = JSON.parse(text);
    for (const name of ["open", "echo_effects"]) {
      const result = await registry.dispatch({ name, arguments: args }, context);
      expect(result.isError).toBe(false);
      expect(JSON.stringify(args)).toBe(text);
      expect(Object.isFrozen(args)).toBe(false);
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    }
    expectNoPollution("caller object");
  });
});

describe("adversarial: approval is never granted by a click, an answer or a hook", () => {
  it.each(["model", "user_action"] as const)(
    "source %s: an ask rule still needs the approval callback",
    async (source) => {
      let handled = 0;
      const registry = createToolRegistry({
        rules: [{ match: "local/guarded", effect: "ask" }],
        autoApprove: true,
        preToolUse: async () => ({ blocked: undefined, reason: "continue", approved: true }) as never,
      });
      registry.register({
        name: "guarded",
        identity: "local/guarded",
        description: "Needs approval.",
        inputSchema: { type: "object" },
        handler: () => {
          handled++;
          return { isError: false, content: [] };
        },
      });
      const args = {
        approved: true,
        decision: "continue",
        answers: { approve: "yes" },
        __proto__: { approve: true },
      };
      const call = { name: "guarded", arguments: args, source, toolCallId: "c" };
      expect(await registry.dispatch(call, context)).toEqual({
        isError: true,
        code: "approval_required",
        content: [{ type: "text", text: "approval required for guarded" }],
      });
      const interactions = {
        request: async () => ({ status: "answered" as const, answers: { approve: "yes" } }),
      };
      expect((await registry.dispatch(call, { ...context, interactions })).code).toBe("approval_required");
      expect((await registry.dispatch(call, { ...context, approve: () => 0 })).code).toBe("approval_denied");
      expect((await registry.dispatch(call, { ...context, approve: () => Promise.resolve("") })).code).toBe(
        "approval_denied",
      );
      expect(handled).toBe(0);
    },
  );
});

describe("adversarial: every schema error of a huge failing value, capped", () => {
  it("200,000 failing items behind a recursive $ref: invalid_arguments, every line counted, 64 KiB kept", async () => {
    const registry = createToolRegistry();
    registry.register({
      name: "tree",
      description: "Takes a tree of nodes.",
      inputSchema: {
        type: "object",
        $defs: {
          node: {
            type: "object",
            properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } },
          },
        },
        properties: { roots: { type: "array", items: { $ref: "#/$defs/node" } } },
      },
      handler: () => ({ isError: false, content: [] }),
    });
    const result = await registry.dispatch(
      { name: "tree", arguments: { roots: new Array(200_000).fill("x") } },
      context,
    );
    expect(result.code).toBe("invalid_arguments");
    expect(result.truncated).toBe(true);
    expect(result.retainedBytes).toBeLessThanOrEqual(65_536);
    expect(result.observedBytes).toBe(
      Buffer.byteLength(Array.from({ length: 200_000 }, (_, i) => `/roots/${i}: must be object`).join("\n")),
    );
    const text = (result.content[0] as { text: string }).text;
    expect(text.startsWith("/roots/0: must be object\n/roots/1: must be object")).toBe(true);
  });
});

describe("adversarial: memory stays bounded", () => {
  it("repeated hostile dispatches retain nothing", async () => {
    const { registry, names } = registryWithTools(false);
    const corpus = hostileArguments();
    // One warm-up round: compiled validators, caches and the JIT settle first.
    for (const hostile of corpus) {
      for (const name of names) await registry.dispatch({ name, arguments: hostile.make() }, context);
    }
    const before = retainedBytes();
    for (const hostile of corpus) {
      for (const name of names) await registry.dispatch({ name, arguments: hostile.make() }, context);
    }
    const grown = retainedBytes() - before;
    expect(grown).toBeLessThan(16 * MiB);
    // A memory bound, not a speed target: two passes over the corpus may take 20 s and more on a loaded machine.
  }, 120_000);
});
