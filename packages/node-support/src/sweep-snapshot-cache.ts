import { randomUUID } from "node:crypto";
import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
} from "node:fs";
import { join } from "node:path";
import { withVerifiedDir } from "./verified-dir.js";

/** The file in a snapshot's home folder that records how many bytes its copies hold. */
export const SNAPSHOT_SIZE_FILE = ".bytes";

/**
 * The file at the top of a cache folder cleaned on an interval (`SnapshotCacheLimits.intervalMs`) whose modification
 * time records the last full clean. Neither a snapshot nor staging, so no sweep removes it.
 */
export const SNAPSHOT_CLEAN_MARKER = "last-clean";

/**
 * The name prefix of staging entries at the top of a cache folder (a marker being written, a copy a crashed loader
 * left).
 */
export const SNAPSHOT_STAGING_PREFIX = ".staging-";

/**
 * The names removed as staging once older than the staging age: `SNAPSHOT_STAGING_PREFIX`, and `.<digest>.` (the
 * staging copies of earlier versions, written next to the snapshots). Never any other name that starts with a dot.
 */
export const SNAPSHOT_STAGING_NAME = /^(?:\.staging-|\.[0-9a-f]{64}\.)/;

/** The most bytes read from a `SNAPSHOT_SIZE_FILE` (a decimal count and a newline). */
const MAX_SIZE_FILE_BYTES = 32;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** The bounds of one snapshot cache (each package passes its own named limits). */
export interface SnapshotCacheLimits {
  /** Staging entries (names matching `SNAPSHOT_STAGING_NAME`) older than this are removed. */
  readonly stagingMaxAgeMs: number;
  /** Snapshots not used for this long are removed. */
  readonly maxAgeMs: number;
  /** At most this many snapshots stay (the ones of this load included). */
  readonly maxEntries: number;
  /** When set, the oldest snapshots go while the total recorded in `SNAPSHOT_SIZE_FILE` exceeds it. */
  readonly maxBytes?: number | undefined;
  /**
   * When set, the sweep runs only when the last one, recorded by `SNAPSHOT_CLEAN_MARKER` in the folder, is older than
   * this, or the folder holds more than `maxEntries` entries; a sweep that runs records itself in the marker.
   */
  readonly intervalMs?: number | undefined;
}

/** The count recorded in a home's size file, read without following a link (`0` when absent or not a count). */
function recordedBytes(home: string): number {
  let fd: number;
  try {
    fd = openSync(join(home, SNAPSHOT_SIZE_FILE), constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch {
    return 0;
  }
  try {
    const buffer = Buffer.alloc(MAX_SIZE_FILE_BYTES);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const value = Number(buffer.subarray(0, length).toString("utf8").trim());
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  } finally {
    closeSync(fd);
  }
}

/** Removes an entry of the cache (a link itself, never what it points to); a failure is left for the next sweep. */
function remove(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Left for the next sweep.
  }
}

/** When the last full clean of the verified folder `dir` ran, or `undefined` (no marker, or one that is not a file). */
function lastClean(dir: string): number | undefined {
  const info = lstatSync(join(dir, SNAPSHOT_CLEAN_MARKER), { throwIfNoEntry: false });
  return info?.isFile() === true ? info.mtimeMs : undefined;
}

/**
 * Records a full clean of the verified folder `dir`: a new empty file (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600)
 * under a staging name, renamed over the marker. A marker that is a link is replaced, never opened.
 */
function markClean(dir: string): void {
  const temporary = join(dir, `${SNAPSHOT_STAGING_PREFIX}clean-${process.pid}-${randomUUID()}`);
  closeSync(
    openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW | NONBLOCK,
      0o600,
    ),
  );
  try {
    renameSync(temporary, join(dir, SNAPSHOT_CLEAN_MARKER));
  } catch (error) {
    remove(temporary);
    throw error;
  }
}

/** The sweep itself, inside a verified folder (`dir` names the opened folder). */
function sweep(dir: string, keep: ReadonlySet<string>, limits: SnapshotCacheLimits): void {
  const names = readdirSync(dir);
  const now = Date.now();
  if (limits.intervalMs !== undefined && names.length <= limits.maxEntries) {
    const cleaned = lastClean(dir);
    if (cleaned !== undefined && now - cleaned < limits.intervalMs) return;
  }
  const homes: Array<{ name: string; mtimeMs: number }> = [];
  for (const name of names) {
    if (keep.has(name)) continue;
    try {
      const info = lstatSync(join(dir, name));
      if (SNAPSHOT_STAGING_NAME.test(name)) {
        if (now - info.mtimeMs > limits.stagingMaxAgeMs) remove(join(dir, name));
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
  if (maxBytes !== undefined) for (const name of keep) total += recordedBytes(join(dir, name));
  let kept = keep.size;
  for (const home of homes) {
    const bytes = maxBytes === undefined ? 0 : recordedBytes(join(dir, home.name));
    const stale =
      now - home.mtimeMs > limits.maxAgeMs ||
      kept >= limits.maxEntries ||
      (maxBytes !== undefined && total + bytes > maxBytes);
    if (stale) {
      remove(join(dir, home.name));
    } else {
      kept++;
      total += bytes;
    }
  }
  if (limits.intervalMs !== undefined) markClean(dir);
}

/**
 * Cleans a snapshot cache directory: staging entries older than `limits.stagingMaxAgeMs` are removed, and so are
 * snapshots (folders named by a 64-hex digest) not used for `limits.maxAgeMs`, those beyond the newest
 * `limits.maxEntries`, and, with `limits.maxBytes`, the oldest ones while the recorded total exceeds it. Names in
 * `keep` (the snapshots of this load) are never removed. With `limits.intervalMs`, only when the last full clean is
 * that old (or there are more entries than `maxEntries`).
 *
 * Only a folder verified as private touches anything (amendment A10, "refused means untouched"): `cacheDir` is opened
 * without following a link and must be a folder of this user with mode 0700 on the descriptor (`withVerifiedDir`);
 * a link, another user's folder or a folder others can enter is left exactly as it is, in this run and every later
 * one. Inside, no link is followed: entries are judged with `lstat`, removed as themselves, size files read with
 * `O_NOFOLLOW`, and the marker replaced by rename. Failures are ignored: cleaning never fails a load. Synchronous,
 * like every file-system call of a snapshot (see `layOutResolutionMirror`).
 */
export function sweepSnapshotCache(
  cacheDir: string,
  keep: ReadonlySet<string>,
  limits: SnapshotCacheLimits,
): void {
  try {
    withVerifiedDir(cacheDir, (dir) => sweep(dir, keep, limits));
  } catch {
    // Cleaning never fails a load; the next sweep tries again.
  }
}
