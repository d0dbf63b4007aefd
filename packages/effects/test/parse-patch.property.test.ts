import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PATCH_CODES, PatchError, parsePatch, safeParsePatch } from "../src/index.js";
import { referenceParse } from "./reference-parser.js";

const SEED = 7_031_994;
const RUNS = 2000;

/** Lines that exercise every branch of the grammar, valid and not. */
const LINE = fc.constantFrom(
  "*** Begin Patch",
  "*** End Patch",
  "*** Add File: a",
  "*** Add File: dir",
  "*** Add File: dir/file",
  "*** Add File: dir2",
  "*** Add File: ../a",
  "*** Add File: /repo/a",
  "*** Add File:  a",
  "*** Add File: a ",
  "*** Add File:a",
  "*** Add File: ",
  "*** add File: a",
  "*** Update File: a",
  "*** Update File: ./b",
  "*** Update File: dir/x",
  "*** Delete File: a",
  "*** Delete File: c",
  "*** Delete File: a\u2028",
  "*** Move to: b",
  "*** Move to: a",
  "*** Move to: ",
  "*** Move to: dir",
  "@@",
  "@@ ",
  "@@ -1 +1 @@",
  " ",
  " ctx",
  "+",
  "+add",
  "+*** End Patch",
  "-",
  "-del",
  "--- a",
  "",
  "\r",
  "x",
  "*** End of File",
  "*** No newline at end of file",
);

const SEPARATOR = fc.constantFrom("\n", "\r\n");

/** A body of grammar-ish lines, usually inside an envelope, with a random line ending and tail. */
const PATCHY = fc
  .record({
    body: fc.array(LINE, { maxLength: 14 }),
    separator: SEPARATOR,
    envelope: fc.boolean(),
    tail: fc.constantFrom("", "\n", "\r\n", "\n\n", " ", "\n\r"),
  })
  .map(({ body, separator, envelope, tail }) => {
    const lines = envelope ? ["*** Begin Patch", ...body, "*** End Patch"] : body;
    return lines.join(separator) + tail;
  });

/** A valid-looking patch with one random character edit (insert, delete or replace). */
const MUTATED = fc
  .record({
    text: PATCHY,
    at: fc.nat(),
    insert: fc.string({ unit: "binary", maxLength: 3 }),
    remove: fc.nat({ max: 3 }),
  })
  .map(({ text, at, insert, remove }) => {
    const i = text.length === 0 ? 0 : at % text.length;
    return text.slice(0, i) + insert + text.slice(i + remove);
  });

const ANY_TEXT = fc.oneof(
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({
    unit: fc.constantFrom("*", " ", "+", "-", "@", "\n", "\r", "a", "/", ".", ":"),
    maxLength: 60,
  }),
  PATCHY,
  MUTATED,
);

function outcome(text: unknown, cwd?: string) {
  try {
    return {
      ok: true as const,
      changes: JSON.parse(JSON.stringify(parsePatch(text, cwd === undefined ? {} : { cwd }))),
    };
  } catch (error) {
    if (error instanceof PatchError && (PATCH_CODES as readonly string[]).includes(error.code)) {
      expect(error.message).toBe(error.code);
      return { ok: false as const, code: error.code };
    }
    throw error;
  }
}

describe("parsePatch properties", () => {
  it("either parses or throws a PatchError with a patch_* code, never anything else", () => {
    fc.assert(
      fc.property(ANY_TEXT, fc.constantFrom(undefined, "/repo", "/repo/project", "/"), (text, cwd) => {
        outcome(text, cwd);
        const safe = safeParsePatch(text, cwd === undefined ? {} : { cwd });
        expect(typeof safe.ok).toBe("boolean");
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("agrees with a naive transcription of the spec, in both modes", () => {
    fc.assert(
      fc.property(
        fc.oneof(PATCHY, MUTATED),
        fc.constantFrom(undefined, "/repo", "/repo/project"),
        (text, cwd) => {
          expect(outcome(text, cwd)).toEqual(referenceParse(text, cwd));
        },
      ),
      { seed: SEED + 1, numRuns: RUNS * 2 },
    );
  });

  it("agrees with the naive transcription on many-section patches (target limits)", () => {
    const section = fc.constantFrom(
      ["*** Delete File: d"],
      ["*** Add File: a", "+x"],
      ["*** Update File: u", "*** Move to: m", "@@", " x"],
      ["*** Update File: u", "@@", "-x", "*** End of File"],
    );
    const many = fc
      .array(fc.tuple(section, fc.nat({ max: 40 })), { minLength: 30, maxLength: 70 })
      .map((parts) => {
        const body = parts.flatMap(([lines, n], i) =>
          lines.map((line) => (line.includes(": ") ? `${line}${i % 2 ? n : i}` : line)),
        );
        return ["*** Begin Patch", ...body, "*** End Patch"].join("\n");
      });
    fc.assert(
      fc.property(many, fc.constantFrom(undefined, "/repo"), (text, cwd) => {
        expect(outcome(text, cwd)).toEqual(referenceParse(text, cwd));
      }),
      { seed: SEED + 2, numRuns: 1000 },
    );
  });

  it("never accepts in resolved-target mode what syntax-only mode refuses", () => {
    fc.assert(
      fc.property(fc.oneof(PATCHY, MUTATED), (text) => {
        const syntax = safeParsePatch(text);
        const resolved = safeParsePatch(text, { cwd: "/repo" });
        if (!syntax.ok && resolved.ok) throw new Error(`resolved accepted ${JSON.stringify(text)}`);
      }),
      { seed: SEED + 3, numRuns: RUNS },
    );
  });
});
