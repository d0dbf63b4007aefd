import { describe, expect, it } from "vitest";
import { compilePredicate, matchPredicate, type Predicate, type PredicateInput } from "../src/index.js";

const RM = "(^|[;&|()\\n])\\s*(sudo\\s+)?(/usr/bin/|/bin/)?rm(\\s|$)";
const rm = compilePredicate({ source: "arguments", any: "commands[*].command", regex: RM });
const args = (value: unknown): PredicateInput => ({ arguments: value });
const p = (any: string, regex: string, source = "arguments") => compilePredicate({ source, any, regex });

describe("the §7 example", () => {
  it.each([
    [
      "the second element matches",
      { commands: [{ command: "touch marker" }, { command: "echo a&&rm b" }] },
      true,
    ],
    ["rmdir is not rm", { commands: [{ command: "rmdir x" }] }, false],
    ["commands[*] requires an array", { commands: { command: "rm x" } }, false],
    ["sudo rm", { commands: [{ command: "sudo rm -rf /" }] }, true],
    ["/bin/rm after a semicolon", { commands: [{ command: "ls; /bin/rm x" }] }, true],
    ["rm at the very end", { commands: [{ command: "echo x | rm" }] }, true],
    ["rm on a later line", { commands: [{ command: "echo x\nrm y" }] }, true],
    ["an empty array", { commands: [] }, false],
  ])("%s", (_name, value, expected) => {
    expect(matchPredicate(rm, args(value))).toBe(expected);
  });
});

describe("start value", () => {
  const effects = p("files[*].path", "protected\\.txt$", "effects");
  const files = { files: [{ path: "/w/protected.txt", operation: "write" }] };

  it("an absent source gives false", () => {
    expect(matchPredicate(rm, {})).toBe(false);
    expect(matchPredicate(rm, { arguments: undefined })).toBe(false);
    expect(matchPredicate(effects, { arguments: files })).toBe(false);
    expect(matchPredicate(effects, { effects: files })).toBe(true);
  });

  it("an effects predicate never reads the arguments, and an arguments predicate never reads the effects", () => {
    const read: string[] = [];
    const spy = {
      get arguments() {
        read.push("arguments");
        return files;
      },
      get effects() {
        read.push("effects");
        return files;
      },
    };
    expect(matchPredicate(effects, spy)).toBe(true);
    expect(read).toEqual(["effects"]);
    read.length = 0;
    expect(matchPredicate(p("files[*].path", "protected"), spy)).toBe(true);
    expect(read).toEqual(["arguments"]);
  });

  it("null and non-object sources give false", () => {
    for (const value of [null, 0, "rm x", true, ["rm x"]])
      expect(matchPredicate(rm, args(value))).toBe(false);
  });
});

