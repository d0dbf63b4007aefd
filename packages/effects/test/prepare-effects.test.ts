import { compileObjectSchema } from "@raw/schema";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type EffectsDescriptor,
  FILES_EFFECTS_SCHEMA,
  MAX_EFFECTS_BYTES,
  type PrepareEffectsResult,
  prepareEffects,
} from "../src/index.js";

const validator = compileObjectSchema(FILES_EFFECTS_SCHEMA, { name: "effects of t" });
const ARGS = Object.freeze({ x: 1 });

function run(
  describeEffects: EffectsDescriptor,
  validate: Parameters<typeof prepareEffects>[0]["validate"] = validator,
) {
  return prepareEffects({ toolName: "t", describeEffects, arguments: ARGS, cwd: "/w", validate });
}

/** The message a thrown value gets, computed the way the engine words it. */
function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("did not throw");
}

const files = (...paths: string[]) => ({ files: paths.map((path) => ({ path, operation: "write" })) });

const SYNC = { ok: false, code: "invalid_effects", message: "effects descriptors must return synchronously" };
const INVALID = { ok: false, code: "invalid_effects", message: "invalid intended effects for t" };
const TOO_LARGE = { ok: false, code: "invalid_effects", message: "effects exceed 64 KiB" };
const error = (message: string) => ({
  ok: false,
  code: "effects_error",
  message: `cannot describe t: ${message}`,
});

describe("prepareEffects: the descriptor call (step 1)", () => {
  it("calls the descriptor exactly once, with the arguments and a frozen { cwd } and no this", () => {
    const seen: unknown[] = [];
    const descriptor = vi.fn(function (this: unknown, args: unknown, context: unknown) {
      seen.push(this, args, context);
      return files("/w/a");
    });
    const result = run(descriptor);
    expect(result.ok).toBe(true);
    expect(descriptor).toHaveBeenCalledTimes(1);
    const [self, args, context] = seen;
    expect(self).toBeUndefined();
    expect(args).toBe(ARGS);
    expect(Object.isFrozen(context)).toBe(true);
    expect(Reflect.ownKeys(context as object)).toEqual(["cwd"]);
    expect(context).toEqual({ cwd: "/w" });
  });

  it.each([
    ["an Error", new Error("boom"), "boom"],
    ["a TypeError", new TypeError("bad type"), "bad type"],
    ["a string", "plain", "plain"],
    ["a number", 42, "42"],
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["an object without message", { code: 1 }, "[object Object]"],
    ["an object with a non-string message", { message: 7 }, "[object Object]"],
    ["an object with a string message", { message: "custom" }, "custom"],
  ])("a descriptor throwing %s gives effects_error", (_name, thrown, message) => {
    expect(
      run(() => {
        throw thrown;
      }),
    ).toEqual(error(message));
  });

  it("a descriptor that is not a function gives effects_error", () => {
    const result = run(42 as unknown as EffectsDescriptor);
    expect(result.ok === false && result.code).toBe("effects_error");
    expect(result.ok === false && result.message.startsWith("cannot describe t: ")).toBe(true);
  });
});

