import { describe, expect, it } from "vitest";
import { deepFreeze, freezeJsonTree, snapshotJson } from "../src/index.js";

describe("snapshotJson", () => {
  it("round-trips through JSON: toJSON honoured, inherited properties dropped", () => {
    const proto = { inherited: 1 };
    const value = Object.assign(Object.create(proto), { own: 2, when: { toJSON: () => "t" } });
    const result = snapshotJson(value, { maxBytes: 100 });
    expect(result).toEqual({ ok: true, value: { own: 2, when: "t" }, json: '{"own":2,"when":"t"}' });
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
