import { join } from "node:path";
import {
  SNAPSHOT_CLEAN_MARKER as CLEAN_MARKER,
  rawCacheRoot as cacheRoot,
  ensurePrivateDir as ensurePrivate,
  sweepSnapshotCache as sweep,
} from "@raw/node-support";
import { ContractError } from "@raw/schema";
import {
  MAX_SNAPSHOT_CACHE_AGE_MS,
  MAX_SNAPSHOT_CACHE_BYTES,
  MAX_SNAPSHOT_CACHE_ENTRIES,
  SNAPSHOT_STAGING_MAX_AGE_MS,
} from "./limits.js";

/**
 * The root of Raw's private cache (amendment A8): `$RAW_CACHE_DIR` when set, else `$XDG_CACHE_HOME/raw` when
 * `XDG_CACHE_HOME` is an absolute path, else `~/.cache/raw`.
 */
export function rawCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return cacheRoot(env);
}

/** The default cache directory of tool snapshots: `tool-snapshots` under `rawCacheRoot()`. */
export function defaultSnapshotCacheDir(): string {
  return join(rawCacheRoot(), "tool-snapshots");
}

/** The file in a cache folder cleaned on an interval whose modification time records the last full clean. */
export const SNAPSHOT_CLEAN_MARKER: string = CLEAN_MARKER;

function unsafe(dir: string, reason: string): ContractError {
  return new ContractError(
    "snapshot_cache_unsafe",
    `snapshot cache ${dir} is not a private folder: ${reason}`,
  );
}

/**
 * Creates `dir` with mode 0700 and checks that it is a private folder of this user (`@raw/node-support`): opened
 * without following a link, a directory owned by this user that group and others cannot write in (read bits are
 * removed). Returns its real path. Throws `ContractError` `snapshot_cache_unsafe`, and then changes nothing.
 */
export function ensurePrivateDir(dir: string): string {
  return ensurePrivate(dir, unsafe);
}

/** The bounds of a tool snapshot cache folder (amendment A8: bounded in size and cleaned). */
export interface SnapshotCacheBounds {
  /** At most this many snapshots stay; the least recently used go first. */
  readonly maxEntries: number;
  /** Snapshots not used for this long go. */
  readonly maxAgeMs: number;
  /** The snapshots together hold at most this many bytes (as recorded when they were written). */
  readonly maxBytes: number;
}

/** The bounds of the loader's own cache: `MAX_SNAPSHOT_CACHE_ENTRIES`, `_AGE_MS` and `_BYTES`. */
const HOST_BOUNDS: SnapshotCacheBounds = {
  maxEntries: MAX_SNAPSHOT_CACHE_ENTRIES,
  maxAgeMs: MAX_SNAPSHOT_CACHE_AGE_MS,
  maxBytes: MAX_SNAPSHOT_CACHE_BYTES,
};

/**
 * Cleans a tool snapshot cache directory: staging folders older than `SNAPSHOT_STAGING_MAX_AGE_MS`, snapshots not
 * used for `MAX_SNAPSHOT_CACHE_AGE_MS`, those beyond the newest `MAX_SNAPSHOT_CACHE_ENTRIES`, and the oldest ones
 * while the recorded total exceeds `MAX_SNAPSHOT_CACHE_BYTES`. Names in `keep` stay. Never fails a load.
 */
export function sweepSnapshotCache(
  cacheDir: string,
  keep: ReadonlySet<string>,
  bounds: SnapshotCacheBounds = HOST_BOUNDS,
): void {
  sweep(cacheDir, keep, { stagingMaxAgeMs: SNAPSHOT_STAGING_MAX_AGE_MS, ...bounds });
}

/** Options of `cleanSnapshotCache`. */
export interface CleanSnapshotCacheOptions {
  /**
   * Clean at most this often: a clean runs only when the last one, recorded by the modification time of the
   * `last-clean` file in the folder (`SNAPSHOT_CLEAN_MARKER`), is older than this, or the folder holds more entries
   * than `maxEntries`; a clean that runs records itself (the marker is replaced, never written through a link).
   */
  readonly intervalMs?: number | undefined;
}

/**
 * Cleans a tool snapshot cache folder that loads were told not to sweep (`sweepCache: false`), once, to `bounds`
 * (each one defaults to the loader's own limit, `MAX_SNAPSHOT_CACHE_*`): the least recently used snapshots go
 * first, and staging folders a crashed loader left; with `options.intervalMs`, at most that often. For a tool that
 * loads many folders into a cache of its own and cleans it when it is done, as `raw validate` does. Only a folder
 * verified as private is cleaned (opened without following a link, owned by this user, mode 0700, checked on the
 * descriptor): a folder the loader refused (`snapshot_cache_unsafe`) is left exactly as it is (amendment A10), and no
 * link inside is followed. Never throws.
 */
export function cleanSnapshotCache(
  cacheDir: string,
  bounds: Partial<SnapshotCacheBounds> = {},
  options: CleanSnapshotCacheOptions = {},
): void {
  sweep(cacheDir, new Set(), {
    stagingMaxAgeMs: SNAPSHOT_STAGING_MAX_AGE_MS,
    ...HOST_BOUNDS,
    ...definedBounds(bounds),
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
  });
}

function definedBounds(bounds: Partial<SnapshotCacheBounds>): Partial<SnapshotCacheBounds> {
  return Object.fromEntries(Object.entries(bounds).filter(([, value]) => value !== undefined));
}