describe("prepareEffects: thenables (step 2)", () => {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", listener);
  });
  afterEach(() => {
    process.off("unhandledRejection", listener);
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it("refuses a returned promise", async () => {
    expect(run(() => Promise.resolve(files("/w/a")))).toEqual(SYNC);
    await settle();
  });

  it("refuses an async descriptor", async () => {
    expect(run(async () => files("/w/a"))).toEqual(SYNC);
    await settle();
  });

  it("observes a rejecting promise so no unhandled rejection escapes", async () => {
    expect(run(() => Promise.reject(new Error("late")))).toEqual(SYNC);
    expect(run(async () => Promise.reject(new Error("later")))).toEqual(SYNC);
    expect(
      run(
        () =>
          new Promise((_, reject) => {
            setTimeout(() => reject(new Error("timer")), 5);
          }),
      ),
    ).toEqual(SYNC);
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("refuses a thenable object and attaches a rejection handler to it", () => {
    const then = vi.fn();
    expect(run(() => ({ then, files: [] }))).toEqual(SYNC);
    expect(then).toHaveBeenCalledTimes(1);
    expect(then.mock.calls[0]?.[0]).toBeUndefined();
    expect(typeof then.mock.calls[0]?.[1]).toBe("function");
    expect(() => then.mock.calls[0]?.[1](new Error("x"))).not.toThrow();
  });

  it("refuses a function with a callable then", () => {
    const thenable = Object.assign(() => 1, { then: vi.fn() });
    expect(run(() => thenable)).toEqual(SYNC);
    expect(thenable.then).toHaveBeenCalledTimes(1);
  });

  it("refuses a thenable whose then is inherited", () => {
    const then = vi.fn();
    expect(run(() => Object.create({ then }))).toEqual(SYNC);
  });

  it("reads then once", () => {
    const get = vi.fn(() => () => {});
    expect(run(() => Object.defineProperty({}, "then", { get }))).toEqual(SYNC);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("a throwing then getter gives effects_error", () => {
    const value = Object.defineProperty({}, "then", {
      get() {
        throw new Error("no then for you");
      },
    });
    expect(run(() => value)).toEqual(error("no then for you"));
  });

  it("a then that throws when called gives effects_error", () => {
    expect(
      run(() => ({
        then() {
          throw new Error("cannot attach");
        },
      })),
    ).toEqual(error("cannot attach"));
  });

  it("a non-callable then is ordinary data", () => {
    expect(run(() => ({ ...files("/w/a"), then: 1 }))).toEqual(INVALID);
    expect(run(() => Object.assign(files("/w/a"), { then: undefined }))).toMatchObject({ ok: true });
  });
});

describe("prepareEffects: serialization and size (steps 3–5)", () => {
  it.each([
    ["undefined", undefined],
    ["a function", () => 1],
    ["a symbol", Symbol("s")],
  ])("refuses %s (undefined serialization)", (_name, value) => {
    expect(run(() => value)).toEqual(INVALID);
  });

  it("a BigInt gives effects_error", () => {
    expect(run(() => ({ files: [], n: 1n }))).toEqual(error(messageOf(() => JSON.stringify(1n))));
  });

  it("a cycle gives effects_error", () => {
    const cyclic: Record<string, unknown> = { files: [] };
    cyclic.self = cyclic;
    expect(run(() => cyclic)).toEqual(error(messageOf(() => JSON.stringify(cyclic))));
  });

  it("a throwing toJSON gives effects_error", () => {
    const value = {
      toJSON() {
        throw new Error("toJSON failed");
      },
    };
    expect(run(() => value)).toEqual(error("toJSON failed"));
  });

  it("a throwing getter gives effects_error", () => {
    const value = Object.defineProperty({}, "files", {
      enumerable: true,
      get() {
        throw "getter failed";
      },
    });
    expect(run(() => value)).toEqual(error("getter failed"));
  });

  it("honours toJSON: the serialized form is what gets validated", () => {
    const result = run(() => ({ toJSON: () => files("/w/a") }));
    expect(result).toEqual({ ok: true, effects: files("/w/a") });
  });

  it("drops inherited properties", () => {
    const inherited = Object.assign(Object.create({ extra: 1 }), files("/w/a"));
    expect(run(() => inherited)).toEqual({ ok: true, effects: files("/w/a") });
    expect(run(() => Object.create(files("/w/a")))).toEqual(INVALID);
  });

  it("drops undefined members and keeps Date as its JSON string", () => {
    expect(run(() => ({ files: [{ path: "/w/a", operation: "write", note: undefined }] }))).toEqual({
      ok: true,
      effects: files("/w/a"),
    });
    expect(run(() => ({ files: [{ path: new Date(0), operation: "write" }] }))).toEqual({
      ok: true,
      effects: { files: [{ path: "1970-01-01T00:00:00.000Z", operation: "write" }] },
    });
  });

  /** `{"files":[{"path":"<pad>","operation":"write"}]}` of exactly `bytes` UTF-8 bytes. */
  const sized = (bytes: number, unit: string, width: number) => {
    const overhead = JSON.stringify(files("")).length;
    const room = bytes - overhead;
    return files(unit.repeat(Math.floor(room / width)) + "x".repeat(room % width));
  };

  it.each([
    ["ASCII", "a", 1],
    ["2-byte é", "é", 2],
    ["3-byte €", "€", 3],
    ["4-byte 😀", "😀", 4],
  ])("accepts exactly 65,536 bytes and refuses 65,537 (%s)", (_name, unit, width) => {
    expect(MAX_EFFECTS_BYTES).toBe(65_536);
    const exact = sized(65_536, unit, width);
    expect(new TextEncoder().encode(JSON.stringify(exact)).length).toBe(65_536);
    expect(run(() => exact)).toMatchObject({ ok: true });
    const over = sized(65_537, unit, width);
    expect(new TextEncoder().encode(JSON.stringify(over)).length).toBe(65_537);
    expect(run(() => over)).toEqual(TOO_LARGE);
  });

  it("checks the size before validating", () => {
    expect(run(() => ({ junk: "x".repeat(70_000) }))).toEqual(TOO_LARGE);
  });
});

describe("prepareEffects: validation and freezing (steps 6–7)", () => {
  it.each([
    ["a schema violation", { files: [{ path: "/a", operation: "chmod" }] }],
    ["an extra property", { files: [], more: 1 }],
    ["a missing property", {}],
    ["null", null],
    ["a number", 5],
    ["a string", "files"],
    ["an array", []],
    ["true", true],
    ["129 files", files(...Array.from({ length: 129 }, (_, i) => `/f${i}`))],
  ])("refuses %s with invalid_effects, without the validator's text", (_name, value) => {
    expect(run(() => value)).toEqual(INVALID);
  });

  it("accepts 128 files", () => {
    expect(run(() => files(...Array.from({ length: 128 }, (_, i) => `/f${i}`)))).toMatchObject({ ok: true });
  });

  it("validates the parsed snapshot, never the descriptor's object", () => {
    const original = files("/w/a");
    const seen: unknown[] = [];
    const result = run(
      () => original,
      (value) => {
        seen.push(value);
        return true;
      },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toBe(original);
    expect(result.ok && result.effects).toBe(seen[0]);
    expect(Object.isFrozen(original)).toBe(false);
  });

  it("accepts a predicate validator; only true is valid", () => {
    expect(
      run(
        () => ({ any: 1 }),
        () => true,
      ),
    ).toEqual({ ok: true, effects: { any: 1 } });
    expect(
      run(
        () => ({ any: 1 }),
        () => false,
      ),
    ).toEqual(INVALID);
    expect(run(() => ({ any: 1 }), (() => 1) as unknown as () => boolean)).toEqual(INVALID);
  });

  it("a throwing validator gives effects_error", () => {
    expect(
      run(
        () => ({}),
        () => {
          throw new Error("validator broke");
        },
      ),
    ).toEqual(error("validator broke"));
  });

  it("deep-freezes the snapshot", () => {
    const result: PrepareEffectsResult = run(() => files("/w/a", "/w/b"));
    if (!result.ok) throw new Error(result.message);
    const effects = result.effects as { files: { path: string }[] };
    expect(Object.isFrozen(effects)).toBe(true);
    expect(Object.isFrozen(effects.files)).toBe(true);
    expect(Object.isFrozen(effects.files[1])).toBe(true);
    expect(() => {
      (effects.files[0] as { path: string }).path = "/etc/passwd";
    }).toThrow(TypeError);
  });

  it("uses the tool name in every message", () => {
    const result = prepareEffects({
      toolName: "write_file",
      describeEffects: () => undefined,
      arguments: {},
      cwd: "/",
      validate: validator,
    });
    expect(result).toEqual({
      ok: false,
      code: "invalid_effects",
      message: "invalid intended effects for write_file",
    });
  });
});
