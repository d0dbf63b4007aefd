/**
 * Issue 11, surface 4 — amendment A4: the output budget covers the whole result. A handler cannot smuggle an
 * unbounded payload past the budget in fields other than `content`, and a returned `code` is kept only when it is
 * a string matching `^[a-z][a-z0-9_]{0,63}$`.
 */

import { describe, expect, it } from "vitest";
import { createToolRegistry, type HandlerResult } from "../../src/index.js";

async function run(result: Record<string, unknown>, maxOutputBytes?: number) {
  const registry = createToolRegistry();
  registry.register({
    name: "fat",
    description: "Returns whatever the test gives it.",
    inputSchema: { type: "object" },
    handler: () => result as HandlerResult,
  });
  return registry.dispatch(
    { name: "fat", arguments: {} },
    maxOutputBytes === undefined ? { cwd: "/" } : { cwd: "/", maxOutputBytes },
  );
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");
const text = (t: string) => ({ type: "text" as const, text: t });

describe("A4: non-content fields count toward the output budget", () => {
  it("drops a 4 MiB extra field under the default budget and marks the result truncated", async () => {
    const result = await run({ isError: false, content: [text("ok")], blob: "x".repeat(4 * 1024 * 1024) });
    expect(result.blob).toBeUndefined();
    expect(result.truncated).toBe(true);
    expect(result.content).toEqual([text("ok")]);
    expect(bytes(result)).toBeLessThan(65536 + 1024);
  });

  it("drops a deep or wide extra object that exceeds the budget", async () => {
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    const result = await run({ isError: false, content: [], wide }, 4096);
    expect(result.wide).toBeUndefined();
    expect(result.truncated).toBe(true);
    expect(bytes(result)).toBeLessThan(4096 + 1024);
  });

  it("keeps extra fields in key order while they fit what content left, and drops the rest", async () => {
    // content uses 10 of 40 bytes; `"a":"aaaa"` costs 11 (+1 separator), `"b":...` would not fit, `"c":1` fits.
    const result = await run(
      { isError: false, content: [text("0123456789")], a: "aaaa", b: "b".repeat(100), c: 1 },
      40,
    );
    expect(result.a).toBe("aaaa");
    expect(result.b).toBeUndefined();
    expect(result.c).toBe(1);
    expect(result.truncated).toBe(true);
  });

  it("a result whose extra fields fit is unchanged and not marked truncated", async () => {
    const result = await run({ isError: false, content: [text("hi")], note: "small" }, 100);
    expect(result).toEqual({ isError: false, content: [text("hi")], note: "small" });
  });

  it("counts extra fields against the budget left by content: full content leaves no room", async () => {
    const result = await run({ isError: false, content: [text("x".repeat(64))], extra: 1 }, 64);
    expect(result.extra).toBeUndefined();
    expect(result.truncated).toBe(true);
  });

  it("drops an extra field that cannot be serialized (BigInt, cycle, throwing toJSON)", async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const result = await run({
      isError: false,
      content: [],
      big: 10n,
      cycle,
      trap: {
        toJSON() {
          throw new Error("trap");
        },
      },
    });
    expect(Object.keys(result)).not.toContain("big");
    expect(Object.keys(result)).not.toContain("cycle");
    expect(Object.keys(result)).not.toContain("trap");
    expect(() => JSON.stringify(result)).not.toThrow();
  });
});

describe("A4: a returned code is kept only when it matches ^[a-z][a-z0-9_]{0,63}$", () => {
  it.each([
    ["a number", 42],
    ["an object", { toString: () => "tool_error" }],
    ["an upper-case string", "Tool_Error"],
    ["a string with an escape sequence", "x\u001b[2Jgotcha"],
    ["a string starting with a digit", "1bad"],
    ["the empty string", ""],
    ["a 65-character string", `a${"b".repeat(64)}`],
    ["a string with a newline", "ok\nforged"],
    ["a megabyte string", "a".repeat(1024 * 1024)],
  ])("drops %s", async (_name, code) => {
    const result = await run({ isError: true, code, content: [text("failed")] });
    expect(Object.keys(result)).not.toContain("code");
    expect(result.isError).toBe(true);
  });

  it.each([["a"], ["custom_code"], [`a${"b".repeat(63)}`], ["x9_"]])("keeps %s", async (code) => {
    const result = await run({ isError: true, code, content: [text("failed")] });
    expect(result.code).toBe(code);
  });
});
