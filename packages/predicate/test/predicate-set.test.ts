import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CompiledRegex,
  compilePredicate,
  compilePredicateSet,
  MAX_MERGE_GROUP,
  matchPredicate,
  type Predicate,
  type RegexEngine,
  re2jsEngine,
} from "../src/index.js";

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

/** `count` realistic command patterns on one path, each with its own word (so none is a copy of another). */
function manyPatterns(count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = `w${i.toString(36)}`;
    const shapes = [
      `(^|[;&|()\\n])\\s*(sudo\\s+)?${w}(\\s|$)`,
      `\\b${w}\\b.*\\|\\s*(sh|bash)\\b`,
      `${w}\\s+(-f|--force)`,
      `>\\s*/dev/${w}`,
      `\\b${w}\\s+-9\\s+1\\b`,
    ];
    out.push(shapes[i % shapes.length] as string);
  }
  return out;
}

/** Unseen command strings built from the patterns' own words, so the automata meet many partial matches. */
function unseenCommands(count: number, words: number, seed: number): string[] {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const parts: string[] = [];
    for (let j = 0; j < 6; j++)
      parts.push(
        `w${next(words * 2).toString(36)}${next(3) ? " " : " | "}${["ls", "-f", "/dev/x", "-9"][next(4)]}`,
      );
    out.push(`${parts.join(" && ")} #${seed}-${k}`);
  }
  return out;
}

// What these groups cost against testing each pattern separately, on strings never seen before, at 10 to 10,000
// patterns on one path, is measured by the bench (`bench/suites/01-policy.mjs`), never by a timed test here: a timed
// assertion fails under load, as it did in a full `npm test` with other suites running.
describe("compilePredicateSet: bounded merge groups", () => {
  it(`never compiles an alternation of more than MAX_MERGE_GROUP (${MAX_MERGE_GROUP}) branches`, () => {
    const branches: number[] = [];
    const counting: RegexEngine = {
      compile(pattern: string): CompiledRegex {
        branches.push(pattern.split("|(?:").length);
        return re2jsEngine.compile(pattern);
      },
    };
    // Case-folded patterns tell no required literal, so they are merged into alternations.
    const predicates = manyPatterns(1000).map((regex) =>
      compilePredicate({ source: "arguments", any: "commands[*].command", regex: `(?i)${regex}` }),
    );
    expect(predicates.every((q) => q.pattern.requiredLiterals === undefined)).toBe(true);
    compilePredicateSet(predicates, { engine: counting });
    expect(branches.length).toBe(Math.ceil(1000 / MAX_MERGE_GROUP));
    expect(Math.max(...branches)).toBe(MAX_MERGE_GROUP);
  });

  it("tests patterns with required literals one by one behind chunk gates, compiling no alternation", () => {
    const compiled: string[] = [];
    const counting: RegexEngine = {
      compile(pattern: string): CompiledRegex {
        compiled.push(pattern);
        return re2jsEngine.compile(pattern);
      },
    };
    const predicates = manyPatterns(1000).map((regex) =>
      compilePredicate({ source: "arguments", any: "commands[*].command", regex }),
    );
    expect(predicates.every((q) => (q.pattern.requiredLiterals?.length ?? 0) > 0)).toBe(true);
    const set = compilePredicateSet(predicates, { engine: counting });
    expect(compiled).toEqual([]);
    for (const command of [...unseenCommands(200, 1000, 3), "w1b -f", "x > /dev/w2", "ls"]) {
      const input = { arguments: { commands: [{ command }] } };
      expect(set.matchAny(input)).toBe(predicates.some((q) => matchPredicate(q, input)));
    }
  });

  it("answers like predicates.some(matchPredicate) past one merge group, with \\Q and inline flags mixed in", () => {
    const regexes = [...manyPatterns(45), "\\Qw3 |\\E", "(?i)W7\\b", "^w1b -f$"];
    const predicates = regexes.map((regex) =>
      compilePredicate({ source: "arguments", any: "commands[*].command", regex }),
    );
    const set = compilePredicateSet(predicates);
    const texts = [...unseenCommands(300, 45, 7), "w3 |", "x W7", "w1b -f", "ls"];
    let matched = 0;
    for (const command of texts) {
      const input = { arguments: { commands: [{ command: "echo" }, { command }] } };
      const expected = predicates.some((q) => matchPredicate(q, input));
      if (expected) matched++;
      expect(set.matchAny(input)).toBe(expected);
    }
    expect(matched).toBeGreaterThan(10);
    expect(matched).toBeLessThan(texts.length);
  });

  it("still walks the other paths when one path meets a throwing getter", () => {
    const set = compilePredicateSet([p("a.v", "x"), p("a.v", "y"), p("b", "z"), p("b", "q")]);
    const hostile = Object.defineProperty({}, "v", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const input = { arguments: { a: hostile, b: "z" } };
    expect([p("a.v", "x"), p("b", "z")].some((q) => matchPredicate(q, input))).toBe(true);
    expect(set.matchAny(input)).toBe(true);
  });
});
