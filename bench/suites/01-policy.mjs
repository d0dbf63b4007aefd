// Policy decision per call: ours against a hand-written floor and against gemini-cli-core's PolicyEngine (issue 7 §1).
import { createPolicy, parseRules } from "@raw/tool-api";
import { RE2JS } from "re2js";
import { fiftyRules, thousandCalls } from "../lib/fixtures.mjs";
import { compare, compareAsync, row, skipped } from "../lib/harness.mjs";
import { ensurePeer } from "../lib/peers.mjs";

const SUITE = "policy";

/** The floor: the same decisions coded by hand — rules grouped per identity once, re2js matchers precompiled. */
function handWritten(rules, identities) {
  const globToRe = (g) =>
    RE2JS.compile(
      `^${g
        .split("")
        .map((c) => (c === "*" ? ".*" : c === "?" ? "." : RE2JS.quote(c)))
        .join("")}$`,
      RE2JS.DOTALL,
    );
  const compiled = rules.map((r) => ({
    glob: globToRe(r.match),
    effect: r.effect,
    when: r.when ? { source: r.when.source, re: RE2JS.compile(r.when.regex), any: r.when.any } : undefined,
  }));
  const plans = new Map();
  for (const id of identities)
    plans.set(
      id,
      compiled.filter((r) => r.glob.test(id)),
    );
  const anyCommand = (args, re) => {
    const list = args?.commands;
    if (!Array.isArray(list)) return false;
    for (let i = 0; i < list.length; i++) {
      const c = list[i]?.command;
      if (typeof c === "string" && re.test(c)) return true;
    }
    return false;
  };
  const anyPath = (effects, re) => {
    const list = effects?.files;
    if (!Array.isArray(list)) return false;
    for (let i = 0; i < list.length; i++) {
      const p = list[i]?.path;
      if (typeof p === "string" && re.test(p)) return true;
    }
    return false;
  };
  return (identity, args, effects) => {
    const plan = plans.get(identity);
    for (let i = plan.length - 1; i >= 0; i--) {
      const r = plan[i];
      if (!r.when) return r.effect;
      if (args === undefined) continue;
      if (r.when.source === "arguments" ? anyCommand(args, r.when.re) : anyPath(effects, r.when.re))
        return r.effect;
    }
    return "allow";
  };
}

/** The same rules for gemini-cli-core: tool names without slashes, argsPattern over the stringified arguments. */
function geminiRules(rules, PolicyDecision) {
  const name = (glob) => (glob === "*" ? "*" : glob.replace(/^builtin\//, "builtin_").replace(/\//g, "_"));
  const decision = { allow: PolicyDecision.ALLOW, ask: PolicyDecision.ASK_USER, deny: PolicyDecision.DENY };
  return rules.map((r, index) => {
    const rule = { toolName: name(r.match), decision: decision[r.effect], priority: index + 1 };
    if (r.when) {
      const body = r.when.regex.replace(/^\^/, "").replace(/\$$/, '"').replace("(^|", '(^|"|');
      rule.argsPattern = new RegExp(r.when.source === "effects" ? `"path":"[^"]*${body}` : body);
    }
    return rule;
  });
}

export async function run() {
  const rows = [];
  const parsed = parseRules(fiftyRules());
  if (!parsed.ok) throw new Error(`rules invalid: ${JSON.stringify(parsed.issues)}`);
  const policy = createPolicy(parsed.rules);
  const calls = thousandCalls();
  const floor = handWritten(fiftyRules(), ["builtin/bash", "builtin/write_file"]);
  let asks = 0;
  for (const c of calls) {
    const ours = policy.evaluate(c.identity, c.arguments, c.effects);
    if (ours !== floor(c.identity, c.arguments, c.effects))
      throw new Error(`floor disagrees on ${JSON.stringify(c)}`);
    if (ours === "ask") asks++;
  }
  const t = compare(
    {
      ours: () => {
        for (let i = 0; i < calls.length; i++)
          policy.evaluate(calls[i].identity, calls[i].arguments, calls[i].effects);
      },
      floor: () => {
        for (let i = 0; i < calls.length; i++) floor(calls[i].identity, calls[i].arguments, calls[i].effects);
      },
    },
    { rounds: 9, ms: 80 },
  );
  rows.push(
    row(
      SUITE,
      "50 rules x 1,000 calls: ours / hand-written floor",
      t.ours / t.floor,
      { max: 1.3 },
      `ours ${(t.ours / 1000).toFixed(0)} ns/call, floor ${(t.floor / 1000).toFixed(0)} ns/call, ${asks} asks`,
    ),
  );

  const peer = ensurePeer("gemini", ["@google/gemini-cli-core"]);
  if (!peer.ok) {
    rows.push(skipped(SUITE, "vs gemini-cli-core PolicyEngine", peer.reason));
    return rows;
  }
  let PolicyEngine;
  let PolicyDecision;
  try {
    const root = peer.require.resolve("@google/gemini-cli-core/package.json").replace(/package\.json$/, "");
    ({ PolicyEngine } = await import(`${root}dist/src/policy/policy-engine.js`));
    ({ PolicyDecision } = await import(`${root}dist/src/policy/types.js`));
  } catch (error) {
    rows.push(skipped(SUITE, "vs gemini-cli-core PolicyEngine", `did not load: ${error.message}`));
    return rows;
  }
  const engine = new PolicyEngine({ rules: geminiRules(fiftyRules(), PolicyDecision) });
  const toolCall = (c) => ({ name: c.identity.replace("/", "_"), args: c.arguments });
  const geminiCalls = calls.map(toolCall);
  let agree = 0;
  for (let i = 0; i < calls.length; i++) {
    const theirs = (await engine.check(geminiCalls[i])).decision;
    const ours = policy.evaluate(calls[i].identity, calls[i].arguments, calls[i].effects);
    if ((theirs === PolicyDecision.ASK_USER ? "ask" : theirs) === ours) agree++;
  }
  const g = await compareAsync(
    {
      ours: async () => {
        for (let i = 0; i < calls.length; i++)
          policy.evaluate(calls[i].identity, calls[i].arguments, calls[i].effects);
      },
      gemini: async () => {
        for (let i = 0; i < geminiCalls.length; i++) await engine.check(geminiCalls[i]);
      },
    },
    { rounds: 5, calls: 4 },
  );
  rows.push(
    row(
      SUITE,
      "gemini-cli-core PolicyEngine / ours (speed-up)",
      g.gemini / g.ours,
      { min: 3 },
      `ours ${((g.ours * 1e6) / calls.length).toFixed(0)} ns/call, gemini ${((g.gemini * 1e6) / calls.length).toFixed(0)} ns/call; same decision on ${agree}/${calls.length} calls`,
    ),
  );
  return rows;
}
