import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
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

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Enumerates every file of the folder at real path `root` recursively (tool-api.md §5.2 step 6) and reads it.
 * Symbolic links are followed when their real target stays inside the folder (else `file_escape`); a directory
 * link cycle, a dangling or looping link, and anything that is neither a regular file nor a directory (socket,
 * FIFO, device) give `file_unsupported`. Non-regular files are never opened.
 */
export async function readFolderFileSet(root: string): Promise<FolderFileSet> {
  const files: FolderFile[] = [];
  const problems: FolderFileProblem[] = [];

  const readRegular = async (path: string, relpath: string, mode: number): Promise<void> => {
    try {
      const bytes = await readFile(path);
      files.push({ relpath, mode: mode & 0o7777, size: bytes.length, bytes });
    } catch {
      problems.push({ code: "file_unsupported", relpath });
    }
  };

  const walk = async (dir: string, rel: string, ancestors: ReadonlySet<string>): Promise<void> => {
    let names: string[];
    try {
      names = (await readdir(dir)).sort(compareCodeUnits);
    } catch {
      problems.push({ code: "file_unsupported", relpath: rel === "" ? "." : rel });
      return;
    }
    for (const name of names) {
      const relpath = rel === "" ? name : `${rel}/${name}`;
      const path = join(dir, name);
      try {
        const info = await lstat(path);
        if (info.isSymbolicLink()) {
          let target: string;
          try {
            target = await realpath(path);
          } catch {
            problems.push({ code: "file_unsupported", relpath });
            continue;
          }
          if (target !== root && !isStrictlyInside(root, target)) {
            problems.push({ code: "file_escape", relpath });
            continue;
          }
          const targetInfo = await stat(target);
          if (targetInfo.isDirectory()) {
            if (ancestors.has(target)) problems.push({ code: "file_unsupported", relpath });
            else await walk(target, relpath, new Set([...ancestors, target]));
          } else if (targetInfo.isFile()) {
            await readRegular(target, relpath, targetInfo.mode);
          } else {
            problems.push({ code: "file_unsupported", relpath });
          }
        } else if (info.isDirectory()) {
          await walk(path, relpath, new Set([...ancestors, path]));
        } else if (info.isFile()) {
          await readRegular(path, relpath, info.mode);
        } else {
          problems.push({ code: "file_unsupported", relpath });
        }
      } catch {
        problems.push({ code: "file_unsupported", relpath });
      }
    }
  };

  await walk(root, "", new Set([root]));
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
