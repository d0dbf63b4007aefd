import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CompiledRegex,
  compileGlob,
  globCovers,
  isValidGlob,
  MAX_GLOB_BYTES,
  matchGlob,
  type RegexEngine,
} from "../src/index.js";

/** Reference matcher: whole-string glob match over code points by dynamic programming. */
function referenceMatch(pattern: string, identity: string): boolean {
  const p = Array.from(pattern);
  const s = Array.from(identity);
  // row[j]: the pattern tokens so far match exactly s[0..j)
  let row = s.map(() => false);
  row = [true, ...row];
  for (const token of p) {
    const next = row.map(() => false);
    for (let j = 0; j <= s.length; j++) {
      if (token === "*") next[j] = row[j] === true || (j > 0 && next[j - 1] === true);
      else if (j > 0 && row[j - 1] === true) next[j] = token === "?" || token === s[j - 1];
    }
    row = next;
  }
  return row[s.length] === true;
}

/** Reference for globCovers: the rule of tool-api.md §9.6 by plain backtracking. */
function referenceCovers(g: readonly string[], f: readonly string[]): boolean {
  if (g.length === 0) return f.length === 0;
  const [head, ...rest] = g;
  if (head === "*") {
    for (let k = 0; k <= f.length; k++) if (referenceCovers(rest, f.slice(k))) return true;
    return false;
  }
  if (f.length === 0) return false;
  const first = f[0];
  const consumes = head === "?" ? first !== "*" : first === head;
  return consumes && referenceCovers(rest, f.slice(1));
}

describe("identity globs (predicate.md §8)", () => {
  it.each([
    ["mcp/*", "mcp/search/a/b", true],
    ["builtin/bash", "builtin/bash", true],
    ["builtin/bash", "builtin/bash2", false],
    ["builtin/bash", "Builtin/bash", false],
    ["builtin/?", "builtin/ab", false],
    ["builtin/?", "builtin/a", true],
    ["a.b", "axb", false],
    ["a.b", "a.b", true],
    ["acp:*", "acp:blocked\nextra", true],
    ["acp:blocked", "acp:blocked\n", false],
    ["*", "", true],
    ["*", "anything/at\nall", true],
    ["?", "", false],
    ["?", "\n", true],
    ["?", "😀", true],
    ["??", "😀", false],
    ["a?c", "a\nc", true],
    ["*/bash", "builtin/bash", true],
    ["*/bash", "builtin/bash\n", false],
    ["*bash", "builtin/Bash", false],
    ["mcp/*/read", "mcp/a/b/read", true],
    ["mcp/*/read", "mcp/a/b/reads", false],
    ["mcp/*", "mcp", false],
    ["mcp/*", "mcp/", true],
    [" mcp/*", "mcp/x", false],
    [" mcp/*", " mcp/x", true],
    ["a+b", "aab", false],
    ["a+b", "a+b", true],
    ["(a|b)", "a", false],
    ["(a|b)", "(a|b)", true],
    ["[ab]", "a", false],
    ["[ab]", "[ab]", true],
    ["a{2}", "aa", false],
    ["^a$", "^a$", true],
    ["^a$", "a", false],
    ["a\\*", "a\\*", true],
    ["a\\*", "a*", false],
    ["a\\*", "a\\xyz", true],
    ["\\d", "1", false],
    ["\\d", "\\d", true],
    ["é*", "éa", true],
    ["\ud83d*", "😀", false],
    ["\ud83d*", "\ud83dx", true],
    ["?\ude00", "😀", false],
    ["a*b?c*", "axxbyc", true],
    ["a*b?c*", "axxbc", false],
  ])("%j matches %j: %s", (pattern, identity, expected) => {
    expect(compileGlob(pattern).test(identity)).toBe(expected);
    expect(matchGlob(pattern, identity)).toBe(expected);
    expect(referenceMatch(pattern, identity)).toBe(expected);
  });

  it("keeps the pattern untrimmed and is immutable", () => {
    const glob = compileGlob(" a* ");
    expect(glob.pattern).toBe(" a* ");
    expect(Object.isFrozen(glob)).toBe(true);
  });

  it("returns false for a non-string identity", () => {
    for (const pattern of ["a", "a*", "a?*"]) {
      expect(compileGlob(pattern).test(undefined as unknown as string)).toBe(false);
      expect(compileGlob(pattern).test(1 as unknown as string)).toBe(false);
    }
  });

  it("compiles once with the engine passed in the options", () => {
    const compiled: string[] = [];
    const engine: RegexEngine = {
      compile(pattern: string): CompiledRegex {
        compiled.push(pattern);
        return { test: () => true };
      },
    };
    const glob = compileGlob("a?b*", { engine });
    expect(glob.test("x")).toBe(true);
    expect(glob.test("y")).toBe(true);
    expect(compiled).toHaveLength(1);
  });

  it("agrees with a reference matcher on random globs and identities", () => {
    const pattern = fc
      .array(fc.constantFrom("a", "b", "*", "?", ".", "\n", "/"), { maxLength: 8 })
      .map((t) => t.join(""));
    const identity = fc
      .array(fc.constantFrom("a", "b", ".", "\n", "/", "*", "?", "é"), { maxLength: 10 })
      .map((t) => t.join(""));
    fc.assert(
      fc.property(pattern, identity, (g, s) => {
        expect(compileGlob(g).test(s)).toBe(referenceMatch(g, s));
      }),
      { seed: 424242, numRuns: 5000 },
    );
  });

  it("agrees with the reference matcher on arbitrary unicode text", () => {
    const text = fc.string({ unit: "binary", maxLength: 6 });
    const pattern = fc
      .array(fc.oneof(fc.constantFrom("*", "?"), fc.string({ unit: "binary", maxLength: 2 })), {
        maxLength: 4,
      })
      .map((t) => t.join(""));
    fc.assert(
      fc.property(pattern, text, fc.boolean(), (g, s, embed) => {
        const identity = embed ? g.replace(/[*?]/g, "") + s : s;
        expect(compileGlob(g).test(identity)).toBe(referenceMatch(g, identity));
      }),
      { seed: 77, numRuns: 2000 },
    );
  });
});

