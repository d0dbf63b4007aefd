import { codePoints, isPlainObject, utf8Bytes } from "@raw/schema";
import { childPointer, fail } from "./panel-error.js";

/**
 * Control characters refused in every checked string: U+0000–U+0008, U+000B–U+001F and U+007F (`panels.md` §3.2),
 * the C1 controls U+0080–U+009F and the bidirectional controls U+202A–U+202E and U+2066–U+2069 (amendment A2).
 */
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** Panel and action ids: `^[a-z][a-z0-9_-]{0,31}$` (`panels.md` §2.1, §10.1). */
export const PANEL_ID_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

/** Block ids: `^[A-Za-z0-9_-]{1,32}$` (`panels.md` §4.1). */
export const BLOCK_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** Item, row, event, field, option and column ids: `^[A-Za-z0-9_.-]{1,64}$` (`panels.md` §4.1). */
export const ITEM_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** `must match <regex>` for the panel-id pattern. */
export const PANEL_ID_REASON = "must match ^[a-z][a-z0-9_-]{0,31}$";
/** `must match <regex>` for the block-id pattern. */
export const BLOCK_ID_REASON = "must match ^[A-Za-z0-9_-]{1,32}$";
/** `must match <regex>` for the item-id pattern. */
export const ITEM_ID_REASON = "must match ^[A-Za-z0-9_.-]{1,64}$";

/** A record read from validated input: own enumerable keys in input order, `undefined` values left out. */
export type Fields = Record<string, unknown>;

/** Sets an own enumerable data property without invoking setters, so a `__proto__` key stays ordinary data. */
export function defineField(target: object, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else (target as Fields)[key] = value;
}

/** True when `s` holds a refused control character. */
export function hasControlCharacter(s: string): boolean {
  return CONTROL_CHARACTER.test(s);
}

/** True when `s` has more than `max` code points (UTF-16 length first: within it, the count is never needed). */
export function exceedsChars(s: string, max: number): boolean {
  return s.length > max && codePoints(s) > max;
}

type NodeBuffer = { byteLength(s: string, encoding: "utf8"): number };
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
const nativeByteLength =
  typeof nodeBuffer?.byteLength === "function" ? (s: string) => nodeBuffer.byteLength(s, "utf8") : undefined;

/**
 * The UTF-8 length of `s` (a lone surrogate counts as the 3 bytes of U+FFFD): Node's native count where there is
 * one, else `utf8Bytes`. Both agree on every string.
 */
export function byteLength(s: string): number {
  return nativeByteLength === undefined ? utf8Bytes(s) : nativeByteLength(s);
}

/** True when the UTF-8 encoding of `s` is longer than `max` bytes. */
export function exceedsBytes(s: string, max: number): boolean {
  if (s.length * 3 <= max) return false;
  return s.length > max || byteLength(s) > max;
}

/**
 * Reads a JSON object for validation: fails with `must be an object` unless `value` is a plain object, then
 * returns a fresh copy of its own enumerable properties (input key order, `undefined` values left out) and the
 * list of its own keys (for the unknown-field check).
 */
export function readObject(value: unknown, pointer: string): { fields: Fields; keys: string[] } {
  if (!isPlainObject(value)) fail(pointer, "must be an object");
  const keys = Object.keys(value);
  const fields: Fields = {};
  for (const key of keys) {
    const v = value[key];
    if (v !== undefined) defineField(fields, key, v);
  }
  return { fields, keys };
}

/** Fails with `/<key>: unknown field` for the first own key outside `allowed`. */
export function checkKeys(keys: readonly string[], allowed: ReadonlySet<string>, pointer: string): void {
  for (const key of keys) if (!allowed.has(key)) fail(childPointer(pointer, key), "unknown field");
}

/**
 * A string of at most `max` characters without control characters. Checks run in the order of the spec's
 * reasons: `must be a string`, `contains a control character`, `must be at most <n> characters`, then (when
 * `nonEmpty`) `must not be empty`.
 */
export function checkText(value: unknown, pointer: string, max: number, nonEmpty: boolean): string {
  if (typeof value !== "string") fail(pointer, "must be a string");
  if (CONTROL_CHARACTER.test(value)) fail(pointer, "contains a control character");
  if (exceedsChars(value, max)) fail(pointer, `must be at most ${max} characters`);
  if (nonEmpty && value.length === 0) fail(pointer, "must not be empty");
  return value;
}

/** Like `checkText`, with the limit in UTF-8 bytes (`must be at most <n> bytes`). */
export function checkBytes(value: unknown, pointer: string, max: number, nonEmpty: boolean): string {
  if (typeof value !== "string") fail(pointer, "must be a string");
  if (CONTROL_CHARACTER.test(value)) fail(pointer, "contains a control character");
  if (exceedsBytes(value, max)) fail(pointer, `must be at most ${max} bytes`);
  if (nonEmpty && value.length === 0) fail(pointer, "must not be empty");
  return value;
}

/** A string matching `pattern`; anything else (including a non-string) fails with `reason`. */
export function checkPattern(value: unknown, pointer: string, pattern: RegExp, reason: string): string {
  if (typeof value !== "string" || !pattern.test(value)) fail(pointer, reason);
  return value;
}

/** One of a fixed list of strings; anything else fails with `must be one of <a>, <b>, ...`. */
export class OneOf<T extends string> {
  readonly values: ReadonlySet<string>;
  readonly reason: string;
  constructor(readonly list: readonly T[]) {
    this.values = new Set(list);
    this.reason = `must be one of ${list.join(", ")}`;
  }
  /** Returns `value` when it is one of the list, else fails at `pointer`. */
  check(value: unknown, pointer: string): T {
    if (typeof value !== "string" || !this.values.has(value)) fail(pointer, this.reason);
    return value as T;
  }
}

/** A safe integer of at least `min` (`must be an integer of at least <min>`). */
export function checkInteger(value: unknown, pointer: string, min: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    fail(pointer, `must be an integer of at least ${min}`);
  }
  return value;
}

/** An array of `min`–`max` entries (`must be an array`, `must have at least <n> entries`, `must have at most <n> entries`). */
export function checkArray(value: unknown, pointer: string, min: number, max: number): readonly unknown[] {
  if (!Array.isArray(value)) fail(pointer, "must be an array");
  if (value.length < min) fail(pointer, `must have at least ${min} entries`);
  if (value.length > max) fail(pointer, `must have at most ${max} entries`);
  return value;
}

/** A JSON boolean; anything else fails with `reason` (`must be a boolean`, or `must be boolean` for forms). */
export function checkBoolean(value: unknown, pointer: string, reason: string): boolean {
  if (typeof value !== "boolean") fail(pointer, reason);
  return value;
}
