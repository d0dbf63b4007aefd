import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { normalizePath, type WriteFileMode } from "@raw/effects";
import type { HandlerResult, ToolHandlerContext } from "@raw/tool-api";
import { batchResult, errorResult, rowsFit, thrownCode, utf8Length } from "../shared/results.js";
import {
  MAX_OPERATION_READ_BYTES,
  OPERATION_OS_CODE,
  OPERATIONS_BUDGET_MESSAGE,
  OUTPUT_BUDGET_TOO_SMALL,
  WORST_CASE_ERROR,
} from "./constants.js";
import { type FileChange, publishFileChanges } from "./files-panel.js";
import { IoAborted, openRegularFile, readAtMost, writeChunks } from "./regular-file.js";

/** One validated operation of the `operations` form (effects.md §6.1, §9). */
export interface WriteOperation {
  readonly path: string;
  readonly mode: WriteFileMode;
  readonly content?: string;
  readonly old_text?: string;
  readonly new_text?: string;
  readonly start_line?: number;
  readonly end_line?: number;
  readonly expected_sha256?: string;
}

/** A result row of the `operations` form (effects.md §8.2). */
export type OperationRow =
  | { index: number; path: string; mode: string; status: "ok"; bytes_written: number }
  | { index: number; path: string; mode: string; status: "error" | "skipped"; error: string };

/** A failure inside one operation that becomes the row's `error`. */
class OperationError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BOM_CHAR = "\uFEFF";

