import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** Run folders of `raw validate` older than this were left by a run that was killed; the next run removes them. */
export const STALE_RUN_SNAPSHOTS_MS = 24 * 60 * 60 * 1000;

/** The folder under Raw's cache root (`rawCacheRoot()` of `@raw/tool-api`) that holds one folder per running validation. */
const RUNS_FOLDER = "validate-runs";

async function removeStale(runs: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(runs);
  } catch {
    return;
  }
  const now = Date.now();
  await Promise.all(
    names.map(async (name) => {
      try {
        const info = await stat(join(runs, name));
        if (now - info.mtimeMs > STALE_RUN_SNAPSHOTS_MS)
          await rm(join(runs, name), { recursive: true, force: true });
      } catch {
        // Gone meanwhile.
      }
    }),
  );
}

/**
 * The snapshot folder of one `raw validate` run: tool entries are imported from content-addressed copies, as a host
 * imports them (`tool-api.md` §5.4, amendment A8), so an entry that reaches a file outside its folder fails here as
 * it would in a host. The copies go to a folder of this run under Raw's private cache root, not to the shared
 * snapshot cache: the loader does not sweep it (`sweepCache: false`), and the run removes it at its end, so
 * validation leaves the user's cache as it was. The folder is created by the loader (mode 0700) on first use.
 */
export class RunSnapshots {
  private folder: string | undefined;

  /**
   * The run's folder under `cacheRoot` (`rawCacheRoot()`), named on first use: a run that validates no tool folder
   * creates nothing.
   */
  readonly dir = (cacheRoot: string): string => {
    if (this.folder === undefined) {
      const runs = join(cacheRoot, RUNS_FOLDER);
      void removeStale(runs);
      this.folder = join(runs, `${process.pid}-${randomBytes(8).toString("hex")}`);
    }
    return this.folder;
  };

  /**
   * Removes the run's folder (every copy of this run) in a detached `rm -rf` that outlives this process, so that the
   * report is not held up by thousands of file-system calls; a folder that is still there a day later (the removal
   * was killed too) goes with the next run's clean-up. Never fails.
   */
  remove(): void {
    const folder = this.folder;
    if (folder === undefined) return;
    try {
      const removal = spawn("rm", ["-rf", "--", folder], { detached: true, stdio: "ignore" });
      removal.on("error", () => void rm(folder, { recursive: true, force: true }).catch(() => undefined));
      removal.unref();
    } catch {
      void rm(folder, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}
