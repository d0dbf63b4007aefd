import { describe, expect, it } from "vitest";
import {
  addedContent,
  applyHunks,
  createMatchingBudget,
  MAX_MATCHING_VISITS,
  MAX_SOURCE_BYTES,
  MAX_STAGED_BYTES,
  MAX_STAGED_LINES,
  type PatchChange,
  type PatchHunk,
  parsePatch,
} from "../src/index.js";

/** A hunk from compact lines: `" x"`, `"-x"`, `"+x"`. */
const hunk = (lines: string[], eof = false): PatchHunk => ({
  lines: lines.map((l) => ({ kind: l[0] as " " | "+" | "-", text: l.slice(1) })),
  eof,
});
const change = (hunks: PatchHunk[], noNewline = false) => ({ hunks, noNewline });
const apply = (source: string, hunks: PatchHunk[], noNewline = false, budget = createMatchingBudget()) =>
  applyHunks(source, change(hunks, noNewline), budget);

describe("applyHunks (§8.3.2)", () => {
  it("the BOM + CRLF + no-final-newline example", () => {
    expect(
      apply("\uFEFFone\r\ntwo\r\nlast", [hunk([" one", "-two", "+new", "+extra", " last"], true)]),
    ).toEqual({
      ok: true,
      content: "\uFEFFone\r\nnew\r\nextra\r\nlast",
    });
  });

  it("the anchored example: only the occurrence ending at the last line counts", () => {
    expect(apply("same\nother\nsame\n", [hunk(["-same", "+last"], true)])).toEqual({
      ok: true,
      content: "same\nother\nlast\n",
    });
    expect(apply("same\nother\nsame\n", [hunk(["-same", "+last"])])).toEqual({
      ok: false,
      code: "patch_ambiguous_context",
    });
  });

  it.each<[string, string, PatchHunk[], boolean, string]>([
    ["replaces one line", "a\nb\nc\n", [hunk([" a", "-b", "+B", " c"])], false, "a\nB\nc\n"],
    ["matches without context", "a\nb\nc\n", [hunk(["-b", "+B"])], false, "a\nB\nc\n"],
    ["deletes every line", "a\nb\n", [hunk(["-a", "-b"])], false, ""],
    ["keeps a missing final newline", "a\nb", [hunk(["-b", "+c"])], false, "a\nc"],
    ["the marker removes the final newline", "a\nb\n", [hunk(["-b", "+c"])], true, "a\nc"],
    ["the marker on an unchanged tail", "a\nb\n", [hunk(["-a", "+A"])], true, "A\nb"],
    ["appends after the last line", "a\nb\n", [hunk([" b", "+c"], true)], false, "a\nb\nc\n"],
    ["appends after a last line without LF", "a\nb", [hunk([" b", "+c"], true)], false, "a\nb\nc"],
    ["appends CRLF after a last CRLF-less line", "a\r\nb", [hunk([" b", "+c"])], false, "a\r\nb\r\nc"],
    [
      "inserts with the ending of the line at the input index",
      "a\r\nb\nc\n",
      [hunk([" a", "+x", " b"])],
      false,
      "a\r\nx\nb\nc\n",
    ],
    [
      "inserts at the start with the first line's ending",
      "a\r\nb\n",
      [hunk(["+x", " a"])],
      false,
      "x\r\na\r\nb\n",
    ],
    ["keeps mixed endings", "a\r\nb\nc\r\n", [hunk([" a", "+x", " b", " c"])], false, "a\r\nx\nb\nc\r\n"],
    [
      "an insertion after a deletion takes the next source line's ending",
      "a\r\nb\nc\r\n",
      [hunk([" a", "-b", "+B", " c"])],
      false,
      "a\r\nB\r\nc\r\n",
    ],
    [
      "a deleted last line gives the previous line the final ending",
      "a\nb",
      [hunk([" a", "-b"])],
      false,
      "a",
    ],
    ["a source of one LF", "\n", [hunk(["-", "+x"])], false, "x\n"],
    [
      "two hunks in file order",
      "a\nb\nc\nd\n",
      [hunk(["-a", "+A"]), hunk(["-d", "+D"])],
      false,
      "A\nb\nc\nD\n",
    ],
    [
      "a second hunk searches after the cursor",
      "x\ny\nx\n",
      [hunk(["-x", "+1", " y"]), hunk(["-x", "+2"])],
      false,
      "1\ny\n2\n",
    ],
    ["whitespace is compared exactly", "a \na\n", [hunk(["-a", "+b"])], false, "a \nb\n"],
    ["the default ending is \\n when no line has one", "a", [hunk([" a", "+b"])], false, "a\nb"],
    [
      "insertions take the previous line's ending when the next has none",
      "a\r\nb",
      [hunk(["-a", "+x", "+y"])],
      false,
      "x\r\ny\r\nb",
    ],
    ["a BOM-only source is empty", "\uFEFF", [hunk(["+a"])], false, "\uFEFFa"],
    ["an empty source takes an insertion-only first hunk", "", [hunk(["+a", "+b"])], false, "a\nb"],
    ["a CR not before LF is text", "a\rb\n", [hunk(["-a\rb", "+c"])], false, "c\n"],
  ])("%s", (_name, source, hunks, noNewline, content) => {
    expect(apply(source, hunks, noNewline)).toEqual({ ok: true, content });
  });

  it.each<[string, string, PatchHunk[], string]>([
    ["an insertion-only hunk on a non-empty source", "a\n", [hunk(["+b"])], "patch_unanchored_insertion"],
    ["an insertion-only hunk on a source of one LF", "\n", [hunk(["+b"])], "patch_unanchored_insertion"],
    [
      "an insertion-only second hunk on an empty source",
      "",
      [hunk(["+a"]), hunk(["+b"])],
      "patch_unanchored_insertion",
    ],
    [
      "an anchored insertion-only hunk on a non-empty source",
      "a",
      [hunk(["+b"], true)],
      "patch_unanchored_insertion",
    ],
    [
      "an insertion-only hunk after a matched one",
      "a\n",
      [hunk([" a"]), hunk(["+b"])],
      "patch_unanchored_insertion",
    ],
    ["missing context", "a\nb\n", [hunk([" c"])], "patch_context_not_found"],
    ["context that only matches with other whitespace", "a \n", [hunk([" a"])], "patch_context_not_found"],
    ["context longer than the source", "a\n", [hunk([" a", " b"])], "patch_context_not_found"],
    ["context before the cursor", "a\nb\n", [hunk([" b"]), hunk([" a"])], "patch_context_not_found"],
    ["hunks out of file order", "a\nb\nc\n", [hunk(["-c"]), hunk(["-a"])], "patch_context_not_found"],
    ["an anchored hunk not at the end", "a\nb\n", [hunk(["-a"], true)], "patch_context_not_found"],
    ["context on an empty source", "", [hunk([" a"])], "patch_context_not_found"],
    ["two occurrences", "a\nb\na\n", [hunk(["-a"])], "patch_ambiguous_context"],
    ["overlapping occurrences", "a\na\na\n", [hunk([" a", "-a"])], "patch_ambiguous_context"],
    ["occurrences after the cursor", "x\na\na\n", [hunk(["-x"]), hunk(["-a"])], "patch_ambiguous_context"],
  ])("%s → %s", (_name, source, hunks, code) => {
    expect(apply(source, hunks)).toEqual({ ok: false, code });
  });
});

