import { constants } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { thrownCode } from "../shared/results.js";
import { FILE_TOO_LARGE, NOT_REGULAR_FILE, WRITE_FILE_IO_CHUNK_BYTES } from "./constants.js";

/**
 * Flags added to every open of `write_file` (A3): never wait for the other end of a FIFO (an open that blocks
 * holds a libuv thread-pool thread for as long as it waits) and never acquire a controlling terminal.
 */
export const NON_BLOCKING_OPEN = constants.O_NONBLOCK | constants.O_NOCTTY;

/** A file-system refusal of `write_file` with a stable code (`not_regular_file`, `file_too_large`). */
export class FileRefusal extends Error {
  constructor(readonly code: typeof NOT_REGULAR_FILE | typeof FILE_TOO_LARGE) {
    super(code);
  }
}

/** The signal aborted between two chunks; `touched` tells whether any byte of the file had been changed. */
export class IoAborted extends Error {
  readonly code = "aborted";
  constructor(readonly touched: boolean) {
    super("aborted");
  }
}

/** Throws `not_regular_file` when `path` exists (links followed) and is not a regular file; otherwise returns. */
async function refuseSpecial(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch {
    return; // Missing or unreadable: the open reports it with the OS code.
  }
  if (!isFile) throw new FileRefusal(NOT_REGULAR_FILE);
}

/**
 * Opens `path` (links followed) with `flags` plus `O_NONBLOCK | O_NOCTTY` and returns the handle only when its
 * `fstat` is a regular file (A3). A FIFO, socket, character or block device or directory is refused with
 * `not_regular_file` (a `FileRefusal`) before any byte is read or written: a `stat` refuses it without opening it,
 * and the `fstat` of the descriptor refuses a path swapped in between. Other failures are the OS error.
 */
export async function openRegularFile(path: string, flags: number, mode = 0o666): Promise<FileHandle> {
  await refuseSpecial(path);
  let handle: FileHandle;
  try {
    handle = await open(path, flags | NON_BLOCKING_OPEN, mode);
  } catch (error) {
    // EISDIR, ENXIO (a socket, a FIFO without a reader), ENODEV...: a special file that appeared since the stat.
    if (thrownCode(error) !== "ENOENT") await refuseSpecial(path);
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw new FileRefusal(NOT_REGULAR_FILE);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  return handle;
}

/**
 * Reads a whole regular file through `handle` in chunks of `WRITE_FILE_IO_CHUNK_BYTES`, at most `limit` bytes
 * (`file_too_large` past it, whatever `st_size` says), checking `signal` before every chunk (`IoAborted`).
 */
export async function readAtMost(
  handle: FileHandle,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<Buffer> {
  if ((await handle.stat()).size > limit) throw new FileRefusal(FILE_TOO_LARGE);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    if (signal?.aborted) throw new IoAborted(false);
    const want = Math.min(WRITE_FILE_IO_CHUNK_BYTES, limit + 1 - total);
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, total);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > limit) throw new FileRefusal(FILE_TOO_LARGE);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Writes `bytes` through `handle` in chunks of `WRITE_FILE_IO_CHUNK_BYTES`, from `position` (or at the end of an
 * `O_APPEND` handle when `null`), checking `signal` before every chunk. An abort throws `IoAborted` whose
 * `touched` is true when `touched` was or a chunk had been written.
 */
export async function writeChunks(
  handle: FileHandle,
  bytes: Uint8Array,
  position: number | null,
  signal: AbortSignal | undefined,
  touched = false,
): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    if (signal?.aborted) throw new IoAborted(touched || offset > 0);
    const length = Math.min(WRITE_FILE_IO_CHUNK_BYTES, bytes.length - offset);
    const { bytesWritten } = await handle.write(
      bytes,
      offset,
      length,
      position === null ? null : position + offset,
    );
    if (bytesWritten <= 0) throw Object.assign(new Error("no progress writing"), { code: "EIO" });
    offset += bytesWritten;
  }
}
