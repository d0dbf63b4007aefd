/**
 * Issue 11, surface 1 (amendment A1): the display-escaping function against every code point and hostile sizes.
 * Every code point of Unicode is tried: exactly the listed ones are escaped, every other one passes unchanged; huge
^ * floods of controls and lone surrogates are escaped whole, without a recursion or a quadratic step; JSON for display
 * stays well-formed whatever the strings hold.
 */
import { describe, expect, it } from "vitest";
import {
  DISPLAY_ESCAPED_RANGES,
  escapeDisplayText,
  shortenDisplayText,
  stringifyForDisplay,
} from "../../src/index.js";

const listed = (c: number) => DISPLAY_ESCAPED_RANGES.some(([lo, hi]) => c >= lo && c <= hi);

describe("escapeDisplayText over all of Unicode", () => {
  it("escapes exactly the listed code points, in single-line and multi-line text", {
    timeout: 180_000,
  }, () => {
    // Every code point but the surrogates, in one text, against an independent reference.
    const points: string[] = [];
    const single: string[] = [];
    const multi: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = String.fromCodePoint(c);
      const shown = !listed(c)
        ? s
        : c === 0x0a
          ? "\\n"
          : c === 0x0d
            ? "\\r"
            : c === 0x09
              ? "\\t"
              : c <= 0xff
                ? `\\x${c.toString(16).padStart(2, "0")}`
                : `\\u${c.toString(16).padStart(4, "0")}`;
      points.push(s);
      single.push(shown);
      multi.push(c === 0x0a || c === 0x09 ? s : shown);
    }
    const all = points.join("");
    expect(escapeDisplayText(all) === single.join("")).toBe(true);
    expect(escapeDisplayText(all, { multiline: true }) === multi.join("")).toBe(true);
    // Each surrogate alone is escaped.
    for (let c = 0xd800; c <= 0xdfff; c++)
      expect(escapeDisplayText(`a${String.fromCharCode(c)}b`)).toBe(`a\\u${c.toString(16)}b`);
  });

  it("the list is the amendment's, plus lone surrogates", () => {
    expect(DISPLAY_ESCAPED_RANGES.map(([lo, hi]) => [lo.toString(16), hi.toString(16)])).toEqual([
      ["0", "1f"],
      ["7f", "9f"],
      ["61c", "61c"],
      ["200b", "200f"],
      ["2028", "202e"],
      ["2060", "2064"],
      ["2066", "2069"],
      ["d800", "dfff"],
      ["feff", "feff"],
    ]);
  });
});

describe("hostile sizes", () => {
  it("escapes 2 MiB of ESC, 1 MiB of lone surrogates and 1 MiB of U+202E whole", () => {
    const esc = "\u001b".repeat(2 * 1024 * 1024);
    const out = escapeDisplayText(esc);
    expect(out.length).toBe(esc.length * 4);
    expect(out.startsWith("\\x1b\\x1b")).toBe(true);
    const lone = "\ud800".repeat(1024 * 1024);
    expect(escapeDisplayText(lone).length).toBe(lone.length * 6);
    const bidi = "\u202e".repeat(1024 * 1024);
    expect(escapeDisplayText(bidi, { multiline: true })).toBe("\\u202e".repeat(1024 * 1024));
  });

  it("a reversed surrogate pair is two lone surrogates; a pair split by shortening is escaped, not kept half", () => {
    expect(escapeDisplayText("\udc00\ud800")).toBe("\\udc00\\ud800");
    expect(escapeDisplayText("a😀", { maxBytes: 3 })).toBe("a… 4 more bytes");
    expect(escapeDisplayText("\ud83d")).toBe("\\ud83d");
  });

  it("shortens a 16 MiB value to its first bytes and counts the rest", () => {
    const big = "é".repeat(8 * 1024 * 1024);
    expect(shortenDisplayText(big, 5)).toBe("éé… 16,777,212 more bytes");
  });

  it("stringifyForDisplay keeps a document of hostile keys and values well-formed and equal", () => {
    const hostile: Record<string, unknown> = {};
    for (let c = 0; c < 0x2070; c++)
      hostile[`k${String.fromCharCode(c)}`] = String.fromCharCode(c, 0x202e, 0x9b);
    Object.defineProperty(hostile, "__proto__", {
      value: "own",
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const text = stringifyForDisplay(JSON.parse(JSON.stringify(hostile)), 2);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(hostile)));
    expect(text).not.toMatch(
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/,
    );
  });
});
