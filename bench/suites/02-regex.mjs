// Regex engine choice and the predicate layer's overhead over a bare engine call (issue 7 §2, issue 2).
import { compilePredicate, matchPredicate } from "@raw/predicate";
import { RE2JS } from "re2js";
import { compare, info, row, skipped } from "../lib/harness.mjs";
import { peerIfInstalled } from "../lib/peers.mjs";

const SUITE = "regex";
const RM = "(^|[;&|()\\n])\\s*(sudo\\s+)?(/usr/bin/|/bin/)?rm(\\s|$)";

function commands(n) {
  const list = [];
  for (let i = 0; i < n; i++)
    list.push({
      command: `git status --short && ls -la src/dir${i} | grep -v node_modules`,
      timeout_ms: 1000,
    });
  return { commands: list };
}

const fmt = (o) =>
  Object.entries(o)
    .map(([n, ns]) => `${n} ${ns < 1e5 ? `${Math.round(ns)} ns` : `${(ns / 1e6).toFixed(2)} ms`}`)
    .join(", ");

export async function run() {
  const rows = [];
  const bare = RE2JS.compile(RM);

  // One string: the predicate layer against one bare engine call on the same string.
  const one = { command: "echo a && ls -la | grep x" };
  const single = compilePredicate({ source: "arguments", any: "command", regex: RM });
  const s = compare(
    {
      predicate: () => matchPredicate(single, { arguments: one }),
      bare: () => bare.test(one.command),
    },
    { rounds: 15, ms: 60 },
  );
  rows.push(
    row(SUITE, "predicate / bare re2js call (one string)", s.predicate / s.bare, { max: 1.2 }, fmt(s)),
  );

  // Sixteen commands: the predicate walk against the same walk written by hand around bare engine calls.
  const args = commands(16);
  const predicate = compilePredicate({ source: "arguments", any: "commands[*].command", regex: RM });
  const t = compare({
    predicate: () => matchPredicate(predicate, { arguments: args }),
    // The same checks the contract requires (own keys of plain objects, arrays only at [*]), written inline.
    bare: () => {
      const list = Object.hasOwn(args, "commands") ? args.commands : undefined;
      if (!Array.isArray(list)) return false;
      for (let i = 0; i < list.length; i++) {
        const item = list[i];
        if (
          typeof item !== "object" ||
          item === null ||
          Array.isArray(item) ||
          !Object.hasOwn(item, "command")
        )
          continue;
        const c = item.command;
        if (typeof c === "string" && bare.test(c)) return true;
      }
      return false;
    },
  });
  rows.push(
    row(
      SUITE,
      "predicate / hand walk + bare re2js (16 commands)",
      t.predicate / t.bare,
      { max: 1.2 },
      `${Math.round(1e9 / t.predicate).toLocaleString("en")} evaluations/s (hand walk ${Math.round(1e9 / t.bare).toLocaleString("en")}/s)`,
    ),
  );

  // Engines on short command strings, 1 MB strings and a ReDoS pattern.
  const short = "echo hello && git commit -m 'x' ; rm -rf build";
  const big = `${"abcdefghij ".repeat(95_325)}rm x`; // ~1 MB, match at the end
  const engines = { re2js: (p) => RE2JS.compile(p), v8: (p) => new RegExp(p) };
  const peer = peerIfInstalled("re2", ["re2@1"]);
  if (peer.ok) {
    try {
      const RE2 = peer.require("re2");
      engines.re2 = (p) => new RE2(p);
    } catch (error) {
      rows.push(skipped(SUITE, "native re2", `re2 installed but did not load: ${error.message}`));
    }
  } else rows.push(skipped(SUITE, "native re2", peer.reason));

  const compiled = (input) =>
    Object.fromEntries(
      Object.entries(engines).map(([n, c]) => {
        const r = c(RM);
        return [n, () => r.test(input)];
      }),
    );
  const shortTimes = compare(compiled(short));
  const bigTimes = compare(compiled(big), { rounds: 3, ms: 100 });
  rows.push(info(SUITE, "engines, short command string", fmt(shortTimes)));
  rows.push(info(SUITE, "engines, 1 MB string", fmt(bigTimes)));

  // ReDoS: (a+)+$ — V8 backtracks exponentially, RE2 engines stay linear.
  const redos = RE2JS.compile("(a+)+$");
  const linear = compare(
    {
      n20k: () => redos.test(`${"a".repeat(20_000)}!`),
      n40k: () => redos.test(`${"a".repeat(40_000)}!`),
    },
    { rounds: 3 },
  );
  const v8Start = process.hrtime.bigint();
  /(a+)+$/.test(`${"a".repeat(23)}!`);
  const v8Ms = Number(process.hrtime.bigint() - v8Start) / 1e6;
  rows.push(
    info(
      SUITE,
      "ReDoS (a+)+$",
      `re2js: 20k a's + '!' ${(linear.n20k / 1e6).toFixed(2)} ms, 40k ${(linear.n40k / 1e6).toFixed(2)} ms (linear); V8 RegExp: only 23 a's + '!' ${v8Ms.toFixed(0)} ms (exponential)`,
    ),
  );
  return rows;
}
