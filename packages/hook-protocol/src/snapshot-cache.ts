import {
  rawCacheRoot as cacheRoot,
  ensurePrivateDir as ensurePrivate,
  sweepSnapshotCache as sweep,
} from "@raw/node-support";
import { ContractError } from "@raw/schema";
import {
  HOOK_SNAPSHOT_STAGING_MAX_AGE_MS,
  MAX_HOOK_SNAPSHOT_CACHE_AGE_MS,
  MAX_HOOK_SNAPSHOT_CACHE_ENTRIES,
} from "./limits.js";

/**
 * The root of Raw's private cache (the same rule as `@raw/tool-api`'s `rawCacheRoot`, amendment A8):
 * `$RAW_CACHE_DIR` when set, else `$XDG_CACHE_HOME/raw` when `XDG_CACHE_HOME` is an absolute path, else
 * `~/.cache/raw`.
 */
export function rawCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return cacheRoot(env);
}

function unsafe(dir: string, reason: string): ContractError {
  return new ContractError(
    "hook_snapshot_cache_unsafe",
    `snapshot cache ${dir} is not a private folder: ${reason}`,
  );
}

/**
 * Creates `dir` with mode 0700 and checks that it is a private folder of this user (`@raw/node-support`). Returns
 * its real path. Throws `ContractError` `hook_snapshot_cache_unsafe`.
 */
export function ensurePrivateDir(dir: string): string {
  return ensurePrivate(dir, unsafe);
}

/**
 * Cleans a hook snapshot cache directory: staging folders older than `HOOK_SNAPSHOT_STAGING_MAX_AGE_MS`, snapshots
 * not loaded for `MAX_HOOK_SNAPSHOT_CACHE_AGE_MS` and those beyond the newest `MAX_HOOK_SNAPSHOT_CACHE_ENTRIES`
 * (each holds at most `MAX_HOOK_SNAPSHOT_BYTES`, so the cache is bounded). Names in `keep` stay. Never fails a load.
 */
export function sweepSnapshotCache(cacheDir: string, keep: ReadonlySet<string>): void {
  sweep(cacheDir, keep, {
    stagingMaxAgeMs: HOOK_SNAPSHOT_STAGING_MAX_AGE_MS,
    maxAgeMs: MAX_HOOK_SNAPSHOT_CACHE_AGE_MS,
    maxEntries: MAX_HOOK_SNAPSHOT_CACHE_ENTRIES,
  });
}
