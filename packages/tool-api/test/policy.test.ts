import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPolicy, lintRules, parseRules } from "../src/index.js";

const rm = { source: "arguments", any: "commands[*].command", regex: "(^|[;&|()\\n])\\s*rm(\\s|$)" };

describe("parseRules (tool-api.md §9.1)", () => {
  it("accepts valid rules and freezes them; a rule without when has no when key", () => {
    const result = parseRules([
      { match: " spaced ", effect: "allow" },
      { match: "builtin/bash", effect: "ask", when: rm },
    ]);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(Object.isFrozen(result.rules)).toBe(true);
    expect(Object.isFrozen(result.rules[0])).toBe(true);
    expect(result.rules[0]).toEqual({ match: " spaced ", effect: "allow" });
    expect(Object.hasOwn(result.rules[0] as object, "when")).toBe(false);
    expect(result.rules[1]?.when?.regex).toBe(rm.regex);
  });

  it("rejects a non-array", () => {
    expect(parseRules({})).toEqual({
      ok: false,
      issues: [{ code: "rule_invalid", message: "rules must be an array", path: "" }],
    });
  });

  it("hints the nearest rule field for an unknown one", () => {
    expect(parseRules([{ match: "*", efect: "allow" }])).toEqual({
      ok: false,
      issues: [
        {
          code: "rule_invalid",
          message: "unknown rule field: efect",
          path: "/0/efect",
          hint: "did you mean `effect`?",
        },
        { code: "rule_invalid", message: "effect must be allow, ask or deny", path: "/0/effect" },
      ],
    });
  });

  it("reads a rule with another prototype by its own fields (tool-api.md §2.1 presence)", () => {
    const inherited = Object.assign(Object.create({ effect: "allow" }), { match: "*" });
    expect(parseRules([inherited])).toEqual({
      ok: false,
      issues: [{ code: "rule_invalid", message: "effect must be allow, ask or deny", path: "/0/effect" }],
    });
    class Rule {
      match = "*";
      effect = "deny";
    }
    const parsed = parseRules([
      new Rule(),
      Object.assign(Object.create({ note: 1 }), { match: "a", effect: "ask" }),
    ]);
    expect(parsed.ok && parsed.rules.map((r) => [r.match, r.effect])).toEqual([
      ["*", "deny"],
      ["a", "ask"],
    ]);
  });

  const cases: Array<[string, unknown, Array<{ code: string; message: string; path: string }>]> = [
    ["not an object", [1], [{ code: "rule_invalid", message: "rule must be an object", path: "/0" }]],
    ["an array rule", [[]], [{ code: "rule_invalid", message: "rule must be an object", path: "/0" }]],
    [
      "unknown field",
      [{ match: "*", effect: "allow", note: 1 }],
      [{ code: "rule_invalid", message: "unknown rule field: note", path: "/0/note" }],
    ],
    [
      "missing match",
      [{ effect: "allow" }],
      [
        {
          code: "rule_invalid",
          message: "match must be a non-empty glob of at most 256 bytes",
          path: "/0/match",
        },
      ],
    ],
    [
      "whitespace match",
      [{ match: " \t", effect: "allow" }],
      [
        {
          code: "rule_invalid",
          message: "match must be a non-empty glob of at most 256 bytes",
          path: "/0/match",
        },
      ],
    ],
    [
      "257-byte match",
      [{ match: "a".repeat(257), effect: "allow" }],
      [
        {
          code: "rule_invalid",
          message: "match must be a non-empty glob of at most 256 bytes",
          path: "/0/match",
        },
      ],
    ],
    [
      "bad effect",
      [{ match: "*", effect: "block" }],
      [{ code: "rule_invalid", message: "effect must be allow, ask or deny", path: "/0/effect" }],
    ],
    [
      "conditional allow",
      [{ match: "*", effect: "allow", when: rm }],
      [{ code: "rule_invalid", message: "conditional effect must be ask", path: "/0/effect" }],
    ],
    [
      "bad predicate",
      [
        { match: "*", effect: "allow" },
        { match: "*", effect: "ask", when: { source: "arguments", any: "a", regex: "(" } },
      ],
      [
        {
          code: "predicate_invalid",
          message: "invalid RE2 when.regex: error parsing regexp: missing closing ): `(`",
          path: "/1/when/regex",
        },
      ],
    ],
    [
      "predicate not an object",
      [{ match: "*", effect: "ask", when: null }],
      [{ code: "predicate_invalid", message: "when must be an object", path: "/0/when" }],
    ],
  ];
  it.each(cases)("%s", (_name, value, issues) => {
    expect(parseRules(value)).toEqual({ ok: false, issues });
  });

  it("reports all issues of all rules", () => {
    const result = parseRules([
      { x: 1 },
      3,
      { match: "a", effect: "deny", when: { any: "a.[*]", regex: "" } },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => `${i.code} ${i.path}`)).toEqual([
      "rule_invalid /0/x",
      "rule_invalid /0/match",
      "rule_invalid /0/effect",
      "rule_invalid /1",
      "rule_invalid /2/effect",
      "predicate_invalid /2/when/source",
      "predicate_invalid /2/when/any",
      "predicate_invalid /2/when/regex",
    ]);
  });

  it("accepts parsed rules again as they are", () => {
    const first = parseRules([{ match: "a", effect: "ask", when: rm }]);
    if (!first.ok) throw new Error("invalid");
    const again = parseRules([...first.rules]);
    expect(again.ok && again.rules[0]).toBe(first.rules[0]);
  });
});

