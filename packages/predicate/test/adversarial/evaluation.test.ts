/**
 * Issue 8 — predicates and globs on hostile input (predicate.md §3, §7, §8). `safeCompilePredicate` answers any
 * value with a predicate or `predicate_invalid` issues; `matchPredicate` answers any arguments and effects with a
 * boolean (never throws, own properties only, no prototype reached); globs compile and test any string. Nothing
 * pollutes a prototype. (The fast-check properties of predicate totality and glob agreement with a reference
 * matcher live in `test/properties.test.ts` and `test/glob.test.ts`.)
 */

import { expectNoPollution, hostileArguments } from "@raw/test-support";
import { describe, expect, it } from "vitest";
import {
  compileGlob,
  compilePredicate,
  isValidGlob,
  matchGlob,
  matchPredicate,
  type Predicate,
  safeCompilePredicate,
} from "../../src/index.js";

const PREDICATES: Predicate[] = [
  { source: "arguments", any: "path", regex: "." },
  { source: "arguments", any: "paths[*]", regex: "^a" },
  { source: "arguments", any: "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.path", regex: "leaf" },
  { source: "arguments", any: "__proto__.polluted", regex: "yes" },
  { source: "arguments", any: "__proto__.path", regex: "inherited" },
  { source: "arguments", any: "constructor.prototype.polluted", regex: "yes" },
  { source: "arguments", any: "paths[*].__proto__.polluted", regex: "yes" },
  { source: "arguments", any: "toString", regex: "native" },
  { source: "arguments", any: "self.self.self.path", regex: "a" },
  { source: "arguments", any: "numbers[*]", regex: "7" },
  { source: "effects", any: "files[*].path", regex: "(a+)+$" },
  { source: "arguments", any: "path", regex: "\\x00|[\\x01-\\x1f]|\\x{FFFD}" },
].map((p) => compilePredicate(p));

describe("adversarial: matchPredicate on hostile values", () => {
  it.each(hostileArguments().map((c) => [c.name, c] as const))("%s", (_name, hostile) => {
    const value = hostile.make();
    for (const predicate of PREDICATES) {
      let result: unknown;
      expect(() => {
        result = matchPredicate(predicate, { arguments: value, effects: value });
      }).not.toThrow();
      expect(typeof result).toBe("boolean");
    }
    expectNoPollution(hostile.name);
  });

  it("prototype-named keys match only as own JSON keys, never through the prototype chain", () => {
    const own = JSON.parse(
      '{"__proto__":{"polluted":"yes","path":"inherited"},"constructor":{"prototype":{"polluted":"yes"}}}',
    );
    expect(matchPredicate(PREDICATES[3] as Predicate, { arguments: own })).toBe(true);
    expect(matchPredicate(PREDICATES[4] as Predicate, { arguments: own })).toBe(true);
    expect(matchPredicate(PREDICATES[5] as Predicate, { arguments: own })).toBe(true);
    const inherited = Object.create({ path: "inherited", polluted: "yes" }) as object;
    for (const predicate of PREDICATES)
      expect(matchPredicate(predicate, { arguments: inherited })).toBe(false);
    expect(matchPredicate(PREDICATES[7] as Predicate, { arguments: {} })).toBe(false);
    expectNoPollution("prototype keys");
  });

  it("lone surrogates, NUL and control characters are matched as text", () => {
    const control = PREDICATES[11] as Predicate;
    expect(matchPredicate(control, { arguments: { path: "a\u0000b" } })).toBe(true);
    expect(matchPredicate(control, { arguments: { path: "a\u001bb" } })).toBe(true);
    expect(matchPredicate(control, { arguments: { path: "plain" } })).toBe(false);
    const surrogate = compilePredicate({ source: "arguments", any: "path", regex: "^a.b$" });
    expect(typeof matchPredicate(surrogate, { arguments: { path: "a\ud800b" } })).toBe("boolean");
  });

  it("a huge array is walked without recursion limits or copies", () => {
    const many = compilePredicate({ source: "arguments", any: "items[*].path", regex: "needle$" });
    const items = Array.from({ length: 500_000 }, (_, i) => ({ path: `/f${i}` }));
    expect(matchPredicate(many, { arguments: { items } })).toBe(false);
    items.push({ path: "/needle" });
    expect(matchPredicate(many, { arguments: { items } })).toBe(true);
    // Holes and non-objects in the array are skipped.
    const holey = new Array(100_000);
    holey[99_999] = { path: "needle" };
    expect(matchPredicate(many, { arguments: { items: holey } })).toBe(true);
  });
});

