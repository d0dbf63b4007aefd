import { type CompiledRegex, type RegexEngine, re2jsEngine } from "@raw/predicate";
import { describe, expect, it } from "vitest";
import { createPolicy } from "../src/index.js";
import { compilePolicy } from "../src/policy.js";
import { RecencyCache } from "../src/policy-cache.js";

/** re2js, counting every pattern it compiles. */
function countingEngine(): RegexEngine & { compiled: number } {
  const engine = {
    compiled: 0,
    compile(pattern: string): CompiledRegex {
      engine.compiled++;
      return re2jsEngine.compile(pattern);
    },
  };
  return engine;
}

const CONDITIONAL_ON_STAR = [
  { match: "*", effect: "allow" },
  { match: "*", effect: "ask", when: { source: "arguments", any: "command", regex: "\\brm\\b" } },
  { match: "*", effect: "ask", when: { source: "arguments", any: "command", regex: "curl.*\\|\\s*sh" } },
  { match: "mcp/*", effect: "ask", when: { source: "arguments", any: "url", regex: "^http:" } },
];

describe("policy plan cache", () => {
  it("compiles no regex again while 10,000 identities cycle through a 1,024-plan cache", () => {
    const engine = countingEngine();
    const policy = createPolicy(CONDITIONAL_ON_STAR, { engine, maxCachedIdentities: 1024 });
    const identities = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? `mcp/s${i}/t` : `agent/tool${i}`));
    for (const id of identities) expect(policy.evaluate(id, { command: "ls" })).toBe("allow");
    const afterFirstCycle = engine.compiled;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < identities.length; i++) {
        const id = identities[i] as string;
        expect(policy.evaluate(id, { command: i % 100 === 0 ? "rm -rf x" : "ls", url: "https://a" })).toBe(
          i % 100 === 0 ? "ask" : "allow",
        );
      }
    }
    expect(engine.compiled).toBe(afterFirstCycle);
    expect(policy.evaluate("mcp/x/y", { url: "http://plain" })).toBe("ask");
    expect(policy.evaluate("agent/x", { url: "http://plain" })).toBe("allow");
  });

  it("shares one plan between identities the same rules apply to", () => {
    const compiled = compilePolicy(CONDITIONAL_ON_STAR, { maxCachedIdentities: 4 });
    const agent = compiled.plan("agent/a");
    for (let i = 0; i < 100; i++) expect(compiled.plan(`agent/t${i}`)).toBe(agent);
    const mcp = compiled.plan("mcp/a/b");
    expect(mcp).not.toBe(agent);
    expect(mcp.conditionalIndex).toEqual([3, 2, 1]);
    expect(agent.conditionalIndex).toEqual([2, 1]);
  });

  it("returns the same plan for a hot identity while many others pass through", () => {
    const compiled = compilePolicy(CONDITIONAL_ON_STAR, { maxCachedIdentities: 8 });
    const hot = compiled.plan("builtin/bash");
    for (let i = 0; i < 1_000; i++) {
      compiled.plan(`agent/other${i}`);
      expect(compiled.plan("builtin/bash")).toBe(hot);
    }
  });

  it("gives the same decisions after eviction", () => {
    const policy = createPolicy(CONDITIONAL_ON_STAR, { maxCachedIdentities: 2 });
    for (let i = 0; i < 50; i++) {
      expect(policy.evaluate(`mcp/s${i}/t`, { url: "http://x" })).toBe("ask");
      expect(policy.evaluate(`agent/t${i}`, { url: "http://x" })).toBe("allow");
      expect(policy.explain(`agent/t${i}`, { command: "rm x" })).toEqual({
        decision: "ask",
        ruleIndex: 1,
        hidden: false,
      });
    }
  });
});

describe("RecencyCache", () => {
  it("never holds more than its limit and never evicts a key used within the last limit/2 look-ups", () => {
    const cache = new RecencyCache<string, number>(16);
    for (let j = 0; j < 8; j++) cache.set(`hot${j}`, j);
    for (let i = 0; i < 2_000; i++) {
      cache.set(`k${i}`, i);
      for (let j = 0; j < 7; j++) expect(cache.get(`hot${j}`)).toBe(j);
      expect(cache.size).toBeLessThanOrEqual(16);
    }
    expect(cache.get("k0")).toBeUndefined();
    expect(cache.get("k1999")).toBe(1999);
  });
});
