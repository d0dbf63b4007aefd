import { utf8Length } from "../shared/results.js";
import type { CapturedText } from "./capture.js";

/** UTF-8 length of a string once JSON-encoded, without the surrounding quotes. */
export function jsonLength(text: string): number {
  return utf8Length(JSON.stringify(text)) - 2;
}

/** JSON-encoded UTF-8 length of one code point. */
function pointLength(point: string): number {
  const code = point.codePointAt(0) as number;
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20)
    return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 6;
  return code < 0x10000 ? 3 : 4;
}

/** The longest prefix of whole code points whose JSON-encoded length is at most `budget`. */
export function prefixWithin(text: string, budget: number): string {
  let used = 0;
  let end = 0;
  for (const point of text) {
    const length = pointLength(point);
    if (used + length > budget) break;
    used += length;
    end += point.length;
  }
  return text.slice(0, end);
}

/** The longest suffix of whole code points whose JSON-encoded length is at most `budget`. */
export function suffixWithin(text: string, budget: number): string {
  const points = [...text];
  let used = 0;
  let start = points.length;
  while (start > 0) {
    const length = pointLength(points[start - 1] as string);
    if (used + length > budget) break;
    used += length;
    start--;
  }
  return points.slice(start).join("");
}

/** The visible marker that replaces the omitted middle of an output. */
export function omissionMarker(bytes: number): string {
  return `\n[… ${bytes} bytes omitted …]\n`;
}

/**
 * Renders a captured output within `budget` JSON-encoded bytes: whole when it fits, otherwise its start and its
 * end around an omission marker (only the marker's bytes count, never more than `budget`; an empty string when
 * not even the marker fits). `cut` is true when anything was left out.
 */
export function renderWithin(captured: CapturedText, budget: number): { text: string; cut: boolean } {
  const whole = captured.head + captured.tail;
  if (captured.omitted === 0 && jsonLength(whole) <= budget) return { text: whole, cut: false };
  const total = utf8Length(captured.head) + captured.omitted + utf8Length(captured.tail);
  const markerLength = jsonLength(omissionMarker(total));
  if (budget < markerLength) return { text: "", cut: true };
  const room = budget - markerLength;
  const headSource = captured.omitted === 0 ? whole : captured.head;
  const tailSource = captured.omitted === 0 ? whole : captured.tail;
  let headRoom = Math.min(jsonLength(headSource), Math.floor(room / 2));
  const tailRoom = Math.min(jsonLength(tailSource), room - headRoom);
  headRoom = Math.min(jsonLength(headSource), room - tailRoom);
  const head = prefixWithin(headSource, headRoom);
  const tail = suffixWithin(tailSource, tailRoom);
  const omitted = total - utf8Length(head) - utf8Length(tail);
  return { text: head + omissionMarker(omitted) + tail, cut: true };
}

/**
 * Shares `available` bytes between outputs of the given full lengths: each gets at most its length, and what a
 * short one leaves is shared by the longer ones (water filling, in order of length).
 */
export function shareBudget(lengths: readonly number[], available: number): number[] {
  const shares = lengths.map(() => 0);
  const order = lengths.map((_, i) => i).sort((a, b) => (lengths[a] as number) - (lengths[b] as number));
  let remaining = Math.max(0, available);
  let left = order.length;
  for (const i of order) {
    const give = Math.min(lengths[i] as number, Math.floor(remaining / left));
    shares[i] = give;
    remaining -= give;
    left--;
  }
  return shares;
}
