import { truncateUtf8 } from "@raw/schema";
import { MAX_IMAGE_BYTES } from "./limits.js";
import type { ContentBlock, PanelResultBlock, ToolResult } from "./types.js";

/** Prefix of the text that replaces a `json` block too long for the remaining budget (tool-api.md §8.3). */
export const JSON_PREVIEW_PREFIX = "[JSON preview] ";

/** The error result shape of tool-api.md §7.3: `{ isError: true, code, content: [{ type: "text", text }] }`. */
export function errorResult(code: string, message: string): ToolResult {
  return { isError: true, code, content: [{ type: "text", text: message }] };
}

/** Sets an own data property without invoking setters, so a `__proto__` field stays an ordinary field. */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** A handler result split at step 12: the content without panel blocks and the panel blocks, in order. */
export interface SplitResult {
  /** A shallow copy of the handler's result object, each field read once (its `content` is ignored: use `content`). */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly isError: boolean;
  /** The content without panel blocks. */
  readonly content: ContentBlock[];
  /** `JSON.stringify(value)` of each `json` block of `content` (same index), computed once. */
  readonly jsonTexts: Array<string | undefined>;
  readonly panelBlocks: PanelResultBlock[];
}

/** The fields of a content block as read before it is checked (every one may hold anything). */
interface BlockFields {
  type?: unknown;
  text?: unknown;
  channel?: unknown;
  value?: unknown;
  mimeType?: unknown;
  data?: unknown;
}

const MIME_TYPES: ReadonlySet<unknown> = new Set(["image/png", "image/jpeg"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks a handler's return value against tool-api.md §8.1–8.2 (an object with a boolean `isError` and an array
 * `content` of text/json/image/panel blocks; a `json` value must serialize) and splits off the panel blocks.
 * Returns undefined for anything else (`<name> returned an invalid result`). The result and each block are read
 * once into shallow copies, so what was checked is what later steps cap and return (an accessor cannot answer the
 * check and the cap differently). Throws when reading the value throws (a throwing getter or proxy trap).
 */
export function splitHandlerResult(value: unknown): SplitResult | undefined {
  if (!isObject(value)) return undefined;
  const fields: Record<string, unknown> = { ...value };
  const isError = fields.isError;
  const blocks = fields.content;
  if (typeof isError !== "boolean" || !Array.isArray(blocks)) return undefined;
  const content: ContentBlock[] = [];
  const jsonTexts: Array<string | undefined> = [];
  const panelBlocks: PanelResultBlock[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const raw: unknown = blocks[i];
    if (!isObject(raw)) return undefined;
    const block: BlockFields = { ...raw };
    switch (block.type) {
      case "text":
        if (typeof block.text !== "string") return undefined;
        if (block.channel !== undefined && block.channel !== "stdout" && block.channel !== "stderr")
          return undefined;
        content.push(block as ContentBlock);
        jsonTexts.push(undefined);
        break;
      case "json": {
        let text: string | undefined;
        try {
          text = JSON.stringify(block.value);
        } catch {
          return undefined;
        }
        if (typeof text !== "string") return undefined;
        content.push(block as ContentBlock);
        jsonTexts.push(text);
        break;
      }
      case "image":
        if (!MIME_TYPES.has(block.mimeType) || typeof block.data !== "string") return undefined;
        content.push(block as ContentBlock);
        jsonTexts.push(undefined);
        break;
      case "panel":
        panelBlocks.push(block as PanelResultBlock);
        break;
      default:
        return undefined;
    }
  }
  return { fields, isError, content, jsonTexts, panelBlocks };
}

/** The decoded size of base64 data, from its length and padding. */
export function base64DecodedBytes(data: string): number {
  let length = data.length;
  while (length > 0 && data.charCodeAt(length - 1) === 61 /* = */) length--;
  return Math.floor((length * 3) / 4);
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** True for the indexed batch shape of tool-api.md §8.2: `{ results: [row, ...] }`, each row with `index` and `status`. */
function isBatchValue(value: unknown): value is { results: unknown[] } {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== "results" || !Array.isArray(value.results)) return false;
  for (const row of value.results) {
    if (!isObject(row) || !Object.hasOwn(row, "index") || !Object.hasOwn(row, "status")) return false;
  }
  return true;
}

/** The pattern a result `code` must match to be kept (amendment A4); any other `code` is dropped. */
export const RESULT_CODE_PATTERN = "^[a-z][a-z0-9_]{0,63}$";

const RESULT_CODE = new RegExp(RESULT_CODE_PATTERN);

/** True for a `code` dispatch keeps: a string matching `RESULT_CODE_PATTERN` (amendment A4). */
export function isResultCode(value: unknown): value is string {
  return typeof value === "string" && RESULT_CODE.test(value);
}

/** Longest `signal` name kept without counting it (POSIX names such as `SIGTERM` are far shorter). */
const MAX_SIGNAL_NAME_LENGTH = 16;

/**
 * The fixed-shape fields of tool-api.md §8.2 whose size is bounded by their shape (`exitCode` a safe integer or
 * null, `signal` a short upper-case name or null, `timedOut` a boolean): kept without counting toward the budget.
 * Any other value of these fields is an ordinary field and counts.
 */
function isBoundedField(key: string, value: unknown): boolean {
  switch (key) {
    case "exitCode":
      return value === null || Number.isSafeInteger(value);
    case "signal":
      return (
        value === null ||
        (typeof value === "string" && value.length <= MAX_SIGNAL_NAME_LENGTH && /^[A-Z0-9]+$/.test(value))
      );
    case "timedOut":
      return typeof value === "boolean";
    default:
      return false;
  }
}

/** Serialized size of `"key":value,` in UTF-8 bytes, or undefined when the value does not serialize. */
function fieldBytes(key: string, value: unknown): number | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (typeof text !== "string") return undefined;
  return utf8Length(JSON.stringify(key)) + utf8Length(text) + 2;
}