describe("glob validity", () => {
  it.each([
    ["a", true],
    ["*", true],
    [" a ", true],
    ["a".repeat(MAX_GLOB_BYTES), true],
    ["a".repeat(MAX_GLOB_BYTES + 1), false],
    ["é".repeat(128), true],
    ["é".repeat(129), false],
    ["", false],
    [" ", false],
    ["\t\n \r", false],
    ["\u00a0\u2028", false],
    [" * ", true],
  ])("%j → %s", (glob, expected) => {
    expect(isValidGlob(glob)).toBe(expected);
  });

  it("rejects non-strings", () => {
    for (const value of [undefined, null, 1, ["a"], { a: 1 }]) expect(isValidGlob(value)).toBe(false);
  });
});

describe("globCovers (tool-api.md §9.6)", () => {
  it.each([
    ["*", "anything", true],
    ["*", "a*", true],
    ["*", "", true],
    ["*", "*", true],
    ["mcp/*", "mcp/search/*", true],
    ["mcp/*", "mcp/search/public", true],
    ["mcp/search/*", "mcp/*", false],
    ["builtin/bash", "builtin/bash", true],
    ["builtin/bash", "builtin/bash2", false],
    ["builtin/?", "builtin/a", true],
    ["builtin/?", "builtin/?", true],
    ["builtin/?", "builtin/*", false],
    ["builtin/a", "builtin/?", false],
    ["a*", "a?", true],
    ["a?", "a*", false],
    ["?*", "*?", false],
    ["*?", "?*", false],
    ["**", "*", true],
    ["*a*", "xay", true],
    ["*a*", "x*y", false],
    ["", "", true],
    ["", "*", false],
    ["a", "", false],
    ["é?", "éé", true],
  ])("%j covers %j: %s", (g, f, expected) => {
    expect(globCovers(g, f)).toBe(expected);
    expect(referenceCovers(Array.from(g), Array.from(f))).toBe(expected);
  });

  const glob = fc.array(fc.constantFrom("a", "b", "*", "?"), { maxLength: 6 }).map((t) => t.join(""));

  it("agrees with the rule applied by brute-force backtracking", () => {
    fc.assert(
      fc.property(glob, glob, (g, f) => {
        expect(globCovers(g, f)).toBe(referenceCovers(Array.from(g), Array.from(f)));
      }),
      { seed: 1234, numRuns: 5000 },
    );
  });

  it("is never a false warning: when g covers f, g matches every identity f matches", () => {
    const alphabet = ["a", "b", "c"];
    const identities: string[] = [""];
    for (let length = 1; length <= 4; length++) {
      for (const prefix of identities.filter((s) => s.length === length - 1)) {
        for (const c of alphabet) identities.push(prefix + c);
      }
    }
    let covered = 0;
    fc.assert(
      fc.property(glob, glob, (g, f) => {
        if (!globCovers(g, f)) return;
        covered++;
        for (const s of identities) if (matchGlob(f, s)) expect(matchGlob(g, s)).toBe(true);
      }),
      { seed: 98765, numRuns: 2000 },
    );
    expect(covered).toBeGreaterThan(100);
  });
});
