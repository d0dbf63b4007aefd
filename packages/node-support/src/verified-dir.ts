import { closeSync, constants, existsSync, fstatSync, openSync, type Stats } from "node:fs";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Where this process names its own open descriptors as paths (Linux): `<FD_PATHS>/<fd>` is the opened folder itself. */
export const FD_PATHS = "/proc/self/fd";

let fdPaths: boolean | undefined;

/** True when `FD_PATHS` names this process's descriptors (looked up once). */
function haveFdPaths(): boolean {
  fdPaths ??= existsSync(`${FD_PATHS}/0`);
  return fdPaths;
}

/** Why a folder is not private to this user, or `undefined` when it is: its type, owner and mode, from `fstat`. */
export function privateDirProblem(info: Stats, options: { fixableMode?: boolean } = {}): string | undefined {
  if (!info.isDirectory()) return "it is not a directory";
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) return `it is owned by uid ${info.uid}`;
  const loose = info.mode & 0o077;
  if (loose === 0) return undefined;
  // Group or others could write in it: entries may have been planted there (links, folders of theirs).
  if ((loose & 0o022) !== 0 || options.fixableMode !== true) {
    return `its mode ${(info.mode & 0o777).toString(8).padStart(4, "0")} is not 0700`;
  }
  return undefined;
}

/**
 * Opens `dir` as a folder without following a link (`O_NOFOLLOW | O_DIRECTORY`); `undefined` when it is a link,
 * not a folder, or cannot be opened. The caller closes the descriptor.
 */
export function openDirNoFollow(dir: string): number | undefined {
  try {
    return openSync(dir, constants.O_RDONLY | NOFOLLOW | DIRECTORY);
  } catch {
    return undefined;
  }
}

/**
 * Runs `use` on a folder verified as private to this user (amendment A10, "refused means untouched"): `dir` is opened
 * without following a link (`O_NOFOLLOW | O_DIRECTORY`), and the descriptor must be a folder owned by this user with
 * mode 0700 (nothing for group or others), checked with `fstat` on the descriptor. `use` gets a path that names
 * the opened folder itself while the descriptor is open (`/proc/self/fd/<fd>` on Linux, so a folder swapped for a
 * link after the check is never followed; elsewhere `dir`). Returns what `use` returns, or `undefined`, without
 * calling it, when the folder is refused or missing: nothing in a refused folder is read, written or removed.
 */
export function withVerifiedDir<T>(dir: string, use: (path: string) => T): T | undefined {
  const fd = openDirNoFollow(dir);
  if (fd === undefined) return undefined;
  try {
    if (privateDirProblem(fstatSync(fd)) !== undefined) return undefined;
    return use(haveFdPaths() ? `${FD_PATHS}/${fd}` : dir);
  } finally {
    closeSync(fd);
  }
}
