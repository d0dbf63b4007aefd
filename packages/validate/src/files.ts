import { isUtf8 } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { type JsonSource, parseJsonSource, type SourcePosition } from "./json-source.js";

/** The largest input file the CLI reads (rules, panel documents, cases, `@file` arguments): 8 MiB. */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

/** Codes of input-file failures (exit 1). */
export type FileFailureCode =
  | "file_missing"
  | "not_a_file"
  | "file_too_large"
  | "file_unreadable"
  | "file_not_utf8"
  | "json_invalid";

/** Why a file could not be read or parsed; `position` is set for JSON syntax errors. */
export interface FileFailure {
  ok: false;
  code: FileFailureCode;
  /** The whole message, naming the file (and the line and column of a JSON syntax error). */
  message: string;
  /** The message without the file name and position (for reports that show them in their own columns). */
  detail: string;
  position?: SourcePosition;
  /** Guidance beside the message (a byte-order mark: remove it). */
  hint?: string;
}

/** A file read as strict UTF-8 text. */
export type TextFile = { ok: true; text: string } | FileFailure;

/** A file parsed as JSON, with the source positions of its JSON Pointers. */
export type JsonFile =
  | { ok: true; text: string; value: unknown; source: Extract<JsonSource, { ok: true }> }
  | FileFailure;

/** How a path is shown: relative to `cwd` when it lies inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return absolute;
  return rel;
}

function failure(
  code: FileFailureCode,
  message: string,
  detail: string = message,
  position?: SourcePosition,
): FileFailure {
  const out: FileFailure = { ok: false, code, message, detail };
  if (position !== undefined) out.position = position;
  return out;
}

/** The failure of a path that could not be opened or read: missing, not a regular file, or unreadable. */
function unreadable(path: string, shown: string, error: unknown): FileFailure {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return failure("file_missing", `${shown}: no such file`);
  // A socket cannot be opened at all: it is named for what it is.
  let regular: boolean | undefined;
  try {
    regular = statSync(path, { throwIfNoEntry: false })?.isFile();
  } catch {
    // Not even its metadata can be read: unreadable.
  }
  if (regular === false) return failure("not_a_file", `${shown} is not a regular file`);
  return failure("file_unreadable", `${shown}: cannot read (${code ?? (error as Error).message})`);
}

/**
 * Reads `path` as strict UTF-8 text, refusing anything that is not a regular file or is larger than `maxBytes`.
 * Never throws: every problem is a coded failure whose message starts with `shown`. Synchronous: the file is opened
 * without blocking and checked on the open descriptor (a FIFO or a device is refused, never waited on), and read up
 * to one byte past the limit.
 */
export function readTextFileSync(path: string, shown: string, maxBytes = MAX_INPUT_BYTES): TextFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return unreadable(path, shown, error);
  }
  let bytes: Uint8Array;
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return failure("not_a_file", `${shown} is not a regular file`);
    if (info.size > maxBytes)
      return failure("file_too_large", `${shown} is ${info.size} bytes; the limit is ${maxBytes}`);
    // Read at most one byte past the limit: a file that grew after `fstat` is still refused.
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let filled = 0;
    for (;;) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (read === 0) break;
      filled += read;
      if (filled === buffer.length) break;
    }
    if (filled > maxBytes) {
      return failure("file_too_large", `${shown} is larger than ${maxBytes} bytes; the limit is ${maxBytes}`);
    }
    bytes = buffer.subarray(0, filled);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return failure("file_unreadable", `${shown}: cannot read (${code ?? (error as Error).message})`);
  } finally {
    closeSync(fd);
  }
  // Strict UTF-8 (a byte-order mark is kept as U+FEFF, which JSON then rejects at 1:1).
  if (!isUtf8(bytes)) return failure("file_not_utf8", `${shown} is not valid UTF-8`);
  return { ok: true, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8") };
}

/** `readTextFileSync` for callers that await (the same checks and failures). */
export async function readTextFile(
  path: string,
  shown: string,
  maxBytes = MAX_INPUT_BYTES,
): Promise<TextFile> {
  return readTextFileSync(path, shown, maxBytes);
}

/** Parses JSON text; a syntax error is a `json_invalid` failure with the line and column where the JSON breaks. */
export function parseJsonText(text: string, shown: string): JsonFile {
  const source = parseJsonSource(text);
  if (!source.ok) {
    const { line, column } = source.position;
    const out = failure(
      "json_invalid",
      `${shown}:${line}:${column}: ${source.message}`,
      source.message,
      source.position,
    );
    if (source.hint !== undefined) out.hint = source.hint;
    return out;
  }
  return { ok: true, text, value: source.value, source };
}

/** Reads and parses a JSON file (see `readTextFile` and `parseJsonText`). Never throws. */
export async function readJsonFile(
  path: string,
  shown: string,
  maxBytes = MAX_INPUT_BYTES,
): Promise<JsonFile> {
  const read = await readTextFile(path, shown, maxBytes);
  if (!read.ok) return read;
  return parseJsonText(read.text, shown);
}
