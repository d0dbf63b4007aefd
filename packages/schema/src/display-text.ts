import { truncateUtf8, utf8Bytes } from "./text.js";

/**
 * The code points that are never written raw to a terminal or a log (amendment A1): C0 controls U+0000–U+001F
 * (LF and TAB allowed only in a multi-line block), DEL U+007F, C1 controls U+0080–U+009F (with the 8-bit CSI U+009B
 * and OSC U+009D), U+061C, U+200B–U+200F, U+2028, U+2029, the bidi embeddings and overrides U+202A–U+202E,
 * U+2060–U+2064, the bidi isolates U+2066–U+2069 and U+FEFF. Lone surrogates are escaped as well: a terminal would
 * show them as U+FFFD, silently dropping what they were.
 */
export const DISPLAY_ESCAPED_RANGES: ReadonlyArray<readonly [number, number]> = Object.freeze([
  Object.freeze([0x0000, 0x001f] as const),
  Object.freeze([0x007f, 0x009f] as const),
  Object.freeze([0x061c, 0x061c] as const),
  Object.freeze([0x200b, 0x200f] as const),
  Object.freeze([0x2028, 0x202e] as const),
  Object.freeze([0x2060, 0x2064] as const),
  Object.freeze([0x2066, 0x2069] as const),
  Object.freeze([0xd800, 0xdfff] as const),
  Object.freeze([0xfeff, 0xfeff] as const),
]);

/** Any code unit that may need an escape (lone surrogates are sorted out one by one). */
const NEEDS_ESCAPE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ud800-\udfff\ufeff]/;
/** The same set without surrogates, for JSON text (`JSON.stringify` already escapes lone surrogates). */
const JSON_NEEDS_ESCAPE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const JSON_NEEDS_ESCAPE_GLOBAL = new RegExp(JSON_NEEDS_ESCAPE.source, "g");

/** Options of `escapeDisplayText`. */
export interface EscapeDisplayOptions {
  /**
   * A multi-line block (result text, stderr, markdown): LF and TAB stay raw. Without it (the default) the text is
   * a single-line item (a path, an effects line, a rule, a reason) and LF, TAB and CR are escaped too, so the item
   * is exactly one screen line.
   */
  readonly multiline?: boolean;
  /** Shorten the text first to at most this many UTF-8 bytes (see `shortenDisplayText`). */
  readonly maxBytes?: number;
}

function hex(code: number, digits: number): string {
  return code.toString(16).padStart(digits, "0");
}

/** The visible escape of one listed code unit: `\n`, `\r`, `\t`, `\x1b` up to U+00FF, else `\u202e`. */
function escapeUnit(code: number): string {
  if (code === 0x0a) return "\\n";
  if (code === 0x0d) return "\\r";
  if (code === 0x09) return "\\t";
  return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

/** The escapes of U+0000–U+00FF, computed once (`undefined` for a code unit written as is). */
const LATIN_ESCAPES: ReadonlyArray<string | undefined> = Array.from({ length: 0x100 }, (_, c) =>
  c < 0x20 || (c >= 0x7f && c <= 0x9f) ? escapeUnit(c) : undefined,
);

/** True for a listed code unit above U+00FF (surrogates included; pairs are sorted out by the caller). */
function listedAbove255(c: number): boolean {
  if (c < 0x061c) return false;
  if (c === 0x061c || c === 0xfeff) return true;
  if (c >= 0xd800 && c <= 0xdfff) return true;
  if (c < 0x200b || c > 0x2069) return false;
  return c <= 0x200f || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x2064) || c >= 0x2066;
}

/** Groups the digits of a byte count by thousands: `1234` → `1,234`. */
export function formatByteCount(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * `text` shortened for display to its longest prefix of whole code points within `maxBytes` UTF-8 bytes,
 * followed by `… <n> more bytes` (`n` with thousands separators) when anything was left out; `text` itself when
 * it fits. Escaping is separate: pass the result (or use `escapeDisplayText(text, { maxBytes })`).
 */
export function shortenDisplayText(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const total = utf8Bytes(text);
  if (total <= maxBytes) return text;
  const kept = truncateUtf8(text, Math.max(0, maxBytes));
  return `${kept}… ${formatByteCount(total - utf8Bytes(kept))} more bytes`;
}

/**
 * The one display-escaping function (amendment A1): every untrusted string goes through it before it reaches a
 * terminal or a log. Each listed code point (`DISPLAY_ESCAPED_RANGES`) becomes a visible escape — `\n`, `\r`,
 * `\t`, `\x1b` (up to U+00FF), `\u202e` — so nothing is dropped and nothing can move the cursor, erase, set a
 * title or link, or reorder text. In a single-line item (the default) LF, CR and TAB are escaped as well; with
 * `multiline: true` LF and TAB stay. With `maxBytes` the text is first shortened by `shortenDisplayText`.
 */
export function escapeDisplayText(text: string, options: EscapeDisplayOptions = {}): string {
  const source = options.maxBytes === undefined ? text : shortenDisplayText(text, options.maxBytes);
  if (!NEEDS_ESCAPE.test(source)) return source;
  const multiline = options.multiline === true;
  const parts: string[] = [];
  let from = 0;
  const length = source.length;
  for (let i = 0; i < length; i++) {
    const c = source.charCodeAt(i);
    let shown: string | undefined;
    if (c <= 0xff) {
      shown = LATIN_ESCAPES[c];
      if (shown === undefined || (multiline && (c === 0x0a || c === 0x09))) continue;
    } else {
      if (!listedAbove255(c)) continue;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < length) {
        const next = source.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          i++;
          continue;
        }
      }
      // A low surrogate reached here has no high surrogate before it (a pair is skipped whole above).
      shown = escapeUnit(c);
    }
    if (from < i) parts.push(source.slice(from, i));
    parts.push(shown);
    from = i + 1;
  }
  if (from === 0) return source;
  parts.push(source.slice(from));
  return parts.join("");
}

/**
 * `value` as JSON text for a terminal or a log (`JSON.stringify(value, null, space)`): still one well-formed JSON
 * document that parses to the same value, with every code point of `DISPLAY_ESCAPED_RANGES` written as a JSON
 * `\uXXXX` escape (JSON itself only escapes U+0000–U+001F and lone surrogates). A value `JSON.stringify` writes
 * as `undefined` gives `null`; one it cannot write (a BigInt, a cycle) throws as `JSON.stringify` does.
 */
export function stringifyForDisplay(value: unknown, space?: number): string {
  const text: string | undefined = JSON.stringify(value, null, space);
  if (text === undefined) return "null";
  if (!JSON_NEEDS_ESCAPE.test(text)) return text;
  // JSON.stringify leaves no raw C0 control and no lone surrogate: what is left are code points inside strings.
  return text.replace(JSON_NEEDS_ESCAPE_GLOBAL, (unit) => `\\u${hex(unit.charCodeAt(0), 4)}`);
}
