import { freezeJsonTree } from "./deep-freeze.js";
import { utf8Bytes } from "./text.js";

/** Outcome of `snapshotJson`: the parsed-back snapshot, or why there is none. */
export type JsonSnapshot =
  | { ok: true; value: unknown }
  | { ok: false; reason: "unserializable"; error: unknown }
  | { ok: false; reason: "undefined" }
  | { ok: false; reason: "too_large"; bytes: number };

/** Options of `snapshotJson`. */
export interface SnapshotJsonOptions {
  /** Largest accepted UTF-8 length of the serialization, in bytes. */
  maxBytes: number;
  /** Deep-freeze the snapshot (done during the copy when the fast path applies). */
  freeze?: boolean | undefined;
}

/** Deepest nesting the direct copy handles; deeper values take the serialize-and-parse path. */
const FAST_MAX_DEPTH = 64;
const BAIL: unique symbol = Symbol("bail");

/** Upper bound of a string's JSON length in UTF-8 bytes: quotes plus at most 6 bytes (`\uXXXX`) per code unit. */
const stringBound = (s: string): number => 2 + 6 * s.length;

/**
 * Copies plain JSON data exactly as `JSON.parse(JSON.stringify(value))` would (own enumerable keys in order,
 * `undefined`/functions/symbols dropped from objects and `null` in arrays, non-finite numbers to `null`, `-0` to
 * `0`, a `__proto__` key kept as an ordinary key), adding an upper bound of the serialization's UTF-8 length to
 * `size.bytes`. Throws `BAIL` for anything whose serialization it does not reproduce (`toJSON`, non-plain
 * objects, BigInt, very deep or cyclic values), or when the bound passes `size.limit`.
 */
function copyJson(
  value: unknown,
  depth: number,
  size: { bytes: number; limit: number },
  freeze: boolean,
): unknown {
  switch (typeof value) {
    case "string":
      size.bytes += stringBound(value);
      if (size.bytes > size.limit) throw BAIL;
      return value;
    case "number":
      size.bytes += 24;
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case "boolean":
      size.bytes += 5;
      return value;
    case "object":
      break;
    default:
      throw BAIL;
  }
  if (value === null) {
    size.bytes += 4;
    return null;
  }
  if (depth >= FAST_MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") throw BAIL;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw BAIL;
    const length = value.length;
    size.bytes += 2 + length;
    if (size.bytes > size.limit) throw BAIL;
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) {
      const item = value[i];
      const kind = typeof item;
      if (kind === "undefined" || kind === "function" || kind === "symbol") {
        size.bytes += 4;
        out[i] = null;
      } else out[i] = copyJson(item, depth + 1, size, freeze);
    }
    return freeze ? Object.freeze(out) : out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw BAIL;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  size.bytes += 2;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = (value as Record<string, unknown>)[key];
    const kind = typeof item;
    if (kind === "undefined" || kind === "function" || kind === "symbol") continue;
    size.bytes += stringBound(key) + 2;
    const copied = copyJson(item, depth + 1, size, freeze);
    if (key === "__proto__") {
      Object.defineProperty(out, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = copied;
  }
  return freeze ? Object.freeze(out) : out;
}

/**
 * Takes a JSON round-trip snapshot of `value` (`toJSON` honoured, inherited properties dropped), refusing
 * serializations longer than `maxBytes` UTF-8 bytes. Never throws: a throwing serialization (BigInt, a cycle,
 * a throwing `toJSON` or getter) is reported as `unserializable` with the thrown value.
 *
 * Plain data well under the limit is copied directly (one pass, the same result as serializing and parsing);
 * everything else is serialized with `JSON.stringify`, measured and parsed back.
 */
export function snapshotJson(value: unknown, options: SnapshotJsonOptions): JsonSnapshot {
  const freeze = options.freeze === true;
  if (typeof value === "object" && value !== null) {
    try {
      const size = { bytes: 0, limit: options.maxBytes };
      const copy = copyJson(value, 0, size, freeze);
      // Within the bound, the serialization is certainly within the limit; otherwise measure it exactly.
      if (size.bytes <= size.limit) return { ok: true, value: copy };
    } catch (error) {
      if (error !== BAIL) return { ok: false, reason: "unserializable", error };
    }
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    return { ok: false, reason: "unserializable", error };
  }
  if (json === undefined) return { ok: false, reason: "undefined" };
  // A UTF-8 length is at most three times the UTF-16 length: skip the count when it cannot matter.
  if (json.length * 3 > options.maxBytes) {
    const bytes = utf8Bytes(json);
    if (bytes > options.maxBytes) return { ok: false, reason: "too_large", bytes };
  }
  const parsed: unknown = JSON.parse(json);
  return { ok: true, value: freeze ? freezeJsonTree(parsed) : parsed };
}
