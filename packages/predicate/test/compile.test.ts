import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import {
  type CompiledRegex,
  compilePredicate,
  MAX_ANY_BYTES,
  MAX_ANY_SEGMENTS,
  MAX_REGEX_BYTES,
  matchPredicate,
  type RegexEngine,
  safeCompilePredicate,
} from "../src/index.js";

const RM = "(^|[;&|()\\n])\\s*(sudo\\s+)?(/usr/bin/|/bin/)?rm(\\s|$)";
const base = { source: "arguments", any: "commands[*].command", regex: RM };
const segments = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`).join(".");

const valid: Array<[string, unknown]> = [
  ["the spec example", base],
  ["an effects predicate", { source: "effects", any: "files[*].path", regex: "protected\\.txt$" }],
  ["a single segment", { ...base, any: "command" }],
  ["a single star segment", { ...base, any: "tags[*]" }],
  ["underscores and digits in keys", { ...base, any: "_a1._B2[*].c_3" }],
  ["a __proto__ segment", JSON.parse('{"source":"arguments","any":"__proto__.x","regex":"a"}')],
  [`${MAX_ANY_SEGMENTS} segments`, { ...base, any: segments(16) }],
  [`an any of ${MAX_ANY_BYTES} bytes`, { ...base, any: "a".repeat(256) }],
  ["a one-space regex (not trimmed)", { ...base, regex: " " }],
  [`a regex of ${MAX_REGEX_BYTES} ASCII bytes`, { ...base, regex: "a".repeat(1024) }],
  ['"é" x 512 (1024 bytes)', { ...base, regex: "é".repeat(512) }],
  ["inline flag (?i)", { ...base, regex: "(?i)rm" }],
  ["inline flag (?m)", { ...base, regex: "(?m)^rm$" }],
  ["inline flag (?s)", { ...base, regex: "(?s)a.b" }],
  ["a null-prototype object", Object.assign(Object.create(null), base)],
];

type Case = [string, unknown, Array<[path: string, message: string]>];
const invalid: Case[] = [
  // 1. not an object: stop
  ["null", null, [["", "when must be an object"]]],
  ["an array", [base], [["", "when must be an object"]]],
  ["a string", "arguments", [["", "when must be an object"]]],
  ["a number", 1, [["", "when must be an object"]]],
  ["undefined", undefined, [["", "when must be an object"]]],
  // 2. unknown keys, one issue each
  ["one unknown key", { ...base, path: "x" }, [["/path", "unknown when field: path"]]],
  [
    "two unknown keys, pointer-escaped",
    { ...base, extra: 1, "a/b~c": 2 },
    [
      ["/extra", "unknown when field: extra"],
      ["/a~1b~0c", "unknown when field: a/b~c"],
    ],
  ],
  // 3. source
  [
    "missing source (the pre-v2 form)",
    { any: base.any, regex: RM },
    [["/source", "when.source must be arguments or effects"]],
  ],
  [
    "an unknown source",
    { ...base, source: "args" },
    [["/source", "when.source must be arguments or effects"]],
  ],
  ["a null source", { ...base, source: null }, [["/source", "when.source must be arguments or effects"]]],
  [
    "a source in capitals",
    { ...base, source: "Effects" },
    [["/source", "when.source must be arguments or effects"]],
  ],
  // 4a. any is a string of 1 to 256 bytes
  ["missing any", { source: "arguments", regex: RM }, [["/any", "when.any must be a bounded path"]]],
  ["an empty any", { ...base, any: "" }, [["/any", "when.any must be a bounded path"]]],
  ["a non-string any", { ...base, any: ["a"] }, [["/any", "when.any must be a bounded path"]]],
  [
    `an any of ${MAX_ANY_BYTES + 1} bytes`,
    { ...base, any: "a".repeat(257) },
    [["/any", "when.any must be a bounded path"]],
  ],
  [
    "an any of 129 characters but 258 bytes",
    { ...base, any: "é".repeat(129) },
    [["/any", "when.any must be a bounded path"]],
  ],
  [
    "4a wins over 4b and 4c",
    { ...base, any: "-.".repeat(150) },
    [["/any", "when.any must be a bounded path"]],
  ],
  // 4b. at most 16 segments
  [
    `${MAX_ANY_SEGMENTS + 1} segments`,
    { ...base, any: segments(17) },
    [["/any", "when.any path is too deep"]],
  ],
  ["4b wins over 4c", { ...base, any: "-.".repeat(16) + "-" }, [["/any", "when.any path is too deep"]]],
  // 4c. segment grammar
  ...(
    [
      "commands[0].command",
      "a[*][*]",
      "foo-bar",
      "[*]",
      "[*].a",
      ".a",
      "a.",
      "a..b",
      "1a",
      "a b",
      " a",
      "a[*]b",
      "a[]",
      "a*",
      "é",
      "a/b",
    ] as const
  ).map(
    (any): Case => [
      `the path ${JSON.stringify(any)}`,
      { ...base, any },
      [["/any", `invalid when.any path: ${any}`]],
    ],
  ),
  // 5a. regex is a string of 1 to 1024 bytes
  [
    "missing regex",
    { source: "arguments", any: "a" },
    [["/regex", "when.regex must be a nonempty pattern of at most 1024 bytes"]],
  ],
  [
    "an empty regex",
    { ...base, regex: "" },
    [["/regex", "when.regex must be a nonempty pattern of at most 1024 bytes"]],
  ],
  [
    "a non-string regex",
    { ...base, regex: 1 },
    [["/regex", "when.regex must be a nonempty pattern of at most 1024 bytes"]],
  ],
  [
    `a regex of ${MAX_REGEX_BYTES + 1} bytes`,
    { ...base, regex: "a".repeat(1025) },
    [["/regex", "when.regex must be a nonempty pattern of at most 1024 bytes"]],
  ],
  [
    '"é" x 513 (1026 bytes, 513 characters)',
    { ...base, regex: "é".repeat(513) },
    [["/regex", "when.regex must be a nonempty pattern of at most 1024 bytes"]],
  ],
  [
    "5a wins over 5b",
    { ...base, regex: `(${"a".repeat(1024)}` },
    [["/regex", "when.regex must be a nonempty pattern of at most 1024 bytes"]],
  ],
  // 5b. RE2 with default flags
  [
    "a lookahead",
    { ...base, regex: "(?=a)" },
    [["/regex", "invalid RE2 when.regex: error parsing regexp: invalid or unsupported Perl syntax: `(?=`"]],
  ],
  [
    "a negative lookahead",
    { ...base, regex: "a(?!b)" },
    [["/regex", "invalid RE2 when.regex: error parsing regexp: invalid or unsupported Perl syntax: `(?!`"]],
  ],
  [
    "a lookbehind",
    { ...base, regex: "(?<=a)b" },
    [["/regex", "invalid RE2 when.regex: error parsing regexp: invalid named capture: `(?<=a)b`"]],
  ],
  [
    "a negative lookbehind",
    { ...base, regex: "(?<!a)b" },
    [["/regex", "invalid RE2 when.regex: error parsing regexp: invalid named capture: `(?<!a)b`"]],
  ],
  [
    "a back-reference",
    { ...base, regex: "(a)\\1" },
    [["/regex", "invalid RE2 when.regex: error parsing regexp: invalid escape sequence: `\\1`"]],
  ],
  [
    "an unclosed group",
    { ...base, regex: "(" },
    [["/regex", "invalid RE2 when.regex: error parsing regexp: missing closing ): `(`"]],
  ],
  [
    "a repeat count over 1000",
    { ...base, regex: "a{1001}" },
    [["/regex", "invalid RE2 when.regex: error parsing regexp: invalid repeat count: `{1001}`"]],
  ],
  // every issue at once, in check order
  [
    "all checks failing",
    { zz: true, source: "x", any: "a..b", regex: "(?=x)" },
    [
      ["/zz", "unknown when field: zz"],
      ["/source", "when.source must be arguments or effects"],
      ["/any", "invalid when.any path: a..b"],
      ["/regex", "invalid RE2 when.regex: error parsing regexp: invalid or unsupported Perl syntax: `(?=`"],
    ],
  ],
  [
    "an empty object",
    {},
    [
      ["/source", "when.source must be arguments or effects"],
      ["/any", "when.any must be a bounded path"],
      ["/regex", "when.regex must be a nonempty pattern of at most 1024 bytes"],
    ],
  ],
];

describe("compile: valid predicates", () => {
  it.each(valid)("%s compiles", (_name, input) => {
    const result = safeCompilePredicate(input);
    expect(result.ok).toBe(true);
    const predicate = compilePredicate(input);
    const json = input as Record<string, unknown>;
    expect(predicate.toJSON()).toEqual({ source: json.source, any: json.any, regex: json.regex });
  });
});

describe("compile: invalid predicates", () => {
  it.each(invalid)("%s", (_name, input, expected) => {
    const issues = expected.map(([path, message]) => ({ code: "predicate_invalid", message, path }));
    expect(safeCompilePredicate(input)).toEqual({ ok: false, issues });
    let thrown: unknown;
    try {
      compilePredicate(input);
    } catch (error) {
      thrown = error;
    }
    expect(isContractError(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: "predicate_invalid",
      issues,
      message: expected.map(([, message]) => message).join("; "),
    });
  });
});

describe("compiled predicate", () => {
  it("keeps the fields, the parsed path and the compiled regex", () => {
    const predicate = compilePredicate(base);
    expect(predicate.source).toBe("arguments");
    expect(predicate.any).toBe("commands[*].command");
    expect(predicate.regex).toBe(RM);
    expect(predicate.segments).toEqual([
      { key: "commands", star: true },
      { key: "command", star: false },
    ]);
    expect(predicate.pattern.test("echo a&&rm b")).toBe(true);
    expect(JSON.parse(JSON.stringify(predicate))).toEqual(base);
  });

  it("is immutable", () => {
    const predicate = compilePredicate(base);
    expect(Object.isFrozen(predicate)).toBe(true);
    expect(Object.isFrozen(predicate.segments)).toBe(true);
    expect(Object.isFrozen(predicate.segments[0])).toBe(true);
    expect(() => {
      (predicate as { regex: string }).regex = "x";
    }).toThrow(TypeError);
    expect(() => {
      (predicate.segments as Array<unknown>).push({ key: "x", star: false });
    }).toThrow(TypeError);
  });

  it("does not depend on the input object after compiling", () => {
    const input = { ...base };
    const predicate = compilePredicate(input);
    input.regex = "x";
    input.any = "y";
    expect(predicate.regex).toBe(RM);
    expect(predicate.any).toBe("commands[*].command");
  });

  it("reads own fields only", () => {
    const inherited = Object.assign(Object.create({ source: "arguments" }), { any: "a", regex: "b" });
    const result = safeCompilePredicate(inherited);
    expect(result.ok).toBe(false);
    // Field-level issues, not "when must be an object": the object's prototype does not matter.
    if (!result.ok) {
      expect(result.issues.map((i) => [i.path, i.message])).toEqual([
        ["/source", "when.source must be arguments or effects"],
      ]);
    }
    const own = Object.assign(Object.create({ inherited: 1 }), base);
    expect(safeCompilePredicate(own).ok).toBe(true);
    class When {
      source = "arguments";
      any = "a";
      regex = "b";
    }
    expect(safeCompilePredicate(new When()).ok).toBe(true);
  });

  it("compiles the regex once, with the engine passed in the options", () => {
    const compiled: string[] = [];
    let tests = 0;
    const engine: RegexEngine = {
      compile(pattern: string): CompiledRegex {
        compiled.push(pattern);
        return {
          test(text: string) {
            tests++;
            return text.includes("rm");
          },
        };
      },
    };
    const predicate = compilePredicate(base, { engine });
    for (let i = 0; i < 10; i++) {
      expect(matchPredicate(predicate, { arguments: { commands: [{ command: "rm x" }] } })).toBe(true);
    }
    expect(compiled).toEqual([RM]);
    expect(tests).toBe(10);
  });

  it("reports an engine's error text verbatim, whatever it throws", () => {
    const throwing = (value: unknown): RegexEngine => ({
      compile() {
        throw value;
      },
    });
    const issues = (engine: RegexEngine) => {
      const result = safeCompilePredicate(base, { engine });
      return result.ok ? [] : result.issues.map((i) => i.message);
    };
    expect(issues(throwing(new Error("nope")))).toEqual(["invalid RE2 when.regex: nope"]);
    expect(issues(throwing("plain text"))).toEqual(["invalid RE2 when.regex: plain text"]);
  });

  it("does not touch global state: another engine in one call leaves the default alone", () => {
    const never: RegexEngine = {
      compile: () => ({ test: () => false }),
    };
    const custom = compilePredicate(base, { engine: never });
    const standard = compilePredicate(base);
    const input = { arguments: { commands: [{ command: "rm x" }] } };
    expect(matchPredicate(custom, input)).toBe(false);
    expect(matchPredicate(standard, input)).toBe(true);
  });
});
