import type { ScannedPatch } from "./scanned-patch.js";

/**
 * How many patch texts keep their scan (effects.md §7.1–7.4) in memory: enough for the `validateArgs`, the
 * `describeEffects` and the handler of a few concurrent dispatches to share one scan, and small enough that the
 * memory it holds stays flat (each entry holds at most one patch of `MAX_PATCH_BYTES` and its lines).
 */
export const MAX_PATCH_SCAN_CACHE_ENTRIES = 4;

const scans = new Map<string, ScannedPatch>();

/**
 * The scan of `text`: from the cache when the exact same text was scanned recently, else `scan(text)`, kept in place
 * of the least recently used entry. Scans are immutable, so sharing them between callers is safe.
 */
export function scannedPatch(text: string, scan: (text: string) => ScannedPatch): ScannedPatch {
  let scanned = scans.get(text);
  if (scanned !== undefined) {
    scans.delete(text);
    scans.set(text, scanned);
    return scanned;
  }
  scanned = Object.freeze(scan(text));
  if (scans.size >= MAX_PATCH_SCAN_CACHE_ENTRIES) scans.delete(scans.keys().next().value as string);
  scans.set(text, scanned);
  return scanned;
}
