import { randomUUID } from "node:crypto";
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { layOutResolutionMirror, mirrorPath, SNAPSHOT_SIZE_FILE } from "@raw/node-support";
import { type FolderFile, readFolderFileSet, sameBytes } from "./file-set.js";

export { defaultSnapshotCacheDir } from "./snapshot-cache.js";

function exists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** True when the copy at `dir` holds exactly `files` (paths, modes, sizes, bytes) and nothing else. */
function verifyCopy(dir: string, files: readonly FolderFile[]): boolean {
  try {
    const copy = readFolderFileSet(dir);
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
 * Records in the snapshot home how many bytes its copies hold (what the cache sweep counts). A home holds one copy
 * per original place of the folder (a folder that moved, or two checkouts of the same tool): a copy at a new place
 * adds its bytes (`added`), a copy rebuilt in place counts once. In a `fresh` home nothing is recorded yet.
 */
function recordSize(home: string, files: readonly FolderFile[], fresh: boolean, added: boolean): void {
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const path = join(home, SNAPSHOT_SIZE_FILE);
  let recorded = 0;
  if (!fresh) {
    try {
      recorded = Number(readFileSync(path, "utf8").trim()) || 0;
    } catch {
      // First copy of this digest.
    }
  }
  const total = added ? recorded + bytes : Math.max(recorded, bytes);
  if (total !== recorded) writeFileSync(path, `${total}\n`, { mode: 0o600 });
}

/**
 * Materializes the content-addressed copy of a tool folder from the bytes that were validated (tool-api.md §5.4,
 * amendment A8). The copy lives in the snapshot home `<cacheDir>/<digest>/`, at the place of the resolution mirror
 * that stands for the folder's real path `folder` (`<cacheDir>/<digest>/root/<folder>`), so bare imports from the
 * copy resolve as from the original folder. An existing copy is verified file by file before reuse and rebuilt when
 * it differs. The copy is written to a private staging directory first and renamed into place. `cacheDir` must be
 * an existing private directory (`ensurePrivateDir`). Returns the copy's path. The file-system calls are synchronous
 * (see `layOutResolutionMirror` in `@raw/node-support`).
 */
export function materializeSnapshot(
  cacheDir: string,
  digest: string,
  files: readonly FolderFile[],
  folder: string,
): string {
  const home = join(cacheDir, digest);
  const target = mirrorPath(home, folder);
  // A home this call creates is new: nothing to mark as used, no size recorded, no earlier copy to verify.
  let fresh = true;
  try {
    mkdirSync(home, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    fresh = false;
  }
  if (!fresh) {
    const now = new Date();
    utimesSync(home, now, now);
  }
  layOutResolutionMirror(home, folder);
  const existed = !fresh && exists(target);
  recordSize(home, files, fresh, !existed);
  if (existed && verifyCopy(target, files)) return target;
  const staging = join(home, `.staging-${process.pid}-${randomUUID()}`);
  try {
    mkdirSync(staging, { mode: 0o700 });
    for (const file of files) {
      const path = join(staging, ...file.relpath.split("/"));
      // The staging folder exists: only a file in a subfolder needs its folders made.
      if (file.relpath.includes("/")) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, file.bytes, { flag: "wx" });
      chmodSync(path, file.mode);
    }
    if (exists(target)) {
      if (verifyCopy(target, files)) return target;
      rmSync(target, { recursive: true, force: true });
    }
    try {
      renameSync(staging, target);
    } catch (error) {
      // Another loader may have won the race: its copy is fine when it verifies.
      if (verifyCopy(target, files)) return target;
      throw error;
    }
    return target;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
