import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePoints, parsePointer, pointer, truncateUtf8, utf8Bytes } from "../src/index.js";

describe("utf8Bytes / codePoints", () => {
  it.each([
    ["", 0, 0],
    ["a", 1, 1],
    ["é", 2, 1],
    ["€", 3, 1],
    ["😀", 4, 1],
    ["\ud800", 3, 1],
    ["a\udc00b", 5, 3],
  ])("%j is %i bytes and %i code points", (s, bytes, points) => {
    expect(utf8Bytes(s)).toBe(bytes);
    expect(codePoints(s)).toBe(points);
  });

  it("agrees with Buffer.byteLength and Array.from on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(utf8Bytes(s)).toBe(Buffer.byteLength(s, "utf8"));
        expect(codePoints(s)).toBe(Array.from(s).length);
      }),
      { seed: 20261202, numRuns: 1000 },
    );
  });
});

describe("truncateUtf8", () => {
  it("keeps whole code points only", () => {
    expect(truncateUtf8("a😀b", 4)).toBe("a");
    expect(truncateUtf8("a😀b", 5)).toBe("a😀");
    expect(truncateUtf8("éé", 3)).toBe("é");
    expect(truncateUtf8("abc", 0)).toBe("");
  });

  it("returns the longest fitting code-point prefix", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(40), (s, max) => {
        const out = truncateUtf8(s, max);
        expect(s.startsWith(out)).toBe(true);
        expect(utf8Bytes(out)).toBeLessThanOrEqual(max);
        const rest = Array.from(s.slice(out.length));
        if (rest.length > 0) expect(utf8Bytes(out + rest[0])).toBeGreaterThan(max);
      }),
      { seed: 7, numRuns: 1000 },
    );
  });
});

describe("JSON pointers", () => {
  it("escapes ~ and / (RFC 6901) and round-trips", () => {
    expect(pointer()).toBe("");
    expect(pointer("a", 0, "b/c", "~d")).toBe("/a/0/b~1c/~0d");
    expect(parsePointer("/a/0/b~1c/~0d")).toEqual(["a", "0", "b/c", "~d"]);
    expect(parsePointer("/~01")).toEqual(["~1"]);
    expect(parsePointer("x")).toBeUndefined();
  });
});
