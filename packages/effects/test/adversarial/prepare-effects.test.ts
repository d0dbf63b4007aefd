/**
 * Issue 8 — effects preparation (effects.md §4) against hostile descriptors and hostile arguments: deep nesting,
 * huge arrays, prototype-named keys, getters and `toJSON` tricks, cycles, BigInt, sparse arrays, lone surrogates,
 * NUL and control characters, thenables and non-Error throws. `prepareEffects` must always return a coded result,
 * never throw, never pollute a prototype, and return only deep-frozen JSON snapshots; the reference `write_file`
 * descriptor and validator must answer every JSON value with effects, a `PatchError`/`TypeError`, or a message.
 */
import { compileObjectSchema } from "@raw/schema";
import { expectNoPollution, hostileArguments, isDeepFrozen, MiB, retainedBytes } from "@raw/test-support";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  describeWriteFileEffects,
  FILES_EFFECTS_SCHEMA,
  MAX_EFFECTS_BYTES,
  PatchError,
  type PrepareEffectsResult,
  prepareEffects,
  validateWriteFileArgs,
} from "../../src/index.js";

const OPEN = compileObjectSchema({ type: "object" }, { name: "effects of open" });
const FILES = compileObjectSchema(FILES_EFFECTS_SCHEMA, { name: "effects of write_file" });

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

function expectCoded(result: PrepareEffectsResult, label: string): void {
  if (result.ok) {
    expect(isDeepFrozen(result.effects), label).toBe(true);
    expect(typeof result.effects, label).toBe("object");
  } else {
    expect(["invalid_effects", "effects_error"], label).toContain(result.code);
    expect(typeof result.message, label).toBe("string");
  }
  expectNoPollution(label);
}

function prepare(describeEffects: (args: unknown) => unknown, args: unknown = {}, validate = OPEN) {
  let result: PrepareEffectsResult | undefined;
  expect(() => {
    result = prepareEffects({ toolName: "t", describeEffects, arguments: args, cwd: "/repo", validate });
  }).not.toThrow();
  return result as PrepareEffectsResult;
}