describe("the matching budget", () => {
  it("exports the limits of §8.3.1", () => {
    expect([MAX_MATCHING_VISITS, MAX_STAGED_LINES, MAX_SOURCE_BYTES, MAX_STAGED_BYTES]).toEqual([
      8_000_000, 200_000, 16_777_216, 67_108_864,
    ]);
    expect(createMatchingBudget()).toEqual({ remaining: 8_000_000 });
  });

  it("costs one visit per candidate position scanned, and stops at a second match", () => {
    const source = "a\nb\nc\nd\ne\n";
    const budget = { remaining: 100 };
    expect(apply(source, [hunk(["-d"])], false, budget).ok).toBe(true);
    expect(budget.remaining).toBe(95); // positions 0..4 (a unique match is only known at the end)
    const twice = { remaining: 100 };
    expect(apply("a\nx\na\nb\nb\n", [hunk(["-a"])], false, twice)).toEqual({
      ok: false,
      code: "patch_ambiguous_context",
    });
    expect(twice.remaining).toBe(97); // positions 0..2
    const twoLines = { remaining: 100 };
    expect(apply(source, [hunk([" a", " b"])], false, twoLines).ok).toBe(true);
    expect(twoLines.remaining).toBe(96); // positions 0..3: a two-line hunk cannot start at the last line
  });

  it("charges an anchored hunk for every position from the cursor to the end", () => {
    const budget = { remaining: 100 };
    expect(apply("a\nb\nc\n", [hunk(["-c"], true)], false, budget).ok).toBe(true);
    expect(budget.remaining).toBe(97);
  });

  it("accepts a scan of exactly the remaining visits and refuses one more", () => {
    expect(apply("a\nb\nc\n", [hunk(["-c"])], false, { remaining: 3 }).ok).toBe(true);
    expect(apply("a\nb\nc\n", [hunk(["-c"])], false, { remaining: 2 })).toEqual({
      ok: false,
      code: "patch_matching_limit",
    });
    expect(apply("a\nb\nc\n", [hunk(["-c"], true)], false, { remaining: 3 }).ok).toBe(true);
    expect(apply("a\nb\nc\n", [hunk(["-c"], true)], false, { remaining: 2 })).toEqual({
      ok: false,
      code: "patch_matching_limit",
    });
  });

  it("is shared across hunks and calls", () => {
    const budget = { remaining: 5 };
    expect(apply("a\nb\nc\n", [hunk(["-a"]), hunk(["-c"])], false, budget).ok).toBe(true);
    expect(budget.remaining).toBe(0); // 3 for the first hunk, 2 for the second
    expect(apply("a\n", [hunk(["-a"])], false, budget)).toEqual({ ok: false, code: "patch_matching_limit" });
  });

  it("insertion-only hunks and impossible matches cost nothing", () => {
    const budget = { remaining: 0 };
    expect(apply("", [hunk(["+a"])], false, budget).ok).toBe(true);
    expect(apply("a\n", [hunk([" a", " b"])], false, budget)).toEqual({
      ok: false,
      code: "patch_context_not_found",
    });
  });

  it("stops a patch after 8,000,000 visits", () => {
    // 20,000 distinct lines; hunk i matches line i uniquely, but proving uniqueness scans to the end:
    // hunk i costs 20,000 - i visits. 404 hunks cost 7,998,594; the 405th would need 19,596 more.
    const source = `${Array.from({ length: 20_000 }, (_, i) => `L${i}`).join("\n")}\n`;
    const hunks = (count: number) => Array.from({ length: count }, (_, i) => hunk([` L${i}`]));
    const budget = createMatchingBudget();
    expect(apply(source, hunks(404), false, budget)).toEqual({ ok: true, content: source });
    expect(budget.remaining).toBe(8_000_000 - 7_998_594);
    expect(apply(source, hunks(405))).toEqual({ ok: false, code: "patch_matching_limit" });
  });
});

describe("addedContent (§8.3.1)", () => {
  it.each<[string[], boolean, string]>([
    [[], false, ""],
    [[], true, ""],
    [["a"], false, "a\n"],
    [["a"], true, "a"],
    [["a", "b"], false, "a\nb\n"],
    [["a", "b"], true, "a\nb"],
    [[""], false, "\n"],
    [[""], true, ""],
    [["x\r"], false, "x\r\n"],
  ])("%j (marker %s) → %j", (added, noNewline, content) => {
    expect(addedContent({ added, noNewline })).toBe(content);
  });
});

describe("the §7.8 example end to end", () => {
  it("creates nested/new and moved with the expected contents", () => {
    const patch = parsePatch(
      [
        "*** Begin Patch",
        "*** Add File: nested/new",
        "+héllo",
        "*** Update File: old",
        "*** Move to: moved",
        "@@",
        "-before",
        "+after",
        "*** Delete File: remove",
        "*** End Patch",
      ].join("\n"),
      { cwd: "/r" },
    );
    const [add, update] = patch as [PatchChange, PatchChange];
    expect(addedContent(add)).toBe("héllo\n");
    expect(applyHunks("before\n", update, createMatchingBudget())).toEqual({ ok: true, content: "after\n" });
  });
});