describe("the walk", () => {
  it("reads own properties only", () => {
    const inherited = Object.create({ command: "rm x" });
    expect(matchPredicate(p("command", "rm"), args(inherited))).toBe(false);
    expect(matchPredicate(p("constructor", "Object"), args({}))).toBe(false);
    expect(matchPredicate(p("toString", "native"), args({}))).toBe(false);
    expect(matchPredicate(p("commands[*].command", "rm"), args({ commands: [inherited] }))).toBe(false);
  });

  it("treats a JSON __proto__ key as an ordinary own key", () => {
    const value = JSON.parse('{"__proto__":{"command":"rm x"}}');
    expect(matchPredicate(p("__proto__.command", "rm"), args(value))).toBe(true);
    expect(matchPredicate(p("command", "rm"), args(value))).toBe(false);
    expect(matchPredicate(p("__proto__", "rm"), args(JSON.parse('{"__proto__":"rm"}')))).toBe(true);
    expect(matchPredicate(p("__proto__", "rm"), args({}))).toBe(false);
    expect(
      matchPredicate(p("a[*].__proto__[*]", "x"), args(JSON.parse('{"a":[{"__proto__":["y","x"]}]}'))),
    ).toBe(true);
  });

  it("spreads arrays only at [*]", () => {
    expect(matchPredicate(p("commands.command", "rm"), args({ commands: [{ command: "rm x" }] }))).toBe(
      false,
    );
    expect(matchPredicate(p("tags", "x"), args({ tags: ["x"] }))).toBe(false);
    expect(matchPredicate(p("tags[*]", "x"), args({ tags: ["a", "x"] }))).toBe(true);
    expect(matchPredicate(p("tags[*]", "x"), args({ tags: "x" }))).toBe(false);
    expect(matchPredicate(p("tags[*]", "x"), args({ tags: [["x"]] }))).toBe(false);
    expect(
      matchPredicate(p("m[*].n[*]", "x"), args({ m: [{ n: ["a"] }, { n: "x" }, { n: ["b", "x"] }] })),
    ).toBe(true);
    expect(matchPredicate(p("m[*].n[*]", "x"), args({ m: [{ n: ["a"] }, { n: "x" }] }))).toBe(false);
  });

  it("returns false when a field is absent", () => {
    expect(matchPredicate(rm, args({}))).toBe(false);
    expect(matchPredicate(rm, args({ commands: [{}] }))).toBe(false);
    expect(matchPredicate(rm, args({ commands: [null, 1, "rm x", [{ command: "rm x" }]] }))).toBe(false);
    expect(matchPredicate(p("a.b.c", "x"), args({ a: { b: null } }))).toBe(false);
  });

  it("ignores non-strings, never converting them", () => {
    const any = p("v", ".");
    for (const v of [1, 0, true, false, null, {}, [], ["x"], { toString: () => "x" }]) {
      expect(matchPredicate(any, args({ v }))).toBe(false);
    }
    expect(matchPredicate(p("v", "1"), args({ v: 1 }))).toBe(false);
    expect(matchPredicate(p("v", "null"), args({ v: null }))).toBe(false);
    expect(matchPredicate(p("v[*]", "1"), args({ v: [1, "x1"] }))).toBe(true);
  });

  it("tolerates sparse arrays and throwing getters without throwing", () => {
    // biome-ignore lint/suspicious/noSparseArray: a hole is part of the case
    expect(matchPredicate(p("v[*]", "x"), args({ v: [, "x"] }))).toBe(true);
    const hostile = {
      get v() {
        throw new Error("boom");
      },
    };
    expect(matchPredicate(p("v", "x"), args(hostile))).toBe(false);
    const proxy = new Proxy(
      {},
      {
        has: () => true,
        getOwnPropertyDescriptor: () => {
          throw new Error("trap");
        },
      },
    );
    expect(matchPredicate(p("v", "x"), args(proxy))).toBe(false);
  });

  it("never throws on nonsense input", () => {
    expect(matchPredicate(rm, undefined as unknown as PredicateInput)).toBe(false);
    expect(matchPredicate(rm, null as unknown as PredicateInput)).toBe(false);
    expect(matchPredicate({} as Predicate, args({ a: "b" }))).toBe(false);
    expect(matchPredicate(null as unknown as Predicate, args({ a: "b" }))).toBe(false);
  });
});

describe("regex semantics", () => {
  it.each([
    ["an unanchored search", "b", "abc", true],
    ["^ anchors at the start of the text", "^b", "abc", false],
    ["$ anchors at the end of the text", "a$", "a\nb", false],
    ["$ does not match before a final newline", "a$", "a\n", false],
    ["(?m) makes $ a line anchor", "(?m)a$", "a\nb", true],
    ["(?m) makes ^ a line anchor", "(?m)^b", "a\nb", true],
    [". does not match a newline", "a.b", "a\nb", false],
    ["(?s) lets . match a newline", "(?s)a.b", "a\nb", true],
    ["matching is case-sensitive", "rm", "RM", false],
    ["(?i) ignores case", "(?i)rm", "RM", true],
    ["a one-space pattern", " ", "a b", true],
    [". matches one code point", "^.$", "😀", true],
    ["\\pL matches letters", "^\\pL+$", "héllo", true],
  ])("%s", (_name, regex, text, expected) => {
    expect(matchPredicate(p("v", regex), args({ v: text }))).toBe(expected);
  });

  it("(a+)+$ against 20,000 a's and ! completes and is false (linear time)", () => {
    const predicate = p("v", "(a+)+$");
    expect(matchPredicate(predicate, args({ v: `${"a".repeat(20_000)}!` }))).toBe(false);
    expect(matchPredicate(predicate, args({ v: "a".repeat(20_000) }))).toBe(true);
  });
});
