import { randomUUID } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { layOutResolutionMirror, mirrorPath, SNAPSHOT_SIZE_FILE } from "@raw/node-support";
import { type FolderFile, readFolderFileSet, sameBytes } from "./file-set.js";

export { defaultSnapshotCacheDir } from "./snapshot-cache.js";

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** True when the copy at `dir` holds exactly `files` (paths, modes, sizes, bytes) and nothing else. */
async function verifyCopy(dir: string, files: readonly FolderFile[]): Promise<boolean> {
  try {
    const copy = await readFolderFileSet(dir);
    if (copy.problems.length > 0 || copy.files.length !== files.length) return false;
    for (let i = 0; i < files.length; i++) {
      const a = files[i] as FolderFile;
      const b = copy.files[i] as FolderFile;
      if (a.relpath !== b.relpath || a.mode !== b.mode || a.size !== b.size || !sameBytes(a.bytes, b.bytes)) {
        return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Records in the snapshot home the byte size of its largest copy (what the cache sweep counts); in a `fresh` home
 * nothing is recorded yet.
 */
async function recordSize(home: string, files: readonly FolderFile[], fresh: boolean): Promise<void> {
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const path = join(home, SNAPSHOT_SIZE_FILE);
  let recorded = 0;
  if (!fresh) {
    try {
      recorded = Number((await readFile(path, "utf8")).trim()) || 0;
    } catch {
      // First copy of this digest.
    }
  }
  if (bytes > recorded) await writeFile(path, `${bytes}\n`, { mode: 0o600 });
}

/**
 * Materializes the content-addressed copy of a tool folder from the bytes that were validated (tool-api.md §5.4,
 * amendment A8). The copy lives in the snapshot home `<cacheDir>/<digest>/`, at the place of the resolution mirror
 * that stands for the folder's real path `folder` (`<cacheDir>/<digest>/root/<folder>`), so bare imports from the
 * copy resolve as from the original folder. An existing copy is verified file by file before reuse and rebuilt when
 * it differs. The copy is written to a private staging directory first and renamed into place. `cacheDir` must be
 * an existing private directory (`ensurePrivateDir`). Returns the copy's path.
 */
export async function materializeSnapshot(
  cacheDir: string,
  digest: string,
  files: readonly FolderFile[],
  folder: string,
): Promise<string> {
  const home = join(cacheDir, digest);
  const target = mirrorPath(home, folder);
  // A home this call creates is new: nothing to mark as used, no size recorded, no earlier copy to verify.
  let fresh = true;
  try {
    await mkdir(home, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    fresh = false;
  }
  if (!fresh) {
    const now = new Date();
    await utimes(home, now, now);
  }
  await Promise.all([layOutResolutionMirror(home, folder), recordSize(home, files, fresh)]);
  if (!fresh && (await exists(target)) && (await verifyCopy(target, files))) return target;
  const staging = join(home, `.staging-${process.pid}-${randomUUID()}`);
  try {
    await mkdir(staging, { mode: 0o700 });
    await Promise.all(
      files.map(async (file) => {
        const path = join(staging, ...file.relpath.split("/"));
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        await writeFile(path, file.bytes);
        await chmod(path, file.mode);
      }),
    );
    if (await exists(target)) {
      if (await verifyCopy(target, files)) return target;
      await rm(target, { recursive: true, force: true });
    }
    try {
      await rename(staging, target);
    } catch (error) {
      // Another loader may have won the race: its copy is fine when it verifies.
      if (await verifyCopy(target, files)) return target;
      throw error;
    }
    return target;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
