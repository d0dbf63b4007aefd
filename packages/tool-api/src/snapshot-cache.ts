import { join } from "node:path";
import {
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

function unsafe(dir: string, reason: string): ContractError {
  return new ContractError(
    "snapshot_cache_unsafe",
    `snapshot cache ${dir} is not a private folder: ${reason}`,
  );
}

/**
 * Creates `dir` with mode 0700 and checks that it is a private folder of this user (`@raw/node-support`). Returns
 * its real path. Throws `ContractError` `snapshot_cache_unsafe`.
 */
export function ensurePrivateDir(dir: string): string {
  return ensurePrivate(dir, unsafe);
}

/**
 * Cleans a tool snapshot cache directory: staging folders older than `SNAPSHOT_STAGING_MAX_AGE_MS`, snapshots not
 * used for `MAX_SNAPSHOT_CACHE_AGE_MS`, those beyond the newest `MAX_SNAPSHOT_CACHE_ENTRIES`, and the oldest ones
 * while the recorded total exceeds `MAX_SNAPSHOT_CACHE_BYTES`. Names in `keep` stay. Never fails a load.
 */
export function sweepSnapshotCache(cacheDir: string, keep: ReadonlySet<string>): Promise<void> {
  return sweep(cacheDir, keep, {
    stagingMaxAgeMs: SNAPSHOT_STAGING_MAX_AGE_MS,
    maxAgeMs: MAX_SNAPSHOT_CACHE_AGE_MS,
    maxEntries: MAX_SNAPSHOT_CACHE_ENTRIES,
    maxBytes: MAX_SNAPSHOT_CACHE_BYTES,
  });
}