describe("createPolicy (tool-api.md §9.2–9.5)", () => {
  it("defaults to allow and lets the last applicable rule win", () => {
    expect(createPolicy([]).evaluate("builtin/bash")).toBe("allow");
    const policy = createPolicy([
      { match: "*", effect: "deny" },
      { match: "builtin/*", effect: "ask" },
      { match: "builtin/bash", effect: "allow" },
    ]);
    expect(policy.evaluate("builtin/bash")).toBe("allow");
    expect(policy.evaluate("builtin/ls")).toBe("ask");
    expect(policy.evaluate("local/x")).toBe("deny");
  });

  it("applies conditional rules only with arguments, and only as ask", () => {
    const policy = createPolicy([
      { match: "*", effect: "allow" },
      { match: "builtin/bash", effect: "ask", when: rm },
    ]);
    const args = { commands: [{ command: "ls; rm -rf x" }] };
    expect(policy.evaluate("builtin/bash")).toBe("allow");
    expect(policy.evaluate("builtin/bash", args)).toBe("ask");
    expect(policy.evaluate("builtin/bash", { commands: [{ command: "rmdir x" }] })).toBe("allow");
    expect(policy.evaluate("builtin/bash2", args)).toBe("allow");
  });

  it("reads effects predicates from effects only", () => {
    const policy = createPolicy([
      { match: "*", effect: "ask", when: { source: "effects", any: "files[*].path", regex: "/protected/" } },
    ]);
    const effects = { files: [{ path: "/w/protected/a" }] };
    expect(policy.evaluate("t", {}, effects)).toBe("ask");
    expect(policy.evaluate("t", {})).toBe("allow");
    expect(policy.evaluate("t", undefined, effects)).toBe("allow");
    expect(policy.evaluate("t", effects)).toBe("allow");
  });

  it("hides on unconditional deny until a later unconditional allow or ask", () => {
    const hiddenRules = [
      { match: "mcp/*", effect: "deny" },
      { match: "mcp/*", effect: "ask", when: { source: "arguments", any: "q", regex: "." } },
    ];
    const policy = createPolicy(hiddenRules);
    expect(policy.isHidden("mcp/search")).toBe(true);
    expect(policy.explain("mcp/search", { q: "x" })).toEqual({
      decision: "deny",
      ruleIndex: 0,
      hidden: true,
    });
    expect(
      createPolicy([...hiddenRules, { match: "mcp/search", effect: "ask" }]).isHidden("mcp/search"),
    ).toBe(false);
    expect(createPolicy([...hiddenRules, { match: "mcp/*", effect: "allow" }]).isHidden("mcp/search")).toBe(
      false,
    );
    expect(policy.isHidden("builtin/bash")).toBe(false);
  });

  it("matches canonical identities, never aliases, and anchors globs", () => {
    const policy = createPolicy([
      { match: "mcp/search/private", effect: "deny" },
      { match: "acp:blocked", effect: "deny" },
    ]);
    expect(policy.isHidden("mcp/search/private")).toBe(true);
    expect(policy.isHidden("alias_private")).toBe(false);
    expect(policy.isHidden("acp:blocked")).toBe(true);
    expect(policy.isHidden("acp:blocked\n")).toBe(false);
    const star = createPolicy([{ match: "acp:*", effect: "deny" }]);
    expect(star.isHidden("acp:blocked\nextra")).toBe(true);
    expect(createPolicy([{ match: "builtin/?", effect: "deny" }]).isHidden("builtin/ab")).toBe(false);
    expect(createPolicy([{ match: "a.b", effect: "deny" }]).isHidden("axb")).toBe(false);
    expect(createPolicy([{ match: "*", effect: "deny" }]).isHidden("")).toBe(true);
  });

  it("explains the §9.5 example", () => {
    const policy = createPolicy([
      { match: "*", effect: "allow" },
      { match: "mcp/search/*", effect: "deny" },
      { match: "mcp/search/public", effect: "allow" },
      { match: "builtin/bash", effect: "ask", when: rm },
    ]);
    expect(policy.explain("mcp/search/private")).toEqual({ decision: "deny", ruleIndex: 1, hidden: true });
    expect(policy.explain("mcp/search/public")).toEqual({ decision: "allow", ruleIndex: 2, hidden: false });
    expect(policy.explain("builtin/bash", { commands: [{ command: "ls; rm -rf x" }] })).toEqual({
      decision: "ask",
      ruleIndex: 3,
      hidden: false,
    });
    expect(policy.explain("builtin/bash")).toEqual({ decision: "allow", ruleIndex: 0, hidden: false });
    expect(createPolicy([]).explain("x")).toEqual({ decision: "allow", ruleIndex: null, hidden: false });
  });

  it("ignores conditional rules before the last unconditional rule", () => {
    const policy = createPolicy([
      { match: "*", effect: "ask", when: { source: "arguments", any: "a", regex: "x" } },
      { match: "*", effect: "allow" },
    ]);
    expect(policy.evaluate("t", { a: "x" })).toBe("allow");
    expect(policy.explain("t", { a: "x" })).toEqual({ decision: "allow", ruleIndex: 1, hidden: false });
  });

  it("throws a ContractError for invalid raw rules", () => {
    expect(() => createPolicy([{ match: "", effect: "allow" }])).toThrow(
      "match must be a non-empty glob of at most 256 bytes",
    );
  });

  it("keeps a bounded cache and gives the same answers after eviction", () => {
    const policy = createPolicy([{ match: "x/*", effect: "deny" }], { maxCachedIdentities: 2 });
    for (let i = 0; i < 10; i++) {
      expect(policy.isHidden(`x/${i}`)).toBe(true);
      expect(policy.isHidden(`y/${i}`)).toBe(false);
    }
  });

  it("agrees with a direct reading of §9.2 (property)", () => {
    const glob = fc.constantFrom("*", "a*", "a/b", "?/b", "a/?", "*b", "b*");
    const identity = fc.constantFrom("a/b", "a/c", "b/b", "ab", "b");
    const rule = fc.oneof(
      fc.record({ match: glob, effect: fc.constantFrom("allow", "ask", "deny") }),
      fc.record({
        match: glob,
        effect: fc.constant("ask"),
        when: fc.constantFrom(
          { source: "arguments", any: "v", regex: "^y" },
          { source: "arguments", any: "v", regex: "s$" },
          { source: "arguments", any: "w", regex: "(?i)Z" },
        ),
      }),
    );
    const whenMatches = (when: { any: string; regex: string }, args: Record<string, string> | undefined) => {
      const value = args?.[when.any];
      return (
        typeof value === "string" &&
        new RegExp(when.regex.replace("(?i)", ""), when.regex.startsWith("(?i)") ? "i" : "").test(value)
      );
    };
    const globMatches = (g: string, s: string): boolean =>
      new RegExp(
        `^${g
          .replace(/[.+^${}()|[\]\\/]/g, "\\$&")
          .replace(/\*/g, ".*")
          .replace(/\?/g, ".")}$`,
        "s",
      ).test(s);
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 8 }),
        identity,
        fc.constantFrom(undefined, { v: "yes" }, { v: "no" }, { v: "nos", w: "z" }, { w: "Z" }),
        (rules, id, args: Record<string, string> | undefined) => {
          let expected = "allow";
          for (const r of rules) {
            if (!globMatches(r.match, id)) continue;
            if ("when" in r && (args === undefined || !whenMatches(r.when, args))) continue;
            expected = r.effect;
          }
          expect(createPolicy(rules).evaluate(id, args)).toBe(expected);
        },
      ),
      { seed: 9152, numRuns: 1000 },
    );
  });
});

