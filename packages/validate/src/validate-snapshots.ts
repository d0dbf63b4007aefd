import { join } from "node:path";
import { MAX_SNAPSHOT_CACHE_AGE_MS, type SnapshotCacheBounds } from "@raw/tool-api";

/** The folder under Raw's cache root (`rawCacheRoot()` of `@raw/tool-api`) that holds the copies of `raw validate`. */
export const VALIDATE_SNAPSHOTS_FOLDER = "validate-snapshots";

/**
 * The folder under Raw's cache root that holds the hook copies of `raw validate`, apart from the hosts'
 * `hook-snapshots`. The hook loader cleans it after each hook to the hook cache's own bounds (`@raw/hook-protocol`).
 */
export const VALIDATE_HOOK_SNAPSHOTS_FOLDER = "validate-hook-snapshots";

/**
 * The bounds of that folder, cleaned once at the end of each run: more entries than a host's cache (a validation
 * run may cover a thousand folders, and each keeps its copy for the next run), the same age.
 */
export const VALIDATE_SNAPSHOT_BOUNDS: SnapshotCacheBounds = {
  maxEntries: 4096,
  maxAgeMs: MAX_SNAPSHOT_CACHE_AGE_MS,
  maxBytes: 256 * 1024 * 1024,
};

/**
 * How often a run cleans the folder fully (ages and bytes, which means a look at every copy); in between, a run only
 * counts the copies (one listing) and cleans when there are more than `VALIDATE_SNAPSHOT_BOUNDS.maxEntries`.
 */
export const VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Where `raw validate` keeps the content-addressed copies its entries are imported from (`tool-api.md` §5.4,
 * amendment A8), as a host imports them: a folder of its own under Raw's private cache root, apart from the hosts'
 * `tool-snapshots`, so that validating a thousand folders never evicts a host's snapshots. A copy stays for the next
 * run: an unchanged folder is verified against it file by file and imported again without writing anything, the
 * case of a tool author who runs `raw validate` after each fix. The loader does not sweep the folder after each tool
 * (`sweepCache: false`); the run cleans it once at its end, to `VALIDATE_SNAPSHOT_BOUNDS`.
 */
export class ValidateSnapshots {
  private folder: string | undefined;

  /** The folder under `cacheRoot` (`rawCacheRoot()`); the loader creates it (mode 0700) on first use. */
  readonly dir = (cacheRoot: string): string => {
    this.folder ??= join(cacheRoot, VALIDATE_SNAPSHOTS_FOLDER);
    return this.folder;
  };

  /**
   * The folder of hook copies under `cacheRoot`, apart from the hosts' `hook-snapshots` (validating many hook
   * folders never evicts a host's hook snapshots).
   */
  readonly hookDir = (cacheRoot: string): string => join(cacheRoot, VALIDATE_HOOK_SNAPSHOTS_FOLDER);

  /**
   * Cleans the folder to its bounds: fully when the last full clean is older than
   * `VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS` or there are more copies than the entry bound, else not at all (so that
   * validating one folder does not look at the thousand copies of an earlier run). A run that validated no tool
   * folder outside the bundled ones leaves the folder as it was. `cleanSnapshotCache` of `@raw/tool-api` checks the
   * folder again on a descriptor and reads its `last-clean` marker there: a folder the loader refused
   * (`snapshot_cache_unsafe`: a link, another user's folder, a folder others can write in) is never read, cleaned or
   * written, and a marker that is a link is replaced, never written through (amendment A10). Never fails.
   */
  async clean(): Promise<void> {
    const folder = this.folder;
    if (folder === undefined) return;
    try {
      const { cleanSnapshotCache } = await import("@raw/tool-api");
      cleanSnapshotCache(folder, VALIDATE_SNAPSHOT_BOUNDS, {
        intervalMs: VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS,
      });
    } catch {
      // Cleaning never fails a validation; the next run cleans again.
    }
  }
}
