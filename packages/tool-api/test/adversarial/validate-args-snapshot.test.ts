/**
 * Issue 11, surface 6 — amendment A6: the schema, `validateArgs`, the descriptor, policy, hooks, approval and the
 * handler all receive one frozen snapshot. An accessor or proxy cannot show `validateArgs` one value and the
 * handler another, and `validateArgs` cannot mutate what later steps see.
 */

import { isDeepFrozen } from "@raw/test-support";
import { describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/index.js";

function recorder() {
  const seen: Record<string, unknown> = {};
  const registry = createToolRegistry({
    preToolUse: (request) => {
      seen.gate = request.arguments;
      return {};
    },
    autoApprove: false,
    approve: (request) => {
      seen.approval = request.arguments;
      return true;
    },
  });
  registry.register({
    name: "rec",
    description: "Records what each step saw.",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    effectsSchema: { type: "object" },
    validateArgs: (args) => {
      seen.validateArgs = args;
      return undefined;
    },
    describeEffects: (args) => {
      seen.describeEffects = args;
      return {};
    },
    handler: (args) => {
      seen.handler = args;
      return { isError: false, content: [] };
    },
  });
  return { registry, seen };
}

describe("A6: validateArgs receives the frozen snapshot", () => {
  it("validateArgs, the descriptor, the gate, approval and the handler see the very same frozen object", async () => {
    const { registry, seen } = recorder();
    const given = { path: "a.txt", nested: { deep: [1, 2] } };
    const result = await registry.dispatch({ name: "rec", arguments: given }, { cwd: "/" });
    expect(result.isError).toBe(false);
    expect(seen.validateArgs).not.toBe(given);
    expect(isDeepFrozen(seen.validateArgs)).toBe(true);
    for (const step of ["describeEffects", "gate", "approval", "handler"]) {
      expect(seen[step], step).toBe(seen.validateArgs);
    }
    expect(Object.isFrozen(given)).toBe(false);
  });

  it("an accessor cannot answer validateArgs and the handler differently", async () => {
    let reads = 0;
    const args = {
      get path() {
        reads++;
        return reads === 1 ? "safe.txt" : "/etc/passwd";
      },
    };
    const registry = createToolRegistry();
    const handled: unknown[] = [];
    registry.register({
      name: "guarded",
      description: "Refuses absolute paths in validateArgs.",
      inputSchema: { type: "object" },
      validateArgs: (a: { path?: unknown }) =>
        typeof a.path === "string" && a.path.startsWith("/") ? "absolute path" : undefined,
      handler: (a: { path?: unknown }) => {
        handled.push(a.path);
        return { isError: false, content: [] };
      },
    });
    const result = await registry.dispatch({ name: "guarded", arguments: args }, { cwd: "/" });
    // One read (the snapshot): validateArgs and the handler both see "safe.txt".
    expect(result.isError).toBe(false);
    expect(handled).toEqual(["safe.txt"]);
    expect(reads).toBe(1);
  });

  it("validateArgs cannot mutate what later steps receive (writing throws, the call is rejected)", async () => {
    const registry = createToolRegistry();
    let handlerRan = false;
    registry.register({
      name: "mutator",
      description: "validateArgs tries to rewrite the arguments.",
      inputSchema: { type: "object" },
      validateArgs: (a: Record<string, unknown>) => {
        a.path = "/etc/shadow";
        return undefined;
      },
      handler: () => {
        handlerRan = true;
        return { isError: false, content: [] };
      },
    });
    const given: Record<string, unknown> = { path: "ok.txt" };
    const result = await registry.dispatch({ name: "mutator", arguments: given }, { cwd: "/" });
    expect(result.code).toBe("invalid_arguments");
    expect(result.content[0]).toMatchObject({ type: "text" });
    expect((result.content[0] as { text: string }).text).toMatch(/^validateArgs failed: /);
    expect(handlerRan).toBe(false);
    expect(given.path).toBe("ok.txt");
  });

  it("a value that cannot be snapshotted never reaches validateArgs and fails at step 5", async () => {
    const registry = createToolRegistry();
    let validated = false;
    registry.register({
      name: "plain",
      description: "Takes plain data.",
      inputSchema: { type: "object" },
      validateArgs: () => {
        validated = true;
        return undefined;
      },
      handler: () => ({ isError: false, content: [] }),
    });
    const result = await registry.dispatch({ name: "plain", arguments: { f: () => 1 } }, { cwd: "/" });
    expect(result).toEqual({
      isError: true,
      code: "invalid_arguments",
      content: [{ type: "text", text: "arguments must be plain JSON data" }],
    });
    expect(validated).toBe(false);
  });
});
