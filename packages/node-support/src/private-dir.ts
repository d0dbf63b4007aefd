import { closeSync, fchmodSync, fstatSync, lstatSync, mkdirSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { openDirNoFollow, privateDirProblem } from "./verified-dir.js";

/** Builds the error thrown for a folder that is not private: each package throws its own coded `ContractError`. */
export type UnsafeDirError = (dir: string, reason: string) => Error;

/**
 * Creates `dir` (and missing parents) with mode 0700 and checks that it is a private folder of this user, on a
 * descriptor opened without following a link (`O_NOFOLLOW | O_DIRECTORY`, then `fstat`): a real directory (not a
 * link), owned by the current user, that group and others cannot write in. Read or search bits for group or others
 * are removed (`fchmod` to 0700); a folder they could write in is refused, since they may have planted entries in it.
 * Returns its real path. Throws `unsafe(path, reason)` otherwise, and then changes nothing in or about the folder
 * (amendment A10, "refused means untouched"; the cache sweep verifies the folder again and leaves a refused one
 * alone). Synchronous, as every file-system call of a snapshot is (see `layOutResolutionMirror`).
 */
export function ensurePrivateDir(dir: string, unsafe: UnsafeDirError): string {
  const path = resolve(dir);
  // Something at the path already (a folder, a file, a link, even one that dangles) is judged by the open below.
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) {
    try {
      mkdirSync(path, { recursive: true, mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  const fd = openDirNoFollow(path);
  if (fd === undefined) throw unsafe(path, kindProblem(path));
  try {
    const info = fstatSync(fd);
    const problem = privateDirProblem(info, { fixableMode: true });
    if (problem !== undefined) throw unsafe(path, problem);
    if ((info.mode & 0o077) !== 0) fchmodSync(fd, 0o700);
  } finally {
    closeSync(fd);
  }
  return realpathSync.native(path);
}

/** Why `path` could not be opened as a folder without following a link (`lstat`: a link is never followed). */
function kindProblem(path: string): string {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (info?.isSymbolicLink() === true) return "it is a symbolic link";
  if (info !== undefined && !info.isDirectory()) return "it is not a directory";
  return "it cannot be opened";
}
