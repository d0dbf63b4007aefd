import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepFreeze, freezeJsonTree, snapshotJson } from "../src/index.js";

describe("snapshotJson", () => {
  it("round-trips through JSON: toJSON honoured, inherited properties dropped", () => {
    const proto = { inherited: 1 };
    const value = Object.assign(Object.create(proto), { own: 2, when: { toJSON: () => "t" } });
    const result = snapshotJson(value, { maxBytes: 100 });
    expect(result).toEqual({ ok: true, value: { own: 2, when: "t" } });
  });

  it("accepts exactly maxBytes and refuses one more, counting UTF-8 bytes", () => {
    const s = "é".repeat(10); // 20 bytes, plus 2 quotes
    expect(snapshotJson(s, { maxBytes: 22 }).ok).toBe(true);
    expect(snapshotJson(s, { maxBytes: 21 })).toEqual({ ok: false, reason: "too_large", bytes: 22 });
  });

  it.each([
    ["a BigInt", { n: 1n }],
    [
      "a cycle",
      (() => {
        const a: Record<string, unknown> = {};
        a.self = a;
        return a;
      })(),
    ],
    [
      "a throwing toJSON",
      {
        toJSON() {
          throw new Error("boom");
        },
      },
    ],
    [
      "a throwing getter",
      Object.defineProperty({}, "x", {
        enumerable: true,
        get() {
          throw "nope";
        },
      }),
    ],
  ])("reports %s as unserializable, never throwing", (_name, value) => {
    const result = snapshotJson(value, { maxBytes: 1000 });
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.reason).toBe("unserializable");
  });

  it.each([undefined, () => 1, Symbol("s")])("reports %s as undefined", (value) => {
    expect(snapshotJson(value, { maxBytes: 10 })).toEqual({ ok: false, reason: "undefined" });
  });
});

describe("deepFreeze", () => {
  it("freezes every reachable object, cycles included, and returns the value", () => {
    const inner = { list: [{ x: 1 }] };
    const value: Record<string, unknown> = { inner };
    value.self = value;
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(inner.list)).toBe(true);
    expect(Object.isFrozen(inner.list[0])).toBe(true);
    expect(() => {
      (inner.list[0] as { x: number }).x = 2;
    }).toThrow(TypeError);
  });

  it("leaves primitives alone", () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
  });
});

describe("freezeJsonTree", () => {
  it("freezes every node of a parsed JSON tree, including deep ones, without recursion limits", () => {
    const deep = JSON.parse(`${"[".repeat(20_000)}{"a":[1,{"b":{}}]}${"]".repeat(20_000)}`);
    freezeJsonTree(deep);
    let node = deep;
    for (let i = 0; i < 20_000; i++) {
      expect(Object.isFrozen(node)).toBe(true);
      node = node[0];
    }
    expect(Object.isFrozen(node.a[1].b)).toBe(true);
  });

  it("treats a JSON __proto__ key as an ordinary own key", () => {
    const value = freezeJsonTree(JSON.parse('{"__proto__":{"x":1}}'));
    expect(Object.isFrozen(Object.getOwnPropertyDescriptor(value, "__proto__")?.value)).toBe(true);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe("snapshotJson equals JSON.parse(JSON.stringify(value))", () => {
  const roundTrip = (value: unknown) => {
    const json = JSON.stringify(value);
    return json === undefined ? undefined : JSON.parse(json);
  };

  it.each([
    ["-0 and non-finite numbers", { a: -0, b: Number.NaN, c: [Number.POSITIVE_INFINITY, -0] }],
    [
      "undefined, functions and symbols",
      { a: undefined, b: () => 1, c: Symbol("s"), d: [undefined, () => 1, Symbol("t")] },
    ],
    ["a JSON __proto__ key", JSON.parse('{"__proto__":{"x":[1]},"y":2}')],
    ["a null-prototype object", Object.assign(Object.create(null), { a: 1 })],
    ["a nested toJSON", { a: { when: new Date(0) }, b: { toJSON: () => ["x"] } }],
    ["a boxed string", { s: Object("x") }],
    // biome-ignore lint/suspicious/noSparseArray: a hole on purpose
    ["sparse arrays", { a: [1, , 3] }],
    ["lone surrogates and controls", { s: '\ud800\u0000\u001f"\\' }],
    ["deep nesting", JSON.parse(`${"[".repeat(200)}1${"]".repeat(200)}`)],
  ])("%s", (_name, value) => {
    const result = snapshotJson(value, { maxBytes: 100_000 });
    expect(result.ok && result.value).toEqual(roundTrip(value));
    expect(result.ok && Object.getOwnPropertyNames(result.value as object)).toEqual(
      Object.getOwnPropertyNames(roundTrip(value)),
    );
  });

  it("agrees on arbitrary values, frozen or not, at every size limit", () => {
    fc.assert(
      fc.property(
        fc.anything({ withNullPrototype: true, withSparseArray: true }),
        fc.integer({ min: 0, max: 400 }),
        fc.boolean(),
        (value, maxBytes, freeze) => {
          let json: string | undefined;
          try {
            json = JSON.stringify(value);
          } catch {
            expect(snapshotJson(value, { maxBytes }).ok).toBe(false);
            return;
          }
          const result = snapshotJson(value, { maxBytes, freeze });
          if (json === undefined) expect(result).toEqual({ ok: false, reason: "undefined" });
          else if (Buffer.byteLength(json) > maxBytes)
            expect(result).toEqual({ ok: false, reason: "too_large", bytes: Buffer.byteLength(json) });
          else {
            expect(result.ok).toBe(true);
            expect(result.ok && JSON.stringify(result.value)).toBe(json);
            expect(result.ok && result.value).toEqual(JSON.parse(json));
            if (freeze && result.ok && typeof result.value === "object" && result.value !== null) {
              expect(Object.isFrozen(result.value)).toBe(true);
            }
          }
        },
      ),
      { seed: 20261202, numRuns: 3000 },
    );
  });
});
