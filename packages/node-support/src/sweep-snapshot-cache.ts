import { lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/** The file in a snapshot's home folder that records how many bytes its copies hold. */
export const SNAPSHOT_SIZE_FILE = ".bytes";

/** The bounds of one snapshot cache (each package passes its own named limits). */
export interface SnapshotCacheLimits {
  /** Staging folders (names starting with `.`) older than this are removed. */
  readonly stagingMaxAgeMs: number;
  /** Snapshots not used for this long are removed. */
  readonly maxAgeMs: number;
  /** At most this many snapshots stay (the ones of this load included). */
  readonly maxEntries: number;
  /** When set, the oldest snapshots go while the total recorded in `SNAPSHOT_SIZE_FILE` exceeds it. */
  readonly maxBytes?: number | undefined;
}

function recordedBytes(home: string): number {
  try {
    const value = Number(readFileSync(join(home, SNAPSHOT_SIZE_FILE), "utf8").trim());
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** Removes a folder of the cache; a failure is left for the next sweep. */
function remove(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Left for the next sweep.
  }
}

/**
 * Cleans a snapshot cache directory: staging folders older than `limits.stagingMaxAgeMs` are removed, and so are
 * snapshots (folders named by a 64-hex digest) not used for `limits.maxAgeMs`, those beyond the newest
 * `limits.maxEntries`, and, with `limits.maxBytes`, the oldest ones while the recorded total exceeds it. Names in
 * `keep` (the snapshots of this load) are never removed. Failures are ignored: cleaning never fails a load. Synchronous,
 * like every file-system call of a snapshot (see `layOutResolutionMirror`).
 */
export function sweepSnapshotCache(
  cacheDir: string,
  keep: ReadonlySet<string>,
  limits: SnapshotCacheLimits,
): void {
  let names: string[];
  try {
    names = readdirSync(cacheDir);
  } catch {
    return;
  }
  const now = Date.now();
  const homes: Array<{ name: string; mtimeMs: number }> = [];
  for (const name of names) {
    if (keep.has(name)) continue;
    try {
      const info = lstatSync(join(cacheDir, name));
      if (name.startsWith(".")) {
        if (now - info.mtimeMs > limits.stagingMaxAgeMs) remove(join(cacheDir, name));
      } else if (info.isDirectory() && /^[0-9a-f]{64}$/.test(name)) {
        homes.push({ name, mtimeMs: info.mtimeMs });
      }
    } catch {
      // Gone meanwhile, or not ours to judge.
    }
  }
  homes.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const maxBytes = limits.maxBytes;
  let total = 0;
  if (maxBytes !== undefined) for (const name of keep) total += recordedBytes(join(cacheDir, name));
  let kept = keep.size;
  for (const home of homes) {
    const bytes = maxBytes === undefined ? 0 : recordedBytes(join(cacheDir, home.name));
    const stale =
      now - home.mtimeMs > limits.maxAgeMs ||
      kept >= limits.maxEntries ||
      (maxBytes !== undefined && total + bytes > maxBytes);
    if (stale) {
      remove(join(cacheDir, home.name));
    } else {
      kept++;
      total += bytes;
    }
  }
}
