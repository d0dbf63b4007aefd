import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DISPLAY_ESCAPED_RANGES,
  escapeDisplayText,
  formatByteCount,
  shortenDisplayText,
  stringifyForDisplay,
  utf8Bytes,
} from "../src/index.js";

/** Every code point amendment A1 lists, one by one. */
const LISTED: number[] = [];
for (let c = 0x00; c <= 0x1f; c++) LISTED.push(c);
for (let c = 0x7f; c <= 0x9f; c++) LISTED.push(c);
LISTED.push(0x061c);
for (let c = 0x200b; c <= 0x200f; c++) LISTED.push(c);
LISTED.push(0x2028, 0x2029);
for (let c = 0x202a; c <= 0x202e; c++) LISTED.push(c);
for (let c = 0x2060; c <= 0x2064; c++) LISTED.push(c);
for (let c = 0x2066; c <= 0x2069; c++) LISTED.push(c);
LISTED.push(0xfeff);

const isListed = (c: number) => DISPLAY_ESCAPED_RANGES.some(([lo, hi]) => c >= lo && c <= hi);

/** The visible escape the function promises for a code point. */
function expectedEscape(c: number): string {
  if (c === 0x0a) return "\\n";
  if (c === 0x0d) return "\\r";
  if (c === 0x09) return "\\t";
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, "0")}` : `\\u${c.toString(16).padStart(4, "0")}`;
}

/** Reverses the escapes (valid for texts without a backslash of their own). */
function undoEscapes(text: string): string {
  return text.replace(
    /\\(n|r|t|x([0-9a-f]{2})|u([0-9a-f]{4}))/g,
    (_, kind: string, x?: string, u?: string) => {
      if (kind === "n") return "\n";
      if (kind === "r") return "\r";
      if (kind === "t") return "\t";
      return String.fromCharCode(Number.parseInt((x ?? u) as string, 16));
    },
  );
}

/** Strings rich in the code points that matter, plus ordinary text and astral characters. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...LISTED.map((c) => String.fromCharCode(c))),
    fc.constantFrom("a", "é", "€", "😀", " ", "[", "]", "/", ";", "\ud800", "\udc00"),
    fc.string({ unit: "binary", maxLength: 1 }),
  ),
  maxLength: 64,
});

describe("escapeDisplayText", () => {
  it.each(LISTED.map((c) => [`U+${c.toString(16).padStart(4, "0").toUpperCase()}`, c]))(
    "%s is written as a visible escape in a single-line item",
    (_, c) => {
      const out = escapeDisplayText(`a${String.fromCharCode(c)}b`);
      expect(out).toBe(`a${expectedEscape(c)}b`);
      expect(isListed(c)).toBe(true);
    },
  );

  it("keeps LF and TAB only in a multi-line block; CR is always escaped", () => {
    expect(escapeDisplayText("a\nb\tc\r\n", { multiline: true })).toBe("a\nb\tc\\r\n");
    expect(escapeDisplayText("a\nb\tc\r\n")).toBe("a\\nb\\tc\\r\\n");
    expect(escapeDisplayText("\u000b\u000c\u0085\u2028\u2029", { multiline: true })).toBe(
      "\\x0b\\x0c\\x85\\u2028\\u2029",
    );
  });

  it("writes the classic attacks as text: CSI, OSC title and link, 8-bit CSI, bidi override", () => {
    expect(escapeDisplayText("x\u001b[2K\u001b[1A\r")).toBe("x\\x1b[2K\\x1b[1A\\r");
    expect(escapeDisplayText("\u001b]0;pwned\u0007")).toBe("\\x1b]0;pwned\\x07");
    expect(escapeDisplayText("\u001b]8;;https://evil\u001b\\ok\u001b]8;;\u001b\\")).toBe(
      "\\x1b]8;;https://evil\\x1b\\ok\\x1b]8;;\\x1b\\",
    );
    expect(escapeDisplayText("\u009b2J\u009d0;t\u009c")).toBe("\\x9b2J\\x9d0;t\\x9c");
    expect(escapeDisplayText("evil\u202etxt.exe")).toBe("evil\\u202etxt.exe");
  });

  it("leaves ordinary text, astral characters and surrogate pairs alone, and escapes lone surrogates", () => {
    const plain = "héllo wörld € 😀 漢字 \\ \" ' `";
    expect(escapeDisplayText(plain)).toBe(plain);
    expect(escapeDisplayText(plain, { multiline: true })).toBe(plain);
    expect(escapeDisplayText("a\ud800b\udc00c")).toBe("a\\ud800b\\udc00c");
    expect(escapeDisplayText("\udc00\ud83d\ude00\ud800")).toBe("\\udc00😀\\ud800");
  });

  it("single-line: the output never holds a listed code point, so one item is one screen line", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const out = escapeDisplayText(s);
        for (const ch of out) {
          const c = ch.codePointAt(0) as number;
          expect(c <= 0xffff && isListed(c)).toBe(false);
        }
        expect(out).not.toMatch(/[\n\r\u2028\u2029\u0085\u000b\u000c]/);
      }),
      { seed: 20261203, numRuns: 2000 },
    );
  });

  it("multi-line: only LF and TAB pass raw, and the lines are the input's lines", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const out = escapeDisplayText(s, { multiline: true });
        expect(out.replace(/[\n\t]/g, "")).toBe(escapeDisplayText(s.replace(/[\n\t]/g, "")));
        expect(out.split("\n").length).toBe(s.split("\n").length);
      }),
      { seed: 20261204, numRuns: 2000 },
    );
  });

  it("drops nothing: undoing the escapes gives the input back (texts without a backslash)", () => {
    fc.assert(
      fc.property(hostile, fc.boolean(), (s, multiline) => {
        const input = s.replaceAll("\\", "");
        expect(undoEscapes(escapeDisplayText(input, { multiline }))).toBe(input);
      }),
      { seed: 20261205, numRuns: 2000 },
    );
  });

  it("is idempotent in a multi-line block (escaped text passes unchanged)", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const once = escapeDisplayText(s);
        expect(escapeDisplayText(once, { multiline: true })).toBe(once);
        expect(escapeDisplayText(once)).toBe(once);
      }),
      { seed: 20261206, numRuns: 1000 },
    );
  });

  it("shortens before escaping with maxBytes, and says how much was left out", () => {
    expect(escapeDisplayText("\u001b".repeat(10), { maxBytes: 3 })).toBe("\\x1b\\x1b\\x1b… 7 more bytes");
  });
});

