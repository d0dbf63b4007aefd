import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePredicate, matchPredicate, safeCompilePredicate } from "../src/index.js";

const predicates = [
  {
    source: "arguments",
    any: "commands[*].command",
    regex: "(^|[;&|()\\n])\\s*(sudo\\s+)?(/usr/bin/|/bin/)?rm(\\s|$)",
  },
  { source: "effects", any: "files[*].path", regex: "protected" },
  { source: "arguments", any: "__proto__.command", regex: "." },
  { source: "arguments", any: "__proto__[*].__proto__", regex: "" + "x" },
  { source: "arguments", any: "constructor.prototype", regex: "." },
  { source: "effects", any: "a.b.c.d", regex: "^$" },
  { source: "arguments", any: "toString", regex: "." },
].map((p) => compilePredicate(p));

const KEYS = [
  "__proto__",
  "constructor",
  "commands",
  "command",
  "files",
  "path",
  "toString",
  "a",
  "b",
  "c",
  "d",
];

/** JSON values whose objects carry own keys such as `__proto__` (built by JSON.parse, as a host receives them). */
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie("value"), { maxLength: 4 }),
    tie("object"),
  ),
  object: fc
    .array(fc.tuple(fc.constantFrom(...KEYS), tie("value")), { maxLength: 5 })
    .map((entries) =>
      JSON.parse(
        `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(",")}}`,
      ),
    ),
})).value;

describe("property: matchPredicate never throws", () => {
  it("on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, e) => {
        for (const predicate of predicates) {
          expect(typeof matchPredicate(predicate, { arguments: a, effects: e })).toBe("boolean");
        }
      }),
      { seed: 31337, numRuns: 1000 },
    );
  });

  it("on objects with __proto__, constructor and other prototype-named own keys", () => {
    let matched = 0;
    fc.assert(
      fc.property(hostileJson, hostileJson, (a, e) => {
        for (const predicate of predicates) {
          const result = matchPredicate(predicate, { arguments: a, effects: e });
          expect(typeof result).toBe("boolean");
          if (result) matched++;
        }
      }),
      { seed: 8675309, numRuns: 2000 },
    );
    expect(matched).toBeGreaterThan(0);
    expect(Object.prototype).not.toHaveProperty("command");
  });

  it("on arbitrary values of any kind", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (a, e) => {
        for (const predicate of predicates) {
          expect(typeof matchPredicate(predicate, { arguments: a, effects: e })).toBe("boolean");
        }
      }),
      { seed: 5150, numRuns: 1000 },
    );
  });
});

describe("property: safeCompilePredicate never throws", () => {
  const pathLike = fc
    .array(fc.constantFrom("a", "b1", "_", "[*]", ".", "[0]", "-", "é", " ", "9"), { maxLength: 40 })
    .map((t) => t.join(""));
  const regexLike = fc
    .array(
      fc.constantFrom(
        "a",
        "(",
        ")",
        "[",
        "]",
        "\\",
        "?",
        "<",
        "=",
        "!",
        "*",
        "+",
        "{",
        "}",
        "1",
        "é",
        "|",
        "^",
        "$",
      ),
      {
        maxLength: 30,
      },
    )
    .map((t) => t.join(""));
  const candidate = fc.oneof(
    fc.anything(),
    fc.record(
      {
        source: fc.oneof(fc.constantFrom("arguments", "effects"), fc.anything()),
        any: fc.oneof(pathLike, fc.string(), fc.anything()),
        regex: fc.oneof(regexLike, fc.string(), fc.anything()),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    ),
  );

  it("and returns a predicate or a non-empty list of predicate_invalid issues", () => {
    fc.assert(
      fc.property(candidate, (input) => {
        const result = safeCompilePredicate(input);
        if (result.ok) {
          expect(Object.isFrozen(result.predicate)).toBe(true);
        } else {
          expect(result.issues.length).toBeGreaterThan(0);
          for (const issue of result.issues) {
            expect(issue.code).toBe("predicate_invalid");
            expect(typeof issue.message).toBe("string");
            expect(typeof issue.path).toBe("string");
          }
        }
      }),
      { seed: 2718, numRuns: 3000 },
    );
  });
});
