/**
 * Issue 8 — catastrophic regular expressions on 1 MB inputs (predicate.md §5, §8). Patterns that take exponential
 * time in a backtracking engine — nested quantifiers, overlapping alternations — are evaluated through
 * `matchPredicate` and identity globs on inputs of 512 KiB and 1 MiB. The answers must be right and the time
 * linear: doubling the input must not much more than double the time.
 *
 * This is the only timing assertion of the suites, written to survive a loaded two-core machine: the two sizes are
 * measured interleaved (so load hits both alike), each is the median of five runs summed over every pattern, and
 * the bound is generous (twice the input may take less than four times as long; quadratic would take four times,
 * exponential would never finish).
 */
import { describe, expect, it } from "vitest";
import { compileGlob, compilePredicate, matchPredicate } from "../../src/index.js";

const HALF = 512 * 1024;
const FULL = 1024 * 1024;

/** [pattern, input of n characters, whether the pattern matches it]. */
const CASES: Array<[string, (n: number) => string, boolean]> = [
  ["(a+)+$", (n) => `${"a".repeat(n - 1)}!`, false],
  ["^(a+)+$", (n) => `${"a".repeat(n - 1)}!`, false],
  ["(a|aa)*c", (n) => `${"a".repeat(n - 1)}c`, true],
  ["^(a|aa)*$", (n) => `${"a".repeat(n - 1)}b`, false],
  ["(a*)*b", (n) => "a".repeat(n), false],
  ["^(a|a?)+$", (n) => `${"a".repeat(n - 1)}!`, false],
  ["(\\w+\\s?)*$", (n) => `${"ab ".repeat(Math.floor((n - 1) / 3))}!`, true],
  ["^(\\w+\\s?)*$", (n) => `${"ab ".repeat(Math.floor((n - 1) / 3))}!`, false],
  ["(x+x+)+y", (n) => `${"x".repeat(n - 1)}y`, true],
  ["^(x+x+)+y$", (n) => `${"x".repeat(n - 1)}z`, false],
  ["((a+)+)+b", (n) => `${"a".repeat(n - 1)}b`, true],
  ["(?i)^(A+)+$", (n) => `${"a".repeat(n - 1)}!`, false],
  ["(?s)^(.*a){12}$", (n) => `${"a".repeat(n - 1)}\n`, false],
  ["^([a-z0-9]+[._-]?)+@example\\.com$", (n) => `${"a.".repeat(Math.floor((n - 1) / 2))}!`, false],
];

/** Globs whose naive matchers backtrack; every one is an anchored RE2 pattern underneath. */
const GLOBS: Array<[string, (n: number) => string, boolean]> = [
  ["*a*a*a*a*a*a*a*a*a*a*b", (n) => "a".repeat(n), false],
  ["?*?*?*?*?*?*?*?*!", (n) => `${"a".repeat(n - 1)}?`, false],
  ["*a*a*a*a*a*a*a*a*a*a*a", (n) => `${"a".repeat(n - 1)}b`, false],
];

interface Runner {
  name: string;
  run(text: string): boolean;
  expected: boolean;
  input(n: number): string;
}

const runners: Runner[] = [
  ...CASES.map(([regex, input, expected]) => {
    const predicate = compilePredicate({ source: "arguments", any: "text", regex });
    return {
      name: `regex ${regex}`,
      run: (text: string) => matchPredicate(predicate, { arguments: { text } }),
      expected,
      input,
    };
  }),
  ...GLOBS.map(([pattern, input, expected]) => {
    const glob = compileGlob(pattern);
    return { name: `glob ${pattern}`, run: (text: string) => glob.test(text), expected, input };
  }),
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

describe("adversarial: catastrophic patterns stay linear on 1 MB inputs", () => {
  it.each(runners.map((r) => [r.name, r] as const))("%s answers correctly at 1 MiB", (_name, runner) => {
    expect(runner.run(runner.input(FULL))).toBe(runner.expected);
    expect(runner.run(runner.input(HALF))).toBe(runner.expected);
  });

  it("doubling every input at most about doubles the time (median of 5, interleaved, summed)", () => {
    const inputs = runners.map((r) => ({ half: r.input(HALF), full: r.input(FULL) }));
    // Warm-up: compile caches and the JIT settle before anything is measured.
    for (let i = 0; i < runners.length; i++) {
      const runner = runners[i] as Runner;
      runner.run((inputs[i] as { half: string }).half);
    }
    let half = 0;
    let full = 0;
    for (let i = 0; i < runners.length; i++) {
      const runner = runners[i] as Runner;
      const { half: small, full: large } = inputs[i] as { half: string; full: string };
      const smallTimes: number[] = [];
      const largeTimes: number[] = [];
      for (let round = 0; round < 5; round++) {
        let start = performance.now();
        runner.run(small);
        smallTimes.push(performance.now() - start);
        start = performance.now();
        runner.run(large);
        largeTimes.push(performance.now() - start);
      }
      half += median(smallTimes);
      full += median(largeTimes);
    }
    // A floor keeps a run that is too fast to measure from failing on timer noise.
    expect(full).toBeLessThan(4 * Math.max(half, 5));
  });
});
