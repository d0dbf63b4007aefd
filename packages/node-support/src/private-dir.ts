import { chmodSync, lstatSync, mkdirSync, realpathSync } from "node:fs";
import { resolve } from "node:path";

/** Builds the error thrown for a folder that is not private: each package throws its own coded `ContractError`. */
export type UnsafeDirError = (dir: string, reason: string) => Error;

/**
 * Creates `dir` (and missing parents) with mode 0700 and checks that it is a private folder of this user: a real
 * directory (not a link), owned by the current user, with no permission bits for group or others (they are
 * removed when the user owns it). Returns its real path. Throws `unsafe(path, reason)` otherwise. Synchronous, as
 * every file-system call of a snapshot is (see `layOutResolutionMirror`).
 */
export function ensurePrivateDir(dir: string, unsafe: UnsafeDirError): string {
  const path = resolve(dir);
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const info = lstatSync(path);
  if (info.isSymbolicLink()) throw unsafe(path, "it is a symbolic link");
  if (!info.isDirectory()) throw unsafe(path, "it is not a directory");
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) throw unsafe(path, `it is owned by uid ${info.uid}`);
  if ((info.mode & 0o077) !== 0) chmodSync(path, 0o700);
  return realpathSync.native(path);
}
