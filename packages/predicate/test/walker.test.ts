import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePredicate, matchPredicate, type Predicate } from "../src/index.js";

/** A predicate-shaped object without the compiled walk: matchPredicate falls back to the generic §7 walk. */
function generic(predicate: Predicate): Predicate {
  const { source, any, regex, segments, pattern } = predicate;
  return { source, any, regex, segments, pattern, toJSON: () => predicate.toJSON() };
}

const key = fc.constantFrom("a", "b", "__proto__");
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("x", "ax", "b", 1, null, true),
    fc.array(tie("node"), { maxLength: 3 }),
    fc.dictionary(key, tie("node"), { maxKeys: 3 }),
  ),
})).node;
const path = fc
  .array(fc.tuple(fc.constantFrom("a", "b", "__proto__"), fc.boolean()), { minLength: 1, maxLength: 4 })
  .map((segs) => segs.map(([k, star]) => (star ? `${k}[*]` : k)).join("."));

describe("the compiled walk", () => {
  it("agrees with the generic walk of predicate.md §7 on random values and paths", () => {
    fc.assert(
      fc.property(path, tree, (any, value) => {
        const predicate = compilePredicate({ source: "arguments", any, regex: "x" });
        const input = { arguments: JSON.parse(JSON.stringify(value)) };
        expect(matchPredicate(predicate, input)).toBe(matchPredicate(generic(predicate), input));
      }),
      { seed: 20261202, numRuns: 2000 },
    );
  });

  it("is not visible as a field of the predicate", () => {
    const predicate = compilePredicate({ source: "arguments", any: "a[*].b", regex: "x" });
    expect(Object.keys(predicate).sort()).toEqual(["any", "pattern", "regex", "segments", "source"]);
    expect(JSON.stringify(predicate)).toBe('{"source":"arguments","any":"a[*].b","regex":"x"}');
  });
});
