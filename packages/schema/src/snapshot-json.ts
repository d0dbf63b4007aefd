import { utf8Bytes } from "./text.js";

/** Outcome of `snapshotJson`: the parsed-back snapshot with its serialization, or why there is none. */
export type JsonSnapshot =
  | { ok: true; value: unknown; json: string }
  | { ok: false; reason: "unserializable"; error: unknown }
  | { ok: false; reason: "undefined" }
  | { ok: false; reason: "too_large"; bytes: number };

/**
 * Takes a JSON round-trip snapshot of `value` (`toJSON` honoured, inherited properties dropped), refusing
 * serializations longer than `maxBytes` UTF-8 bytes. Never throws: a throwing serialization (BigInt, a cycle,
 * a throwing `toJSON` or getter) is reported as `unserializable` with the thrown value.
 */
export function snapshotJson(value: unknown, options: { maxBytes: number }): JsonSnapshot {
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
  return { ok: true, value: JSON.parse(json), json };
}
