import type { HandlerResult } from "@raw/tool-api";

/** UTF-8 length of a string, in bytes. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** An error result `{ isError: true, code, content: [{ type: "text", text: message }] }` (tool-api.md §7.3). */
export function errorResult(code: string, message: string): HandlerResult {
  return { isError: true, code, content: [{ type: "text", text: message }] };
}

/** A short successful text result. */
export function textResult(text: string): HandlerResult {
  return { isError: false, content: [{ type: "text", text }] };
}

/** One row of an indexed batch result (tool-api.md §8.2): at least `index` and `status`. */
export interface BatchRow {
  readonly index: number;
  readonly status: string;
  readonly error?: string;
}

/**
 * The indexed batch result of tool-api.md §8.2: one `json` block `{ results }`; `isError` when any row is not
 * `ok`, and then `code` is the `error` of the first such row (or `fallbackCode` when that row has none).
 */
export function batchResult(rows: readonly BatchRow[], fallbackCode: string): HandlerResult {
  const failed = rows.find((row) => row.status !== "ok");
  const result: HandlerResult = {
    isError: failed !== undefined,
    content: [{ type: "json", value: { results: rows } }],
  };
  if (failed !== undefined) result.code = failed.error ?? fallbackCode;
  return result;
}

/** True when `JSON.stringify({ results: rows })` fits `maxBytes` UTF-8 bytes (tool-api.md §8.2 "fits"). */
export function rowsFit(rows: readonly unknown[], maxBytes: number): boolean {
  return utf8Length(JSON.stringify({ results: rows })) <= maxBytes;
}

/** The `code` property of a thrown value, when it is a string. */
export function thrownCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The `message` property of a thrown value, or `String(value)`. */
export function thrownText(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : String(error);
}
