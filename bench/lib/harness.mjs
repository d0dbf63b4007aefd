// Timing helpers for the side-by-side benchmarks: interleaved samples, medians, ratios against targets.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";

/** The machine load when a row is made: the 1, 5 and 15 minute load averages and the core count. */
export function machineLoad() {
  const [one, five, fifteen] = os.loadavg().map((l) => Number(l.toFixed(2)));
  return { load1: one, load5: five, load15: fifteen, cpus: os.cpus().length };
}

/** `min/median/max` of a list, formatted with `digits` decimals. */
export function spread(values, digits = 1) {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0].toFixed(digits)}/${median(sorted).toFixed(digits)}/${sorted[sorted.length - 1].toFixed(digits)}`;
}

/**
 * Runs whole processes as interleaved pairs (A then B, then B then A, ...), `pairs` times, and returns each side's
 * samples in milliseconds of wall time: `{ a: number[], b: number[] }`. A non-zero exit throws.
 */
export function processPairs(a, b, pairs) {
  const run = ({ args, cwd, env }) => {
    // `env` may be a function: a fresh environment for every run (a cache folder never used before).
    const environment = typeof env === "function" ? env() : env;
    const start = process.hrtime.bigint();
    const out = spawnSync(process.execPath, args, {
      cwd,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      ...(environment === undefined ? {} : { env: environment }),
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (out.status !== 0)
      throw new Error(
        `node ${args.join(" ").slice(0, 200)} exited ${out.status}: ${(out.stdout + out.stderr).slice(0, 500)}`,
      );
    return ms;
  };
  run(a);
  run(b);
  const samples = { a: [], b: [] };
  for (let i = 0; i < pairs; i++) {
    if (i % 2) {
      samples.b.push(run(b));
      samples.a.push(run(a));
    } else {
      samples.a.push(run(a));
      samples.b.push(run(b));
    }
  }
  return samples;
}

/** Peak resident set size (KiB) of `node <args>` via /usr/bin/time, or undefined when that tool is missing. */
export function peakRssKb(args, cwd) {
  if (!existsSync("/usr/bin/time")) return undefined;
  const out = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`node ${args.join(" ").slice(0, 200)} exited ${out.status}`);
  const lines = out.stderr.trim().split("\n");
  return Number(lines[lines.length - 1]);
}

/** CPU time (ms) this process and its waited-for children have used so far (Linux /proc; user + system). */
export function cpuTimeMs() {
  const self = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of proc(5) (cutime, cstime) in clock ticks; after the command they are at 13 and 14.
    children = ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    children = Number.NaN;
  }
  return (self.user + self.system) / 1000 + children;
}

/**
 * Milliseconds of CPU time (user + system) this process has used. Micro rows time CPU, not wall time: the machine is
 * shared, and time spent waiting for a core while other processes run would otherwise land in whichever side of a
 * comparison happened to be running.
 */
export function cpuNow() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Runs `fn` repeatedly for about `ms` milliseconds of CPU time and returns CPU nanoseconds per call. */
export function timeLoop(fn, ms = 50) {
  let iterations = 1;
  // Calibrate: grow the batch until one batch takes at least 2 ms.
  for (;;) {
    const start = cpuNow();
    for (let i = 0; i < iterations; i++) fn();
    const took = cpuNow() - start;
    if (took >= 2 || iterations >= 1 << 24) {
      const batches = Math.max(1, Math.round(ms / Math.max(took, 0.001)));
      const begin = cpuNow();
      for (let b = 0; b < batches; b++) for (let i = 0; i < iterations; i++) fn();
      return ((cpuNow() - begin) * 1e6) / (batches * iterations);
    }
    iterations *= 2;
  }
}

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Measures several functions side by side: rounds interleave them so machine noise hits all alike.
 * Returns the median nanoseconds per call of each, keyed like `fns`.
 */
export function compare(fns, { rounds = 7, ms = 40 } = {}) {
  const names = Object.keys(fns);
  for (const name of names) timeLoop(fns[name], 10); // warm up
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) samples[name].push(timeLoop(fns[name], ms));
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

/**
 * Measures async functions side by side (each call awaited); median milliseconds per call. `clock: "cpu"` times this
 * process's CPU time (for work that runs in this process only); the default, wall time, is for child processes.
 */
export async function compareAsync(fns, { rounds = 5, calls = 10, clock = "wall" } = {}) {
  const now = clock === "cpu" ? cpuNow : () => performance.now();
  const names = Object.keys(fns);
  for (const name of names) await fns[name]();
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) {
      for (let c = 0; c < calls; c++) {
        const start = now();
        await fns[name]();
        samples[name].push(now() - start);
      }
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

/** A result row: a measured ratio with its target (`ratio <= max`, or `ratio >= min` for speed-ups). */
export function row(suite, name, ratio, target, detail) {
  const pass = target.max !== undefined ? ratio <= target.max : ratio >= target.min;
  const want = target.max !== undefined ? `<= ${target.max}x` : `>= ${target.min}x`;
  return {
    suite,
    name,
    ratio: Number(ratio.toFixed(3)),
    target: want,
    status: pass ? "PASS" : "MISS",
    detail,
    load: machineLoad(),
  };
}

/** A row for a suite part that could not run (a peer that did not install, say). */
export function skipped(suite, name, reason) {
  return { suite, name, ratio: null, target: "-", status: "SKIP", detail: reason, load: machineLoad() };
}

/** A row that only records numbers (no target). */
export function info(suite, name, detail) {
  return { suite, name, ratio: null, target: "-", status: "INFO", detail, load: machineLoad() };
}
