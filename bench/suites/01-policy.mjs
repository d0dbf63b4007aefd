// Policy decision per call (issue 7 §1, issue 17): ours against hand-written floors that do the same work, on warm
// calls and on calls never seen before, scaled from 10 to 10,000 rules, with many identities cycling, and against
// gemini-cli-core's PolicyEngine (its debug output dropped, as the gemini CLI drops it without --debug).
import v8 from "node:v8";
import vm from "node:vm";
import { createPolicy, parseRules } from "@raw/tool-api";
import { RE2JS } from "re2js";
import { fiftyRules, scaledRules, thousandCalls, unseenCalls } from "../lib/fixtures.mjs";
import { compare, compareAsync, cpuNow, info, median, row, skipped } from "../lib/harness.mjs";
import { ensurePeer } from "../lib/peers.mjs";

const SUITE = "policy";

const globToRe = (g) =>
  RE2JS.compile(
    `^${g
      .split("")
      .map((c) => (c === "*" ? ".*" : c === "?" ? "." : RE2JS.quote(c)))
      .join("")}$`,
    RE2JS.DOTALL,
  );

/**
 * A hand-written floor: the same decisions coded by hand, the applicable rules grouped per identity once (as the
 * policy's plan does), re2js matchers precompiled, the first match on a path ends the walk. With `merge`, the
 * conditional rules of one identity and path are merged into one alternation `(?:p1)|(?:p2)|...` (the merged
 * floor: what the policy did before bounded merge groups); without, each regex is tested on its own (the separate
 * floor).
 */
function handWritten(rules, identities, { merge }) {
  const compiled = rules.map((r) => ({ glob: globToRe(r.match), effect: r.effect, when: r.when }));
  const plans = new Map();
  for (const id of identities) {
    const applicable = compiled.filter((r) => r.glob.test(id));
    let base = "allow";
    let baseIndex = -1;
    applicable.forEach((r, i) => {
      if (!r.when) {
        base = r.effect;
        baseIndex = i;
      }
    });
    const later = applicable.slice(baseIndex + 1).filter((r) => r.when);
    const byPath = new Map();
    for (const r of later) {
      const key = `${r.when.source}:${r.when.any}`;
      if (!byPath.has(key)) byPath.set(key, { source: r.when.source, regexes: [] });
      byPath.get(key).regexes.push(r.when.regex);
    }
    const paths = [...byPath.values()].map(({ source, regexes }) => ({
      source,
      res: merge
        ? [RE2JS.compile(regexes.map((x) => `(?:${x})`).join("|"))]
        : regexes.map((x) => RE2JS.compile(x)),
    }));
    plans.set(id, { base, paths });
  }
  const anyString = (list, field, res) => {
    if (!Array.isArray(list)) return false;
    for (let i = 0; i < list.length; i++) {
      const s = list[i]?.[field];
      if (typeof s !== "string") continue;
      for (let j = 0; j < res.length; j++) if (res[j].test(s)) return true;
    }
    return false;
  };
  return (identity, args, effects) => {
    const plan = plans.get(identity);
    if (plan.base === "ask" || args === undefined) return plan.base;
    for (const p of plan.paths) {
      const hit =
        p.source === "arguments"
          ? anyString(args?.commands, "command", p.res)
          : anyString(effects?.files, "path", p.res);
      if (hit) return "ask";
    }
    return plan.base;
  };
}

/** Checks that every evaluator gives the same decision on every call; returns the number of `ask`s. */
function agree(evaluators, calls) {
  let asks = 0;
  for (const c of calls) {
    const decisions = Object.entries(evaluators).map(([n, f]) => [n, f(c.identity, c.arguments, c.effects)]);
    if (decisions.some(([, d]) => d !== decisions[0][1]))
      throw new Error(`decisions differ on ${JSON.stringify(c).slice(0, 300)}: ${JSON.stringify(decisions)}`);
    if (decisions[0][1] === "ask") asks++;
  }
  return asks;
}

/**
 * Per-call CPU nanoseconds on calls no side has seen: `rounds` rounds, each side evaluates a different chunk of fresh
 * calls in each round (side s takes chunk (r + s) mod rounds, so each side meets every chunk once), interleaved.
 * Returns median ns/call per side, and the calls each side evaluated. Decisions are kept in `sink`.
 */
