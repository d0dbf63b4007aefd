import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from "node:fs";
import { join } from "node:path";

/** One regular file of a tool folder: its relative path (`/`-separated), permission bits, size and bytes. */
export interface FolderFile {
  readonly relpath: string;
  readonly mode: number;
  readonly size: number;
  readonly bytes: Uint8Array;
}

/** A problem found while enumerating a folder (tool-api.md §5.2 step 6). */
export interface FolderFileProblem {
  readonly code: "file_escape" | "file_unsupported";
  readonly relpath: string;
}

/** The enumerated file set of a folder, sorted by relative path in code-unit order, and its problems. */
export interface FolderFileSet {
  readonly files: FolderFile[];
  readonly problems: FolderFileProblem[];
}

/** True when the real path `child` lies strictly inside the real directory `parent`. */
export function isStrictlyInside(parent: string, child: string): boolean {
  if (parent === "/") return child.length > 1 && child.startsWith("/");
  return child.length > parent.length + 1 && child.startsWith(`${parent}/`);
}

/**
 * Reads the regular file at `path` whole, with its permission bits; `undefined` when it is not a regular file when
 * opened. It is opened without blocking and checked on the open descriptor, so a file swapped for a FIFO or a device
 * after it was listed is refused, never read (a read of a FIFO would wait for a writer forever).
 */
export function readRegularFile(path: string): { bytes: Uint8Array; mode: number } | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return undefined;
    return { bytes: readFileSync(fd), mode: info.mode & 0o7777 };
  } finally {
    closeSync(fd);
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Enumerates every file of the folder at real path `root` recursively (tool-api.md §5.2 step 6) and reads it.
 * Symbolic links are followed when their real target stays inside the folder (else `file_escape`); a directory
 * link cycle, a dangling or looping link, and anything that is neither a regular file nor a directory (socket,
 * FIFO, device) give `file_unsupported`. Non-regular files are never opened.
 *
 * The calls are synchronous: a tool folder is a few small files, read whole into memory anyway, and a synchronous
 * `lstat` or read of a small file costs a few microseconds where an asynchronous one costs a thread-pool round trip
 * of tens (`raw validate` on 1,000 folders spent most of its time in those round trips; `bench/suites/08-cli.mjs`).
 */
export function readFolderFileSet(root: string): FolderFileSet {
  const files: FolderFile[] = [];
  const problems: FolderFileProblem[] = [];

  const readRegular = (path: string, relpath: string): void => {
    try {
      const read = readRegularFile(path);
      if (read === undefined) problems.push({ code: "file_unsupported", relpath });
      else files.push({ relpath, mode: read.mode, size: read.bytes.length, bytes: read.bytes });
    } catch {
      problems.push({ code: "file_unsupported", relpath });
    }
  };

  const walk = (dir: string, rel: string, ancestors: ReadonlySet<string>): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort(compareCodeUnits);
    } catch {
      problems.push({ code: "file_unsupported", relpath: rel === "" ? "." : rel });
      return;
    }
    for (const name of names) {
      const relpath = rel === "" ? name : `${rel}/${name}`;
      const path = join(dir, name);
      try {
        const info = lstatSync(path);
        if (info.isSymbolicLink()) {
          let target: string;
          try {
            target = realpathSync.native(path);
          } catch {
            problems.push({ code: "file_unsupported", relpath });
            continue;
          }
          if (target !== root && !isStrictlyInside(root, target)) {
            problems.push({ code: "file_escape", relpath });
            continue;
          }
          const targetInfo = statSync(target);
          if (targetInfo.isDirectory()) {
            if (ancestors.has(target)) problems.push({ code: "file_unsupported", relpath });
            else walk(target, relpath, new Set([...ancestors, target]));
          } else if (targetInfo.isFile()) {
            readRegular(target, relpath);
          } else {
            problems.push({ code: "file_unsupported", relpath });
          }
        } else if (info.isDirectory()) {
          walk(path, relpath, new Set([...ancestors, path]));
        } else if (info.isFile()) {
          readRegular(path, relpath);
        } else {
          problems.push({ code: "file_unsupported", relpath });
        }
      } catch {
        problems.push({ code: "file_unsupported", relpath });
      }
    }
  };

  walk(root, "", new Set([root]));
  files.sort((a, b) => compareCodeUnits(a.relpath, b.relpath));
  return { files, problems };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** True when two file sets hold the same paths, modes, sizes and bytes, and the same problems. */
export function sameFileSet(a: FolderFileSet, b: FolderFileSet): boolean {
  if (a.files.length !== b.files.length || a.problems.length !== b.problems.length) return false;
  for (let i = 0; i < a.files.length; i++) {
    const x = a.files[i] as FolderFile;
    const y = b.files[i] as FolderFile;
    if (x.relpath !== y.relpath || x.mode !== y.mode || x.size !== y.size || !sameBytes(x.bytes, y.bytes)) {
      return false;
    }
  }
  for (let i = 0; i < a.problems.length; i++) {
    const x = a.problems[i] as FolderFileProblem;
    const y = b.problems[i] as FolderFileProblem;
    if (x.code !== y.code || x.relpath !== y.relpath) return false;
  }
  return true;
}

/** Byte equality of two buffers (exported for the manifest re-check of §5.2 step 7). */
export { sameBytes };
