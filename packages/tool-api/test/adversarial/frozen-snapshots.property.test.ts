/**
 * Issue 8 — property: the arguments and effects handed to the PreToolUse gate, approval, the handler and the post
 * notification are one deep-frozen snapshot each, and the caller's object is unchanged (tool-api.md §7.4), for
 * arbitrary JSON arguments including prototype-named keys.
 */

import { expectNoPollution, isDeepFrozen } from "@raw/test-support";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/index.js";

const SEED = 20_261_208;
const RUNS = 1000;

const KEYS = ["__proto__", "constructor", "prototype", "toString", "path", "files", "a"];

/** JSON objects as a host receives them (built by JSON.parse, so `__proto__` is an ordinary own key). */
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(tie("value"), { maxLength: 4 }),
    tie("object"),
  ),
  object: fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string()), tie("value")), { maxLength: 5 })
    .map((entries) =>
      JSON.parse(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`),
    ),
})).object as fc.Arbitrary<Record<string, unknown>>;

describe("property: frozen snapshots stay frozen", () => {
  it("gate, approval, handler and notification share one deep-frozen snapshot; the caller's object is untouched", async () => {
    const seen: { args: unknown[]; effects: unknown[] } = { args: [], effects: [] };
    const writes: string[] = [];
    const registry = createToolRegistry({
      autoApprove: false,
      preToolUse: async (request) => {
        seen.args.push(request.arguments);
        seen.effects.push(request.effects);
        return {};
      },
      approve: (request) => {
        seen.args.push(request.arguments);
        seen.effects.push(request.effects);
        return true;
      },
      notify: async (_event, request) => {
        seen.args.push(request.arguments);
        seen.effects.push(request.effects);
      },
    });
    registry.register({
      name: "echo",
      description: "Echoes its arguments as effects.",
      inputSchema: { type: "object" },
      effectsSchema: { type: "object" },
      describeEffects: (args: unknown) => ({ echo: args }),
      handler: (args, context) => {
        seen.args.push(args);
        seen.effects.push(context.effects);
        // Writing to a snapshot throws in strict mode (ES modules are strict) and changes nothing.
        try {
          (args as Record<string, unknown>).injected = 1;
          writes.push("arguments");
        } catch {}
        try {
          (context.effects as Record<string, unknown>).injected = 1;
          writes.push("effects");
        } catch {}
        return { isError: false, content: [] };
      },
    });

    await fc.assert(
      fc.asyncProperty(hostileJson, async (input) => {
        seen.args.length = 0;
        seen.effects.length = 0;
        const before = JSON.stringify(input);
        const result = await registry.dispatch({ name: "echo", arguments: input }, { cwd: "/repo" });
        expect(result.isError).toBe(false);
        // The caller's object: unchanged, never frozen, its prototype intact.
        expect(JSON.stringify(input)).toBe(before);
        expect(Object.isFrozen(input)).toBe(false);
        expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
        // Gate, approval, handler and notification: the same frozen objects.
        expect(seen.args).toHaveLength(4);
        const [args, ...others] = seen.args;
        const [effects, ...otherEffects] = seen.effects;
        for (const other of others) expect(other).toBe(args);
        for (const other of otherEffects) expect(other).toBe(effects);
        expect(isDeepFrozen(args)).toBe(true);
        expect(isDeepFrozen(effects)).toBe(true);
        expect(JSON.stringify(args)).toBe(before);
        expect(JSON.stringify(effects)).toBe(JSON.stringify({ echo: input }));
        expect(result.effects).toBe(effects);
        expect(writes).toEqual([]);
        expectNoPollution("snapshot");
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