/** Hostile predicate inputs for the compiler; each must give a predicate or predicate_invalid issues. */
const CANDIDATES: Array<[string, () => unknown]> = [
  ...hostileArguments().map((c) => [c.name, () => c.make()] as [string, () => unknown]),
  [
    "__proto__ as a field",
    () => JSON.parse('{"source":"arguments","any":"a","regex":"x","__proto__":{"source":"effects"}}'),
  ],
  [
    "source via the prototype",
    () => Object.assign(Object.create({ source: "arguments" }), { any: "a", regex: "x" }),
  ],
  [
    "a throwing source getter",
    () =>
      Object.defineProperty({ any: "a", regex: "x" }, "source", {
        enumerable: true,
        get() {
          throw new Error("source");
        },
      }),
  ],
  ["a 1 MB regex", () => ({ source: "arguments", any: "a", regex: "a".repeat(1024 * 1024) })],
  ["a 1 MB path", () => ({ source: "arguments", any: "a.".repeat(512 * 1024), regex: "x" })],
  [
    "10,000 path segments",
    () => ({ source: "arguments", any: Array(10_000).fill("a").join("."), regex: "x" }),
  ],
  ["an exploding repetition", () => ({ source: "arguments", any: "a", regex: "((a{100}){100}){100}" })],
  ["a repetition over 1000", () => ({ source: "arguments", any: "a", regex: "a{1001}" })],
  ["1024 bytes of open groups", () => ({ source: "arguments", any: "a", regex: "(".repeat(1024) })],
  [
    "1024 bytes of nested groups",
    () => ({ source: "arguments", any: "a", regex: `${"(".repeat(512)}${")".repeat(512)}` }),
  ],
  [
    "deep nested quantifiers",
    () => ({ source: "arguments", any: "a", regex: `${"(a+".repeat(200)}${")+".repeat(200)}` }),
  ],
  ["a look-ahead", () => ({ source: "arguments", any: "a", regex: "(?=a)a" })],
  ["a back-reference", () => ({ source: "arguments", any: "a", regex: "(a)\\1" })],
  ["a lone surrogate in the regex", () => ({ source: "arguments", any: "a", regex: "\ud800" })],
  ["NUL in the regex", () => ({ source: "arguments", any: "a", regex: "a\u0000b" })],
  ["a lone surrogate in the path", () => ({ source: "arguments", any: "a\ud800", regex: "x" })],
  ["a numeric index", () => ({ source: "arguments", any: "commands[0].command", regex: "x" })],
  ["a bare [*]", () => ({ source: "arguments", any: "[*]", regex: "x" })],
  ["source as a String object", () => ({ source: new String("arguments"), any: "a", regex: "x" })],
];

describe("adversarial: safeCompilePredicate on hostile input", () => {
  it.each(CANDIDATES)("%s", (name, make) => {
    let result: ReturnType<typeof safeCompilePredicate> | undefined;
    expect(() => {
      result = safeCompilePredicate(make());
    }).not.toThrow();
    if (!result) return;
    if (result.ok) {
      expect(Object.isFrozen(result.predicate)).toBe(true);
    } else {
      expect(result.issues.length).toBeGreaterThan(0);
      const odd = result.issues.filter(
        (issue) => issue.code !== "predicate_invalid" || Buffer.byteLength(issue.message) >= 2048,
      );
      expect(odd).toEqual([]);
    }
    expectNoPollution(name);
  });
});

describe("adversarial: globs on hostile strings", () => {
  const STRINGS = [
    "",
    "*",
    "?",
    "**********************************************************************",
    "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
    "a\ud800*",
    "*\udfff",
    "?\ud83d",
    "\u0000*",
    "(a+)+$*",
    "[*]",
    "\\*",
    "\r\n*\u2028",
    "x".repeat(256),
    "é".repeat(129),
  ];

  it("every glob compiles, never throws and matches only whole identities", () => {
    for (const pattern of STRINGS) {
      const glob = compileGlob(pattern);
      for (const identity of [...STRINGS, "a".repeat(100_000), "builtin/bash", "\ud800", undefined, 42]) {
        expect(typeof glob.test(identity as string)).toBe("boolean");
        expect(typeof matchGlob(pattern, identity as string)).toBe("boolean");
      }
      expect(typeof isValidGlob(pattern)).toBe("boolean");
    }
    expect(
      compileGlob("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b").test("a".repeat(200_000)),
    ).toBe(false);
    expect(compileGlob("(a+)+$*").test("(a+)+$ and more")).toBe(true);
    expect(compileGlob("(a+)+$*").test("aaaa")).toBe(false);
    expect(isValidGlob("x".repeat(257))).toBe(false);
    expect(isValidGlob("é".repeat(129))).toBe(false);
    expectNoPollution("globs");
  });
});