const RESERVED: ReadonlySet<string> = new Set([
  "isError",
  "code",
  "content",
  "truncated",
  "retainedBytes",
  "observedBytes",
]);

/**
 * Output capping of tool-api.md §8.3 with the shared budget `cap`: text cut to whole code points, `json` kept or
 * replaced by a `[JSON preview] ` text, images uncounted (over 16 MiB decoded in total: `image_too_large`), panel
 * blocks passed through. An indexed batch result whose rows exceed `cap` becomes `output_budget_too_small` (§8.2).
 * Then (amendment A4) the other fields of the result share what content left of `cap`, in key order: a field whose
 * serialization does not fit (or does not serialize) is dropped; the bounded §8.2 fields `exitCode`, `signal` and
 * `timedOut` are kept when well-formed; `code` is kept only when it matches `RESULT_CODE_PATTERN`. `truncated`,
 * `retainedBytes` and `observedBytes` are set when anything was cut or dropped. Never mutates its input.
 */
export function capResult(result: CappableResult, cap: number): ToolResult {
  return capInto(result, cap, false);
}

/** What `capResult` reads: `isError`, `content`, and optionally the handler's fields and precomputed JSON texts. */
export interface CappableResult {
  isError: boolean;
  content: readonly unknown[];
  code?: string | undefined;
  fields?: Readonly<Record<string, unknown>> | undefined;
  jsonTexts?: ReadonlyArray<string | undefined> | undefined;
}

/** The serialization of the `json` block at index `i`: precomputed, or computed now. */
function jsonText(
  texts: ReadonlyArray<string | undefined> | undefined,
  i: number,
  block: BlockFields,
): string {
  return texts?.[i] ?? JSON.stringify(block.value) ?? "null";
}

/** `capResult` for dispatch: `owned` results keep their (fresh) content array when nothing is cut. */
export function capInto(result: CappableResult, cap: number, owned: boolean): ToolResult {
  const blocks = result.content;
  const fields = result.fields;
  const jsonTexts = result.jsonTexts;

  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as BlockFields;
    if (
      block.type === "json" &&
      isBatchValue(block.value) &&
      utf8Length(jsonText(jsonTexts, i, block)) > cap
    ) {
      return capInto(errorResult("output_budget_too_small", "batch status exceeds output budget"), cap, true);
    }
  }

  let remaining = cap;
  let cut = false;
  let observed = 0;
  let imageBytes = 0;
  let imageBase64 = 0;
  // The blocks are copied only from the first replaced block on.
  let content: ContentBlock[] | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as BlockFields;
    let kept: ContentBlock = block as ContentBlock;
    switch (block.type) {
      case "text": {
        const text = block.text as string;
        const bytes = utf8Length(text);
        observed += bytes;
        if (bytes <= remaining) {
          remaining -= bytes;
        } else {
          const prefix = truncateUtf8(text, remaining);
          remaining -= utf8Length(prefix);
          cut = true;
          kept = { ...block, text: prefix } as ContentBlock;
        }
        break;
      }
      case "json": {
        const text = jsonText(jsonTexts, i, block);
        const bytes = utf8Length(text);
        observed += bytes;
        if (bytes <= remaining) {
          remaining -= bytes;
        } else {
          const preview = truncateUtf8(JSON_PREVIEW_PREFIX + text, remaining);
          remaining -= utf8Length(preview);
          cut = true;
          kept = { type: "text", text: preview };
        }
        break;
      }
      case "image": {
        const data = block.data as string;
        imageBytes += base64DecodedBytes(data);
        imageBase64 += data.length;
        observed += data.length;
        break;
      }
      default:
      // Panel blocks (adapters that cap before extraction) pass through uncounted.
    }
    if (content !== undefined) content.push(kept);
    else if (kept !== (block as unknown)) {
      content = blocks.slice(0, i) as ContentBlock[];
      content.push(kept);
    }
  }
  if (imageBytes > MAX_IMAGE_BYTES) {
    return capInto(errorResult("image_too_large", "tool images exceed 16 MiB"), cap, true);
  }

  const finalContent = content ?? (owned ? (blocks as ContentBlock[]) : (blocks.slice() as ContentBlock[]));
  const code = fields !== undefined ? fields.code : result.code;
  const out: ToolResult = isResultCode(code)
    ? { isError: result.isError, code, content: finalContent }
    : { isError: result.isError, content: finalContent };
  const contentBytes = cap - remaining;
  let handlerTruncated = false;
  let handlerObserved: number | undefined;
  if (fields !== undefined) {
    // A4: the other fields share what content left of the budget, in key order.
    for (const key in fields) {
      if (!Object.hasOwn(fields, key) || RESERVED.has(key)) continue;
      const value = fields[key];
      if (value === undefined) continue;
      if (isBoundedField(key, value)) {
        setField(out, key, value);
        continue;
      }
      const size = fieldBytes(key, value);
      if (size !== undefined && size <= remaining) {
        remaining -= size;
        setField(out, key, value);
      } else {
        cut = true;
      }
    }
    handlerTruncated = fields.truncated === true;
    if (typeof fields.observedBytes === "number") handlerObserved = fields.observedBytes;
  }
  if (handlerTruncated || cut) {
    out.truncated = true;
    out.retainedBytes = contentBytes + imageBase64;
    out.observedBytes = handlerObserved ?? observed;
  }
  return out;
}
