// Timing helpers for the side-by-side benchmarks: interleaved samples, medians, ratios against targets.
import { performance } from "node:perf_hooks";

/** Runs `fn` repeatedly for about `ms` milliseconds and returns nanoseconds per call. */
export function timeLoop(fn, ms = 50) {
  let iterations = 1;
  // Calibrate: grow the batch until one batch takes at least 2 ms.
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) fn();
    const took = performance.now() - start;
    if (took >= 2 || iterations >= 1 << 24) {
      const batches = Math.max(1, Math.round(ms / Math.max(took, 0.001)));
      const begin = performance.now();
      for (let b = 0; b < batches; b++) for (let i = 0; i < iterations; i++) fn();
      return ((performance.now() - begin) * 1e6) / (batches * iterations);
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

/** Measures async functions side by side (each call awaited); median milliseconds per call. */
export async function compareAsync(fns, { rounds = 5, calls = 10 } = {}) {
  const names = Object.keys(fns);
  for (const name of names) await fns[name]();
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) {
      for (let c = 0; c < calls; c++) {
        const start = performance.now();
        await fns[name]();
        samples[name].push(performance.now() - start);
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
  };
}

/** A row for a suite part that could not run (a peer that did not install, say). */
export function skipped(suite, name, reason) {
  return { suite, name, ratio: null, target: "-", status: "SKIP", detail: reason };
}

/** A row that only records numbers (no target). */
export function info(suite, name, detail) {
  return { suite, name, ratio: null, target: "-", status: "INFO", detail };
}