describe("lintRules (tool-api.md §9.6)", () => {
  it("warns about a rule shadowed by a later unconditional rule, naming the smallest j", () => {
    expect(
      lintRules([
        { match: "mcp/search/a", effect: "deny" },
        { match: "mcp/*", effect: "ask", when: rm as never },
        { match: "mcp/search/?", effect: "allow" },
        { match: "*", effect: "allow" },
      ] as never),
    ).toEqual([
      {
        code: "rule_shadowed",
        path: "/0",
        message: "rule 0 can never decide: later unconditional rule 2 matches every identity it matches",
      },
      {
        code: "rule_shadowed",
        path: "/1",
        message: "rule 1 can never decide: later unconditional rule 3 matches every identity it matches",
      },
      {
        code: "rule_shadowed",
        path: "/2",
        message: "rule 2 can never decide: later unconditional rule 3 matches every identity it matches",
      },
    ]);
  });

  it("never warns when coverage cannot be shown", () => {
    expect(
      lintRules([
        { match: "a/*", effect: "deny" },
        { match: "a/?", effect: "allow" },
        { match: "*x", effect: "allow", when: {} },
      ]),
    ).toEqual([]);
    expect(
      lintRules([
        { match: "a?", effect: "deny" },
        { match: "ab", effect: "allow" },
      ]),
    ).toEqual([]);
    expect(
      lintRules([
        { match: "a*", effect: "deny" },
        { match: "a?*", effect: "allow" },
      ]),
    ).toEqual([]);
  });

  it("works on parsed rules", () => {
    const parsed = parseRules([
      { match: "x", effect: "deny" },
      { match: "x", effect: "allow" },
    ]);
    if (!parsed.ok) throw new Error("invalid");
    expect(lintRules(parsed.rules).map((w) => w.path)).toEqual(["/0"]);
  });
});
