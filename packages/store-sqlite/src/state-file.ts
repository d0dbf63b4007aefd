import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  openSync,
  realpathSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { storeError } from "./errors.js";
import { STATE_FILE_MODE } from "./limits.js";

/** The companions SQLite keeps next to a database file (`-journal` before WAL mode, then `-wal` and `-shm`). */
export const SQLITE_COMPANION_SUFFIXES: readonly string[] = ["-journal", "-wal", "-shm"];

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** `interaction_store_unsafe`: the path names a file the store refuses to open, create or change. */
function unsafe(path: string, reason: string): Error {
  return storeError("interaction_store_unsafe", `${path} ${reason}`);
}

function unavailable(error: unknown): Error {
  const code = errnoOf(error);
  return storeError(
    "interaction_store_unavailable",
    `cannot open the database file${code ? ` (${code})` : ""}`,
  );
}

/**
 * The database file of one store, opened by the store itself before SQLite sees it: the real path SQLite opens
 * (so its companions are found where SQLite puts them), and descriptors held until `release` (closing a descriptor
 * of a file drops every POSIX lock this process holds on it, SQLite's included, so none is closed while the database
 * is open).
 */
export interface StateFile {
  /** The real path of the database file (no symbolic link in it). */
  readonly path: string;
  /** True when this open created the file. */
  readonly created: boolean;
  /** Sets the file and every companion present to `STATE_FILE_MODE`, or throws `interaction_store_unsafe`. */
  restrict(): void;
  /** Closes the descriptors; with `discard`, removes a file this open created. */
  release(discard?: boolean): void;
}

/** Checks an open descriptor: a regular file of this user, else `interaction_store_unsafe`. */
function checkOwned(fd: number, path: string): void {
  const info = fstatSync(fd);
  if (!info.isFile()) throw unsafe(path, "is not a regular file");
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid)
    throw unsafe(path, `is owned by uid ${info.uid}, not by this user`);
}

/** Restricts an open descriptor to `STATE_FILE_MODE` (on the descriptor: a link swapped in meanwhile is never followed). */
function restrictFd(fd: number): void {
  if ((fstatSync(fd).mode & 0o777) !== STATE_FILE_MODE) fchmodSync(fd, STATE_FILE_MODE);
}

/**
 * The real path of the database file `given`: a symbolic link to an existing file is followed to it (SQLite does the
 * same, and keeps its companions next to the real file); a link to a file that does not exist yet is refused, since
 * creating through it would create a file wherever the link points, with a mode this store does not choose.
 */
function realPathOf(given: string): string {
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(given, { throwIfNoEntry: false });
  } catch (error) {
    throw unavailable(error);
  }
  if (info?.isSymbolicLink() === true) {
    let target: ReturnType<typeof statSync>;
    try {
      target = statSync(given, { throwIfNoEntry: false });
    } catch (error) {
      throw unavailable(error);
    }
    if (target === undefined) {
      throw unsafe(
        given,
        "is a symbolic link to a file that does not exist yet; create the file first or give its own path",
      );
    }
    return realpathSync.native(given);
  }
  try {
    return join(realpathSync.native(dirname(given)), basename(given));
  } catch (error) {
    throw unavailable(error);
  }
}

/** Opens a companion without following a link; `undefined` when there is none. Throws `interaction_store_unsafe`. */
function openCompanion(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw unsafe(path, "is a symbolic link");
    throw unavailable(error);
  }
  try {
    checkOwned(fd, path);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/**
 * Opens the database file at `path` for a store (amendment A10, "refused means untouched"): a new file is created
 * here with `O_CREAT | O_EXCL | O_NOFOLLOW` and mode 0600, before SQLite writes a byte; an existing one is opened
 * without following a link and must be a regular file of this user; a path that is a symbolic link to a file that
 * does not exist yet is refused; companions (`-journal`, `-wal`, `-shm`) that are links or another user's files are
 * refused. Throws `interaction_store_unsafe` or `interaction_store_unavailable`; nothing is created or changed then.
 * Nothing is restricted here: `restrict()` runs once the file is known to be a Raw database, so a refused file keeps
 * its mode.
 */
export function openStateFile(path: string): StateFile {
  const real = realPathOf(resolve(path));
  let created = false;
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDWR | NOFOLLOW | NONBLOCK);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ELOOP") throw unsafe(real, "is a symbolic link");
    if (code !== "ENOENT") throw unavailable(error);
    try {
      fd = openSync(
        real,
        constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW,
        STATE_FILE_MODE,
      );
      created = true;
    } catch (again) {
      if (errnoOf(again) === "EEXIST") throw unsafe(real, "appeared while it was being created");
      throw unavailable(again);
    }
  }
  const held: number[] = [fd];
  const release = (discard = false) => {
    for (const descriptor of held.splice(0)) {
      try {
        closeSync(descriptor);
      } catch {
        // Already closed.
      }
    }
    if (discard && created) {
      try {
        unlinkSync(real);
      } catch {
        // Nothing more to undo.
      }
    }
  };
  try {
    checkOwned(fd, real);
    // A file this open created is 0600 whatever the umask left (a umask can only take bits away).
    if (created) restrictFd(fd);
    for (const suffix of SQLITE_COMPANION_SUFFIXES) {
      const companion = openCompanion(`${real}${suffix}`);
      if (companion !== undefined) held.push(companion);
    }
  } catch (error) {
    release(true);
    throw error;
  }
  return {
    path: real,
    created,
    restrict() {
      // The database file first: SQLite creates each companion with the database file's mode. Each call looks at
      // the companions again (SQLite creates them as it goes); each descriptor is held until `release`.
      restrictFd(fd);
      for (const suffix of SQLITE_COMPANION_SUFFIXES) {
        const companion = openCompanion(`${real}${suffix}`);
        if (companion === undefined) continue;
        held.push(companion);
        restrictFd(companion);
      }
    },
    release,
  };
}
