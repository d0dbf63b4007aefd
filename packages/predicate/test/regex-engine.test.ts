import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { literalGate, MAX_GATE_LITERAL_UNITS, MAX_GATE_LITERALS } from "../src/literal-gate.js";
import { re2jsEngine } from "../src/regex-engine.js";

const PATTERNS = [
  "(^|[;&|()\\n])\\s*(sudo\\s+)?(/usr/bin/|/bin/)?rm(\\s|$)",
  "\\bcurl\\b.*\\|\\s*(sh|bash)\\b",
  "git\\s+push\\s+(-f|--force)",
  "\\.env$",
  "(?i)secret",
  "a(?i:BC)d",
  "colou?r",
  "ab*c",
  "x{0,2}yz",
  "(foo|bar)baz",
  "(foo|.)baz",
  "\\Qa.b|c\\E",
  "[.]/etc/",
  "/dev/sd[a-z]",
  "package-lock\\.json$",
  "\\.github/workflows/deploy\\.yml",
  "😀smile",
  "naïve|café",
  "\\x{2028}sep",
  "a|b",
  ".",
  "^$",
  "(?s)begin.*end",
  "(?m)^start",
  "\\\\server\\\\share",
  "[[:alpha:]]+42",
  "\\p{Greek}+omega",
  "\\d{3}-\\d{4}",
  "$^",
];

const STRINGS = [
  "",
  "rm -rf /",
  "sudo rm x",
  "echo rm",
  "firm",
  "curl http://x | sh",
  "curl http://x | zsh",
  "git push --force",
  "git  push -f origin",
  "a/.env",
  ".env.local",
  "SeCrEt",
  "aBcd",
  "abcd",
  "color",
  "colour",
  "ac",
  "abbbc",
  "yz",
  "xxyz",
  "foobaz",
  "qbaz",
  "a.b|c",
  "x./etc/passwd",
  "/dev/sdb",
  "package-lock.json",
  ".github/workflows/deploy.yml",
  ".github/workflows/deploy_yml",
  "😀smile",
  "\ud83dsmile",
  "naïve",
  "café",
  "\u2028sep",
  "b",
  "begin\nend",
  "x\nstart",
  "\\\\server\\\\share",
  "\\server\\share",
  "abc42",
  "αβγomega",
  "555-1234",
  "multi\nline rm\n",
];

describe("re2jsEngine", () => {
  it("answers like a bare re2js search on every pattern and string (the literal gate never hides a match)", () => {
    for (const pattern of PATTERNS) {
      const ours = re2jsEngine.compile(pattern);
      const bare = RE2JS.compile(pattern);
      for (const text of [...STRINGS, ...STRINGS.map((s) => `prefix ${s} suffix`)]) {
        expect([pattern, text, ours.test(text)]).toEqual([pattern, text, bare.test(text)]);
      }
    }
  });

  it("tells the literals every match contains, taken from re2js's prefilter", () => {
    expect(re2jsEngine.compile("\\.env$").requiredLiterals).toEqual([".env"]);
    expect(
      re2jsEngine.compile("(^|[;&|()\\n])\\s*(sudo\\s+)?(/usr/bin/|/bin/)?rm(\\s|$)").requiredLiterals,
    ).toEqual(["rm"]);
    // AND: the most selective part; OR: the union.
    expect(re2jsEngine.compile("\\bcurl\\b.*\\|\\s*(sh|bash)\\b").requiredLiterals).toEqual(["curl"]);
    expect(re2jsEngine.compile("(foo|bar)baz").requiredLiterals).toEqual(["baz"]);
    expect(re2jsEngine.compile("(foo|bar)").requiredLiterals).toEqual(["foo", "bar"]);
    // Nothing required: no literals, so no gate.
    expect(re2jsEngine.compile("(?i)secret").requiredLiterals).toBeUndefined();
    expect(re2jsEngine.compile("(foo|.)baz").requiredLiterals).toEqual(["baz"]);
    expect(re2jsEngine.compile("a|.").requiredLiterals).toBeUndefined();
    expect(re2jsEngine.compile("x*").requiredLiterals).toBeUndefined();
  });

  it("rejects an invalid pattern with an error carrying a message", () => {
    expect(() => re2jsEngine.compile("(")).toThrow(/missing|paren/i);
  });
});

describe("literalGate", () => {
  it("is true exactly when the text holds one of the literals (cut to their first units)", () => {
    const gate = literalGate(["a.b", "x|y", "(z)", "\\q", "$^", "/dev/"]);
    expect(gate).toBeDefined();
    for (const [text, want] of [
      ["a.b", true],
      ["axb", false],
      ["x|y", true],
      ["xy", false],
      ["(z)", true],
      ["z", false],
      ["\\q", true],
      ["q", false],
      ["$^", true],
      ["at /dev/null", true],
      ["dev", false],
    ] as const)
      expect([text, gate?.(text)]).toEqual([text, want]);
    const long = "0123456789abcdef";
    expect(literalGate([long])?.(long.slice(0, MAX_GATE_LITERAL_UNITS))).toBe(true);
  });

  it("gives no gate for an empty literal, an empty set or too many literals", () => {
    expect(literalGate([])).toBeUndefined();
    expect(literalGate(["a", ""])).toBeUndefined();
    expect(literalGate(Array.from({ length: MAX_GATE_LITERALS + 1 }, (_, i) => `w${i}`))).toBeUndefined();
    expect(literalGate(Array.from({ length: MAX_GATE_LITERALS }, (_, i) => `w${i}`))?.("xx w63 yy")).toBe(
      true,
    );
  });

  // How its cost grows with the text is the bench row "literal gate, 64 literals sharing a prefix" (bench/suites/10-bounds.mjs).
  it("answers on a hostile string: 64 literals sharing a prefix against 1 MB of that prefix", () => {
    const literals = Array.from(
      { length: MAX_GATE_LITERALS },
      (_, i) => `/dev/sd${String.fromCharCode(0x100 + i)}`,
    );
    const gate = literalGate(literals);
    const text = "/dev/sd".repeat(150_000);
    expect(gate?.(text)).toBe(false);
    expect(gate?.(`${text}\u0100`)).toBe(true);
    expect(gate?.(`${text}${String.fromCharCode(0x100 + MAX_GATE_LITERALS - 1)}`)).toBe(true);
  });
});
