import { randomUUID } from "node:crypto";
import { chmod, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type FolderFile, readFolderFileSet, sameBytes } from "./file-set.js";

/** The default cache directory of tool snapshots: `raw-tool-snapshots` under `os.tmpdir()`. */
export function defaultSnapshotCacheDir(): string {
  return join(tmpdir(), "raw-tool-snapshots");
}

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
 * Materializes the content-addressed copy `<cacheDir>/<digest>` of a tool folder from the bytes that were
 * validated (tool-api.md §5.4). An existing copy is verified file by file before reuse and rebuilt when it differs.
 * The copy is written to a private temporary directory first and renamed into place. Returns its path.
 */
export async function materializeSnapshot(
  cacheDir: string,
  digest: string,
  files: readonly FolderFile[],
): Promise<string> {
  const target = join(cacheDir, digest);
  if ((await exists(target)) && (await verifyCopy(target, files))) return target;
  await mkdir(cacheDir, { recursive: true });
  const staging = join(cacheDir, `.${digest}.${process.pid}.${randomUUID()}`);
  try {
    await mkdir(staging, { recursive: true });
    for (const file of files) {
      const path = join(staging, ...file.relpath.split("/"));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.bytes);
      await chmod(path, file.mode);
    }
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