function coldCompare(evaluators, chunks, warm = []) {
  const names = Object.keys(evaluators);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  let sink = 0;
  // A warm-up chunk per side (not counted): JIT and first-use costs stay out of the samples.
  for (const [s, name] of names.entries())
    for (const c of warm[s] ?? []) if (evaluators[name](c.identity, c.arguments, c.effects) === "ask") sink++;
  for (let r = 0; r < chunks.length; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const s = names.indexOf(name);
      const calls = chunks[(r + s) % chunks.length];
      const f = evaluators[name];
      const start = cpuNow();
      for (let i = 0; i < calls.length; i++)
        if (f(calls[i].identity, calls[i].arguments, calls[i].effects) === "ask") sink++;
      samples[name].push(((cpuNow() - start) * 1e6) / calls.length);
    }
  }
  const perSide = chunks.reduce((n, c) => n + c.length, 0);
  return { ns: Object.fromEntries(names.map((n) => [n, median(samples[n])])), perSide, sink };
}

const us = (ns) => (ns >= 1e5 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1000).toFixed(2)} us`);

async function fiftyRuleRows(rows) {
  const raw = fiftyRules();
  const parsed = parseRules(raw);
  if (!parsed.ok) throw new Error(`rules invalid: ${JSON.stringify(parsed.issues)}`);
  const policy = createPolicy(parsed.rules);
  const ids = ["builtin/bash", "builtin/write_file"];
  const merged = handWritten(raw, ids, { merge: true });
  const separate = handWritten(raw, ids, { merge: false });
  const ours = (i, a, e) => policy.evaluate(i, a, e);

  // Warm: the same 1,000 calls again and again (the automata's caches stay warm).
  const calls = thousandCalls();
  const asks = agree({ ours, merged, separate }, calls);
  let sink = 0;
  const loop = (f) => () => {
    for (let i = 0; i < calls.length; i++)
      if (f(calls[i].identity, calls[i].arguments, calls[i].effects) === "ask") sink++;
  };
  const t = compare(
    { ours: loop(ours), merged: loop(merged), separate: loop(separate) },
    { rounds: 9, ms: 80 },
  );
  const per = (ns) => us(ns / calls.length);
  rows.push(
    row(
      SUITE,
      "50 rules, 1,000 warm calls: ours / merged floor",
      t.ours / t.merged,
      { max: 1.1 },
      `ours ${per(t.ours)}, merged ${per(t.merged)}, separate ${per(t.separate)} per call; ${asks} asks`,
    ),
  );

  // Cold: 12,000 distinct calls per side, none seen before by that side.
  const chunks = [];
  for (let c = 0; c < 24; c++) chunks.push(unseenCalls(500, 1000 + c));
  agree({ ours, merged, separate }, unseenCalls(2000, 999));
  const warmUp = [unseenCalls(500, 901), unseenCalls(500, 902), unseenCalls(500, 903)];
  const cold = coldCompare({ ours, merged, separate }, chunks, warmUp);
  sink += cold.sink;
  rows.push(
    row(
      SUITE,
      `50 rules, unseen calls (${cold.perSide.toLocaleString("en")} per side): ours / merged floor`,
      cold.ns.ours / cold.ns.merged,
      { max: 1.1 },
      `ours ${us(cold.ns.ours)}, merged ${us(cold.ns.merged)}, separate ${us(cold.ns.separate)} per call`,
    ),
  );
  rows.push(
    row(
      SUITE,
      "50 rules, unseen calls: ours / separate floor",
      cold.ns.ours / cold.ns.separate,
      { max: 1 },
      `ours ${us(cold.ns.ours)}, separate ${us(cold.ns.separate)} per call (decisions kept: ${sink})`,
    ),
  );
  return { policy, calls };
}

async function scalingRows(rows) {
  const perCount = [];
  for (const count of [10, 100, 1000, 3000, 10000]) {
    const raw = scaledRules(count);
    const parsed = parseRules(raw);
    if (!parsed.ok) throw new Error(`scaled rules invalid: ${JSON.stringify(parsed.issues[0])}`);
    const policy = createPolicy(parsed.rules);
    const ours = (i, a, e) => policy.evaluate(i, a, e);
    const ids = ["builtin/bash", "builtin/write_file"];
    const separate = handWritten(raw, ids, { merge: false });
    const merged = handWritten(raw, ids, { merge: true });
    const size = count >= 10000 ? 4 : count >= 3000 ? 12 : count >= 1000 ? 40 : 200;
    const fresh = (seed) => unseenCalls(size, seed, { words: count, bashOnly: true });
    const chunks = [];
    for (let c = 0; c < 9; c++) chunks.push(fresh(50_000 + count * 16 + c));
    agree({ ours, separate }, fresh(7));
    const warm = [fresh(11), fresh(12), fresh(13)];
    // The merged floor costs up to a second per call past a few thousand rules: there it is timed on one chunk.
    const sides = count >= 3000 ? { ours, separate } : { ours, separate, merged };
    const cold = coldCompare(sides, chunks, warm);
    if (cold.ns.merged === undefined)
      cold.ns.merged = coldCompare({ merged }, [fresh(99)], [fresh(98).slice(0, 1)]).ns.merged;
    // Growth: the same input distribution at every count, strings that match no rule (every pattern is tried).
    const misses = (seed) => unseenCalls(count >= 3000 ? 8 : 60, seed, { bashOnly: true });
    const missChunks = [];
    for (let c = 0; c < 5; c++) missChunks.push(misses(70_000 + count * 16 + c));
    const miss = coldCompare({ ours }, missChunks, [misses(69_999)]);
    perCount.push([count, miss.ns.ours]);
    rows.push(
      row(
        SUITE,
        `${count.toLocaleString("en")} rules on one path, unseen bash calls: ours / separate floor`,
        cold.ns.ours / cold.ns.separate,
        { max: 1 },
        `ours ${us(cold.ns.ours)}, separate ${us(cold.ns.separate)}, merged ${us(cold.ns.merged)} per call (ours / merged ${(cold.ns.ours / cold.ns.merged).toFixed(2)}x; ${cold.perSide} calls per side)`,
      ),
    );
  }
  const [c0, t0] = perCount[0];
  const [c1, t1] = perCount[perCount.length - 1];
  rows.push(
    row(
      SUITE,
      `per-call growth ${c0} -> ${c1.toLocaleString("en")} rules / linear growth (unseen calls matching no rule)`,
      t1 / t0 / (c1 / c0),
      { max: 1 },
      perCount.map(([c, t]) => `${c}: ${us(t)}`).join(", "),
    ),
  );
}

function cyclingRows(rows) {
  // Conditional rules on `*` (they apply to every identity), identities cycling: 100 against 10,000.
  const raw = [
    { match: "*", effect: "allow" },
    ...fiftyRules()
      .filter((r) => r.when)
      .map((r) => ({ ...r, match: "*" })),
  ];
  const policy = createPolicy(parseRules(raw).rules);
  const args = { commands: [{ command: "git status --short && ls -la src" }] };
  const few = Array.from({ length: 100 }, (_, i) => `mcp/server${i}/tool`);
  const many = Array.from({ length: 10_000 }, (_, i) => `mcp/server${i}/tool`);
  let k = 0;
  let j = 0;
  let sink = 0;
  const t = compare(
    {
      few: () => {
        if (policy.evaluate(few[k++ % few.length], args) === "ask") sink++;
      },
      many: () => {
        if (policy.evaluate(many[j++ % many.length], args) === "ask") sink++;
      },
    },
    { rounds: 9, ms: 60 },
  );
  rows.push(
    row(
      SUITE,
      "10,000 identities cycling / 100 cycling (conditional rules on *)",
      t.many / t.few,
      { max: 1.5 },
      `10,000: ${us(t.many)}, 100: ${us(t.few)} per call (plan cache 16,384 identities, plans shared by the rules they hold)${sink ? "" : ""}`,
    ),
  );
}

async function geminiRows(rows, policy, calls) {
  const peer = ensurePeer("gemini", ["@google/gemini-cli-core"]);
  if (!peer.ok) {
    rows.push(skipped(SUITE, "vs gemini-cli-core PolicyEngine", peer.reason));
    return;
  }
  let PolicyEngine;
  let PolicyDecision;
  try {
    const root = peer.require.resolve("@google/gemini-cli-core/package.json").replace(/package\.json$/, "");
    ({ PolicyEngine } = await import(`${root}dist/src/policy/policy-engine.js`));
    ({ PolicyDecision } = await import(`${root}dist/src/policy/types.js`));
  } catch (error) {
    rows.push(skipped(SUITE, "vs gemini-cli-core PolicyEngine", `did not load: ${error.message}`));
    return;
  }
  const name = (glob) => (glob === "*" ? "*" : glob.replace(/^builtin\//, "builtin_").replace(/\//g, "_"));
  const decision = { allow: PolicyDecision.ALLOW, ask: PolicyDecision.ASK_USER, deny: PolicyDecision.DENY };
  const geminiRules = fiftyRules().map((r, index) => {
    const rule = { toolName: name(r.match), decision: decision[r.effect], priority: index + 1 };
    if (r.when) {
      const body = r.when.regex.replace(/^\^/, "").replace(/\$$/, '"').replace("(^|", '(^|"|');
      rule.argsPattern = new RegExp(r.when.source === "effects" ? `"path":"[^"]*${body}` : body);
    }
    return rule;
  });
  // The gemini CLI drops console.debug unless --debug is given; so does this run (bench/run.mjs), and no peer
  // output reaches the results stream.
  const debug = console.debug;
  console.debug = () => {};
  try {
    const engine = new PolicyEngine({ rules: geminiRules });
    const geminiCalls = calls.map((c) => ({ name: c.identity.replace("/", "_"), args: c.arguments }));
    let same = 0;
    for (let i = 0; i < calls.length; i++) {
      const theirs = (await engine.check(geminiCalls[i])).decision;
      const ours = policy.evaluate(calls[i].identity, calls[i].arguments, calls[i].effects);
      if ((theirs === PolicyDecision.ASK_USER ? "ask" : theirs) === ours) same++;
    }
    let sink = 0;
    const g = await compareAsync(
      {
        ours: async () => {
          for (let i = 0; i < calls.length; i++)
            if (policy.evaluate(calls[i].identity, calls[i].arguments, calls[i].effects) === "ask") sink++;
        },
        gemini: async () => {
          for (let i = 0; i < geminiCalls.length; i++)
            if ((await engine.check(geminiCalls[i])).decision === PolicyDecision.ASK_USER) sink++;
        },
      },
      { rounds: 7, calls: 4, clock: "cpu" },
    );
    rows.push(
      row(
        SUITE,
        "gemini-cli-core PolicyEngine (debug dropped) / ours (speed-up)",
        g.gemini / g.ours,
        { min: 10 },
        `ours ${us((g.ours * 1e6) / calls.length)}, gemini ${us((g.gemini * 1e6) / calls.length)} per call; same decision on ${same}/${calls.length} calls (${sink} asks kept)`,
      ),
    );
  } finally {
    console.debug = debug;
  }
}

/** Heap used after a full collection, in MiB. */
function heapAfterGc() {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1048576;
}

/**
 * Memory stays flat: 100,000 calls with 100,000 distinct identities and unseen arguments, then 100,000 more; the
 * heap after a full collection must not grow during the second 100,000 (the plan cache and the shared plans are
 * bounded).
 */
export function memoryRows(rows) {
  const policy = createPolicy(parseRules(fiftyRules().map((r) => (r.when ? { ...r, match: "*" } : r))).rules);
  const batch = (from) => {
    let asks = 0;
    for (let part = 0; part < 10; part++) {
      const calls = unseenCalls(10_000, from + part);
      for (let i = 0; i < calls.length; i++) {
        const c = calls[i];
        if (policy.evaluate(`mcp/s${from + part}x${i}/t`, c.arguments, c.effects) === "ask") asks++;
      }
    }
    return asks;
  };
  const start = heapAfterGc();
  const first = batch(200);
  const afterFirst = heapAfterGc();
  const second = batch(300);
  const afterSecond = heapAfterGc();
  rows.push(
    row(
      SUITE,
      "heap growth over the second 100,000 calls (distinct identities, unseen arguments) / 8 MiB",
      Math.max(0, afterSecond - afterFirst) / 8,
      { max: 1 },
      `heap after GC: ${start.toFixed(1)} MiB at start, ${afterFirst.toFixed(1)} after 100,000 calls, ${afterSecond.toFixed(1)} after 200,000 (${first + second} asks)`,
    ),
  );
}

export async function run() {
  const rows = [];
  const { policy, calls } = await fiftyRuleRows(rows);
  cyclingRows(rows);
  memoryRows(rows);
  await scalingRows(rows);
  await geminiRows(rows, policy, calls);
  if (rows.length === 0) rows.push(info(SUITE, "no rows", ""));
  return rows;
}