describe("shortenDisplayText", () => {
  it("keeps a fitting text as is", () => {
    expect(shortenDisplayText("abc", 3)).toBe("abc");
    expect(shortenDisplayText("", 0)).toBe("");
  });

  it("cuts at a code point and counts the bytes left out with thousands separators", () => {
    expect(shortenDisplayText("a".repeat(1300), 66)).toBe(`${"a".repeat(66)}… 1,234 more bytes`);
    expect(shortenDisplayText("a😀b", 3)).toBe("a… 5 more bytes");
    expect(shortenDisplayText("x".repeat(2_000_001), 1)).toBe("x… 2,000,000 more bytes");
  });

  it("kept bytes plus the bytes said to be left out are the whole text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), fc.nat(120), (s, max) => {
        const out = shortenDisplayText(s, max);
        if (utf8Bytes(s) <= max) {
          expect(out).toBe(s);
          return;
        }
        const match = /… ([\d,]+) more bytes$/.exec(out);
        expect(match).not.toBeNull();
        const kept = out.slice(0, out.length - (match?.[0].length ?? 0));
        expect(utf8Bytes(kept)).toBeLessThanOrEqual(max);
        expect(s.startsWith(kept)).toBe(true);
        expect(utf8Bytes(kept) + Number((match?.[1] ?? "").replaceAll(",", ""))).toBe(utf8Bytes(s));
      }),
      { seed: 20261207, numRuns: 1000 },
    );
  });
});

describe("formatByteCount", () => {
  it.each([
    [0, "0"],
    [999, "999"],
    [1000, "1,000"],
    [1234567, "1,234,567"],
  ])("%i → %s", (n, text) => {
    expect(formatByteCount(n)).toBe(text);
  });
});

describe("stringifyForDisplay", () => {
  it("is one well-formed JSON document that parses back to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), hostile, (value, s) => {
        const doc = { value, s, [s]: [s] };
        const text = stringifyForDisplay(doc, 2);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(doc)));
        expect(text).not.toMatch(
          /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/,
        );
      }),
      { seed: 20261208, numRuns: 1000 },
    );
  });

  it("writes the listed code points as \\u escapes and keeps astral characters", () => {
    expect(stringifyForDisplay({ a: "\u009b\u202e\u007f😀\u001b" })).toBe(
      '{"a":"\\u009b\\u202e\\u007f😀\\u001b"}',
    );
    expect(stringifyForDisplay(undefined)).toBe("null");
  });
});