describe("adversarial: descriptors returning hostile values", () => {
  it.each(hostileArguments().map((c) => [c.name, c] as const))("returns %s", (_name, hostile) => {
    const result = prepare(() => hostile.make());
    expectCoded(result, hostile.name);
  });

  it("a 10,000-level value is effects_error (the serializer's own limit), never a crash", () => {
    const result = prepare(() => hostileArguments()[0]?.make());
    expect(result).toMatchObject({ ok: false, code: "effects_error" });
  });

  it("cycles, BigInt and a throwing toJSON are effects_error with the thrown message", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(prepare(() => cyclic)).toMatchObject({ ok: false, code: "effects_error" });
    expect(prepare(() => ({ n: 1n }))).toEqual({
      ok: false,
      code: "effects_error",
      message: "cannot describe t: Do not know how to serialize a BigInt",
    });
    expect(
      prepare(() => ({
        toJSON() {
          throw "no";
        },
      })),
    ).toEqual({ ok: false, code: "effects_error", message: "cannot describe t: no" });
  });

  it("__proto__ and constructor keys survive as ordinary keys of the frozen snapshot", () => {
    const result = prepare(() =>
      JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}'),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const effects = result.effects as Record<string, unknown>;
    expect(Object.getPrototypeOf(effects)).toBe(Object.prototype);
    expect(Object.keys(effects)).toEqual(["__proto__", "constructor"]);
    expect(effects.polluted).toBeUndefined();
  });

  it("toJSON decides what is validated; inherited fields and undefined values disappear", () => {
    class Effects {
      files = [{ path: "/repo/a", operation: "write" }];
      toJSON() {
        return { files: [{ path: "/etc/passwd", operation: "write" }] };
      }
    }
    const inherited = Object.create({ files: [{ path: "/x", operation: "write" }] }) as object;
    expect(prepare(() => new Effects(), {}, FILES)).toEqual({
      ok: true,
      effects: { files: [{ path: "/etc/passwd", operation: "write" }] },
    });
    expect(prepare(() => inherited, {}, FILES)).toMatchObject({ ok: false, code: "invalid_effects" });
    // biome-ignore lint/suspicious/noSparseArray: holes become null in the snapshot.
    expect(prepare(() => ({ a: [1, , 3], b: undefined }))).toEqual({
      ok: true,
      effects: { a: [1, null, 3] },
    });
  });

  it.each([
    ["a promise", () => Promise.resolve({ files: [] })],
    ["a rejecting promise", () => Promise.reject(new Error("late"))],
    ["an async function's result", () => (async () => ({}))()],
    ["a thenable object", () => ({ then: (_ok: unknown, fail: (e: unknown) => void) => fail("x") })],
    ["a thenable function", () => Object.assign(() => 1, { then: () => undefined })],
  ])("%s is invalid_effects and its rejection is observed", async (_name, describe) => {
    expect(prepare(describe)).toEqual({
      ok: false,
      code: "invalid_effects",
      message: "effects descriptors must return synchronously",
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unhandled).toEqual([]);
  });

  it.each([
    [
      "a then getter that throws",
      () =>
        Object.defineProperty({}, "then", {
          get: () => {
            throw new Error("then");
          },
        }),
    ],
    [
      "a Proxy whose get trap throws",
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw new Error("trap");
            },
          },
        ),
    ],
    [
      "a then method that throws",
      () => ({
        then: () => {
          throw new Error("then call");
        },
      }),
    ],
  ])("%s is effects_error", (_name, describe) => {
    expect(prepare(describe)).toMatchObject({ ok: false, code: "effects_error" });
  });

  it.each([
    ["a string", "boom", "cannot describe t: boom"],
    ["null", null, "cannot describe t: null"],
    ["a symbol", Symbol("s"), "cannot describe t: Symbol(s)"],
    [
      "an object with a throwing message getter",
      Object.defineProperty({}, "message", {
        get: () => {
          throw 1;
        },
      }),
      "cannot describe t: unknown error",
    ],
  ])("a descriptor throwing %s is effects_error", (_name, thrown, message) => {
    expect(
      prepare(() => {
        throw thrown;
      }),
    ).toEqual({ ok: false, code: "effects_error", message });
  });

  it("64 KiB is exact at the boundary, also when the last character is multi-byte", () => {
    const sized = (bytes: number, unit: string) => {
      const frame = Buffer.byteLength('{"s":""}');
      const unitBytes = Buffer.byteLength(unit);
      const units = Math.floor((bytes - frame) / unitBytes);
      return { s: "a".repeat(bytes - frame - units * unitBytes) + unit.repeat(units) };
    };
    for (const unit of ["a", "é", "€", "😀"]) {
      const at = sized(MAX_EFFECTS_BYTES, unit);
      expect(Buffer.byteLength(JSON.stringify(at))).toBe(MAX_EFFECTS_BYTES);
      expect(prepare(() => at).ok).toBe(true);
      const over = { s: `${at.s}a` };
      expect(prepare(() => over)).toEqual({
        ok: false,
        code: "invalid_effects",
        message: "effects exceed 64 KiB",
      });
    }
    // A lone surrogate is serialized as the six characters of its escape.
    const lone = { s: "\ud800".repeat(10_000) };
    expect(Buffer.byteLength(JSON.stringify(lone))).toBe(60_008);
    expect(prepare(() => lone).ok).toBe(true);
  });

  it("a huge descriptor result is refused by size, and nothing is retained afterwards", () => {
    const before = retainedBytes();
    for (let i = 0; i < 3; i++) {
      const result = prepare(() => ({
        files: Array.from({ length: 200_000 }, (_, j) => ({ path: `/f${j}`, operation: "write" })),
      }));
      expect(result).toEqual({ ok: false, code: "invalid_effects", message: "effects exceed 64 KiB" });
    }
    expect(retainedBytes() - before).toBeLessThan(8 * MiB);
  });
});

describe("adversarial: the write_file descriptor and validator on hostile JSON", () => {
  const jsonish = hostileArguments().filter((c) => {
    try {
      return (
        JSON.stringify(c.make()) !== undefined && !c.name.includes("getter") && !c.name.includes("Proxy")
      );
    } catch {
      return false;
    }
  });

  it.each(jsonish.map((c) => [c.name, c] as const))("%s", (_name, hostile) => {
    const args = JSON.parse(JSON.stringify(hostile.make()));
    const message = validateWriteFileArgs(args);
    expect(message === undefined || typeof message === "string").toBe(true);
    try {
      const effects = describeWriteFileEffects(args, { cwd: "/repo" });
      expect(FILES.test(JSON.parse(JSON.stringify(effects)))).toBe(true);
    } catch (error) {
      expect(error instanceof PatchError || error instanceof TypeError).toBe(true);
    }
    const result = prepareEffects({
      toolName: "write_file",
      describeEffects: describeWriteFileEffects,
      arguments: Object.freeze(args),
      cwd: "/repo",
      validate: FILES,
    });
    expectCoded(result, hostile.name);
    expectNoPollution(hostile.name);
  });

  it("operations with prototype-named paths are ordinary paths", () => {
    const args = JSON.parse(
      '{"operations":[{"path":"__proto__","mode":"overwrite","content":""},{"path":"constructor/prototype","mode":"append","content":""}]}',
    );
    expect(validateWriteFileArgs(args)).toBeUndefined();
    expect(describeWriteFileEffects(args, { cwd: "/repo" })).toEqual({
      files: [
        { path: "/repo/__proto__", operation: "write" },
        { path: "/repo/constructor/prototype", operation: "write" },
      ],
    });
    expectNoPollution("operations");
  });
});
