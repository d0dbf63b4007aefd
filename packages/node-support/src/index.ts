/**
 * `@raw/node-support`: private Node.js I/O helpers of `@raw/tool-api` and `@raw/hook-protocol` (the snapshot cache
 * of amendment A8 and the resolution mirror of a snapshot). Never published: each package's tsup build inlines it.
 */
export { rawCacheRoot } from "./cache-root.js";
export { ensurePrivateDir, type UnsafeDirError } from "./private-dir.js";
export { layOutResolutionMirror, MIRROR_ROOT, mirrorPath } from "./resolution-mirror.js";
export {
  SNAPSHOT_CLEAN_MARKER,
  SNAPSHOT_SIZE_FILE,
  SNAPSHOT_STAGING_NAME,
  SNAPSHOT_STAGING_PREFIX,
  type SnapshotCacheLimits,
  sweepSnapshotCache,
} from "./sweep-snapshot-cache.js";
export { FD_PATHS, openDirNoFollow, privateDirProblem, withVerifiedDir } from "./verified-dir.js";
