import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { MAX_SOURCE_BYTES } from "@raw/effects";
import { thrownCode } from "../shared/results.js";
import { PATCH_OS_CODE, WRITE_FILE_IO_CHUNK_BYTES } from "./constants.js";
import { IoAborted, NON_BLOCKING_OPEN } from "./regular-file.js";

/** A preflight or application failure: the failing code. */
export class PatchFailure extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** An operating-system error's code when it is 1–80 ASCII letters, digits or underscores, else `patch_io_error`. */
export function patchCode(error: unknown): string {
  if (error instanceof PatchFailure) return error.code;
  const code = thrownCode(error);
  return code !== undefined && PATCH_OS_CODE.test(code) ? code : "patch_io_error";
}

/**
 * Checks every existing ancestor of `path`, from the file-system root down to its parent, without following
 * links (effects.md §8.3.1): a link is `patch_symlink_path`, a non-directory `patch_parent_not_directory`. Stops at
 * the first missing ancestor.
 */
export async function checkAncestors(path: string): Promise<void> {
  const segments = path.split("/").filter((segment) => segment !== "");
  let current = "";
  for (let i = 0; i < segments.length - 1; i++) {
    current += `/${segments[i]}`;
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(current);
    } catch (error) {
      if (thrownCode(error) === "ENOENT") return;
      throw error;
    }
    if (info.isSymbolicLink()) throw new PatchFailure("patch_symlink_path");
    if (!info.isDirectory()) throw new PatchFailure("patch_parent_not_directory");
  }
}

/** An Add target or Move destination must not exist as anything, a dangling link included. */
export async function checkAbsent(path: string): Promise<void> {
  try {
    await lstat(path);
  } catch (error) {
    if (thrownCode(error) === "ENOENT") return;
    throw error;
  }
  throw new PatchFailure("patch_destination_exists");
}

/** An Update or Delete source as read in preflight. */
export interface SourceFile {
  readonly bytes: Buffer;
  readonly dev: bigint;
  readonly ino: bigint;
  /** Permission bits (`mode & 0o7777`). */
  readonly mode: number;
  readonly sha256: string;
}

/**
 * Reads an Update or Delete source (effects.md §8.3.1): not a link (`patch_symlink_path`), a regular file
 * (`patch_not_regular_file`), opened without following links and the same file that was checked, read completely
 * (`patch_source_changed`), at most 16 MiB (`patch_source_too_large`). A missing source fails with the OS code.
 * The open never blocks (`O_NONBLOCK | O_NOCTTY`: a FIFO swapped in after the check is refused by the `fstat`, not
 * waited on), and the bytes are read in chunks, checking `signal` before each one (`IoAborted`, A3).
 */
export async function readSource(path: string, signal?: AbortSignal): Promise<SourceFile> {
  const info = await lstat(path, { bigint: true });
  if (info.isSymbolicLink()) throw new PatchFailure("patch_symlink_path");
  if (!info.isFile()) throw new PatchFailure("patch_not_regular_file");
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | NON_BLOCKING_OPEN);
  } catch (error) {
    if (thrownCode(error) === "ELOOP") throw new PatchFailure("patch_source_changed");
    throw error;
  }
  try {
    const opened = await handle.stat({ bigint: true });
    if (!opened.isFile() || opened.dev !== info.dev || opened.ino !== info.ino) {
      throw new PatchFailure("patch_source_changed");
    }
    if (opened.size > BigInt(MAX_SOURCE_BYTES)) throw new PatchFailure("patch_source_too_large");
    const size = Number(opened.size);
    const bytes = Buffer.alloc(size);
    let length = 0;
    while (length < size) {
      if (signal?.aborted) throw new IoAborted(false);
      const want = Math.min(WRITE_FILE_IO_CHUNK_BYTES, size - length);
      const { bytesRead } = await handle.read(bytes, length, want, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const probe = Buffer.alloc(1);
    const { bytesRead: extra } = await handle.read(probe, 0, 1, length);
    if (length !== size || extra !== 0) throw new PatchFailure("patch_source_changed");
    return {
      bytes,
      dev: opened.dev,
      ino: opened.ino,
      mode: Number(opened.mode) & 0o7777,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    };
  } finally {
    await handle.close();
  }
}

/** Lines of a text (effects.md §8.3.2): spans ending after a LF, plus a final span without LF when non-empty. */
export function countLines(bytes: Uint8Array): number {
  let count = 0;
  let at = -1;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (;;) {
    at = buffer.indexOf(0x0a, at + 1);
    if (at < 0) break;
    count++;
  }
  if (buffer.length > 0 && buffer[buffer.length - 1] !== 0x0a) count++;
  return count;
}
