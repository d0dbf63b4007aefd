import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePredicate, compilePredicateSet, matchPredicate, type Predicate } from "../src/index.js";

const p = (any: string, regex: string, source: "arguments" | "effects" = "arguments") =>
  compilePredicate({ source, any, regex });

describe("compilePredicateSet", () => {
  it("answers like predicates.some(matchPredicate) on hand-picked cases", () => {
    const set = compilePredicateSet([
      p("commands[*].command", "(^|[;&|()\\n])\\s*rm(\\s|$)"),
      p("commands[*].command", "(?i)CURL"),
      p("commands[*].command", "^git push"),
      p("files[*].path", "/protected/", "effects"),
      p("files[*].path", "\\.env$", "effects"),
    ]);
    const bash = (command: string) => ({ arguments: { commands: [{ command: "ls" }, { command }] } });
    expect(set.matchAny(bash("echo a && rm b"))).toBe(true);
    expect(set.matchAny(bash("curl x"))).toBe(true); // (?i) stays scoped to its own branch
    expect(set.matchAny(bash("rmdir x"))).toBe(false);
    expect(set.matchAny(bash("echo git push"))).toBe(false); // ^ anchors inside its branch
    expect(set.matchAny({ arguments: {}, effects: { files: [{ path: "/r/.env" }] } })).toBe(true);
    expect(set.matchAny({ arguments: {}, effects: { files: [{ path: "/r/.envrc" }] } })).toBe(false);
    expect(set.matchAny({ arguments: {} })).toBe(false);
  });

  it("keeps \\Q-quoted patterns separate, so a quote never swallows the next branch", () => {
    const set = compilePredicateSet([p("a", "\\Qx("), p("a", "y")]);
    expect(set.matchAny({ arguments: { a: "x(" } })).toBe(true);
    expect(set.matchAny({ arguments: { a: "y" } })).toBe(true);
    expect(set.matchAny({ arguments: { a: "z" } })).toBe(false);
  });

  it("agrees with matching each predicate on random predicates and values", () => {
    const regex = fc.constantFrom(
      "a",
      "^a",
      "b$",
      "(?i)A",
      "a|b",
      "x+",
      "[ab]c",
      "^$",
      "\\d",
      "(?s).",
      "\\Qa.\\E",
      "é",
    );
    const any = fc.constantFrom("v", "l[*]", "l[*].v", "o.v");
    const predicate = fc
      .tuple(fc.constantFrom("arguments", "effects"), any, regex)
      .map(([source, a, r]) => compilePredicate({ source, any: a, regex: r }));
    const text = fc.constantFrom("a", "b", "ac", "A", "x", "", "1", "\n", "é", "a.", "ba");
    const value = fc.record(
      {
        v: text,
        l: fc.array(fc.oneof(text, fc.record({ v: text })), { maxLength: 3 }),
        o: fc.record({ v: text }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.array(predicate, { maxLength: 6 }),
        value,
        value,
        (predicates: Predicate[], args, effects) => {
          const input = { arguments: args, effects };
          expect(compilePredicateSet(predicates).matchAny(input)).toBe(
            predicates.some((q) => matchPredicate(q, input)),
          );
        },
      ),
      { seed: 20261202, numRuns: 2000 },
    );
  });
});