/** A row's `error` for a thrown value: its own code, an OS code of ASCII letters, digits and `_`, else `write_error`. */
export function operationErrorCode(error: unknown): string {
  if (error instanceof OperationError) return error.code;
  const code = thrownCode(error);
  return code !== undefined && OPERATION_OS_CODE.test(code) ? code : "write_error";
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** `replace_text`: exactly one occurrence (overlapping occurrences count) of the UTF-8 bytes of `old_text`. */
function replaceText(source: Buffer, oldText: string, newText: string): Buffer {
  const needle = Buffer.from(oldText, "utf8");
  const at = source.indexOf(needle);
  if (at < 0) throw new OperationError("text_not_found");
  if (source.indexOf(needle, at + 1) >= 0) throw new OperationError("text_not_unique");
  return Buffer.concat([
    source.subarray(0, at),
    Buffer.from(newText, "utf8"),
    source.subarray(at + needle.length),
  ]);
}

/**
 * `replace_lines` (effects.md §8.2): lines are byte spans ending after a LF; the selection must hash to
 * `expected_sha256`; a leading BOM survives a replacement at byte 0, and a non-empty replacement that does not end
 * with LF gets the selection's own terminator when the selection does not reach the end of the file.
 */
function replaceLines(source: Buffer, op: WriteOperation): { bytes: Buffer; written: number } {
  const first = op.start_line as number;
  const last = op.end_line as number;
  let start = -1;
  let lastLineStart = -1;
  let end = -1;
  let line = 1;
  for (let pos = 0; pos < source.length; line++) {
    const lf = source.indexOf(LF, pos);
    const next = lf < 0 ? source.length : lf + 1;
    if (line === first) start = pos;
    if (line === last) {
      lastLineStart = pos;
      end = next;
      break;
    }
    pos = next;
  }
  if (start < 0 || end < 0) throw new OperationError("line_out_of_range");
  const selected = source.subarray(start, end);
  if (createHash("sha256").update(selected).digest("hex") !== op.expected_sha256) {
    throw new OperationError("guard_mismatch");
  }
  const content = op.content as string;
  const parts: Buffer[] = [];
  if (start === 0 && source.subarray(0, 3).equals(BOM) && !content.startsWith(BOM_CHAR)) parts.push(BOM);
  parts.push(Buffer.from(content, "utf8"));
  if (content !== "" && end < source.length && !content.endsWith("\n")) {
    const crlf = end - 2 >= lastLineStart && source[end - 2] === CR;
    parts.push(Buffer.from(crlf ? "\r\n" : "\n"));
  }
  const replacement = Buffer.concat(parts);
  return {
    bytes: Buffer.concat([source.subarray(0, start), replacement, source.subarray(end)]),
    written: replacement.length,
  };
}

/** Reads a regular file for `replace_text` / `replace_lines`: at most `MAX_OPERATION_READ_BYTES`, in chunks (A3). */
async function readRegular(path: string, signal: AbortSignal | undefined): Promise<Buffer> {
  const handle = await openRegularFile(path, constants.O_RDONLY);
  try {
    return await readAtMost(handle, MAX_OPERATION_READ_BYTES, signal);
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the whole content of an existing regular file in chunks (A3): written from byte 0, then cut to its new
 * length, so nothing is truncated before the first chunk is written.
 */
async function rewriteRegular(path: string, bytes: Buffer, signal: AbortSignal | undefined): Promise<void> {
  const handle = await openRegularFile(path, constants.O_WRONLY);
  try {
    await writeChunks(handle, bytes, 0, signal);
    await handle.truncate(bytes.length);
  } finally {
    await handle.close();
  }
}

/**
 * Runs one operation in place (symbolic links followed) and returns `bytes_written` and the panel change. Every
 * open is non-blocking and refuses anything but a regular file (`not_regular_file`); I/O is chunked and stops
 * once `signal` aborts (`IoAborted`).
 */
async function runOperation(
  op: WriteOperation,
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<{ written: number; change: FileChange }> {
  const path = normalizePath(cwd, op.path);
  switch (op.mode) {
    case "overwrite":
    case "append": {
      const content = Buffer.from(op.content as string, "utf8");
      await mkdir(dirname(path), { recursive: true });
      const existed = await exists(path);
      const append = op.mode === "append";
      const flags = constants.O_WRONLY | constants.O_CREAT | (append ? constants.O_APPEND : 0);
      const handle = await openRegularFile(path, flags);
      try {
        if (append) {
          await writeChunks(handle, content, null, signal, !existed);
        } else {
          if (signal?.aborted) throw new IoAborted(!existed);
          await handle.truncate(0);
          await writeChunks(handle, content, 0, signal, true);
        }
      } finally {
        await handle.close();
      }
      return { written: content.length, change: { path, status: existed ? "modified" : "added" } };
    }
    case "replace_text": {
      const source = await readRegular(path, signal);
      const newText = op.new_text as string;
      await rewriteRegular(path, replaceText(source, op.old_text as string, newText), signal);
      return { written: utf8Length(newText), change: { path, status: "modified" } };
    }
    case "replace_lines": {
      const source = await readRegular(path, signal);
      const { bytes, written } = replaceLines(source, op);
      await rewriteRegular(path, bytes, signal);
      return { written, change: { path, status: "modified" } };
    }
  }
}

/**
 * The `operations` form of `write_file` (effects.md §8.1–8.2): the worst-case rows must fit the output budget
 * before anything is touched; operations then run in order and independently (a failure does not stop later
 * ones); an abort before an operation skips it and every later one.
 */
export async function runOperations(
  operations: readonly WriteOperation[],
  context: ToolHandlerContext,
): Promise<HandlerResult> {
  const worst = operations.map((op, index) => ({
    index,
    path: op.path,
    mode: op.mode,
    status: "error",
    error: WORST_CASE_ERROR,
  }));
  if (!rowsFit(worst, context.maxOutputBytes))
    return errorResult(OUTPUT_BUDGET_TOO_SMALL, OPERATIONS_BUDGET_MESSAGE);

  const rows: OperationRow[] = [];
  const changes: FileChange[] = [];
  for (let index = 0; index < operations.length; index++) {
    const op = operations[index] as WriteOperation;
    const base = { index, path: op.path, mode: op.mode };
    if (context.signal?.aborted) {
      rows.push({ ...base, status: "skipped", error: "aborted" });
      continue;
    }
    try {
      const { written, change } = await runOperation(op, context.cwd, context.signal);
      rows.push({ ...base, status: "ok", bytes_written: written });
      changes.push(change);
    } catch (error) {
      // Aborted between two chunks: `skipped` when the file was not changed yet, else an `error` row.
      if (error instanceof IoAborted) {
        rows.push({ ...base, status: error.touched ? "error" : "skipped", error: "aborted" });
        if (error.touched) changes.push({ path: normalizePath(context.cwd, op.path), status: "modified" });
      } else {
        rows.push({ ...base, status: "error", error: operationErrorCode(error) });
      }
    }
  }
  await publishFileChanges(context.panels, context.cwd, changes);
  return batchResult(rows, "write_error");
}
