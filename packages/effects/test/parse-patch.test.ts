import { ContractError, isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import {
  MAX_PATCH_BYTES,
  MAX_PATCH_TARGETS,
  PATCH_CODES,
  type PatchCode,
  PatchError,
  parsePatch,
  safeParsePatch,
} from "../src/index.js";

/** A patch: the envelope around the given body lines, LF-separated, no final newline. */
const P = (...body: string[]): string => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");

function codeOf(text: unknown, cwd?: string): PatchCode | "ok" {
  const result = safeParsePatch(text, cwd === undefined ? {} : { cwd });
  return result.ok ? "ok" : result.code;
}

/** `n` Add sections with distinct, non-nested targets. */
const adds = (n: number): string[] => Array.from({ length: n }, (_, i) => `*** Add File: f${i}`);

describe("PatchError", () => {
  it("is a ContractError whose code and message are the patch code", () => {
    let caught: unknown;
    try {
      parsePatch("nope");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PatchError);
    expect(caught).toBeInstanceOf(ContractError);
    expect(isContractError(caught)).toBe(true);
    const error = caught as PatchError;
    expect(error.code).toBe("patch_invalid_envelope");
    expect(error.message).toBe("patch_invalid_envelope");
    expect(error.name).toBe("PatchError");
    expect(error.issues).toEqual([{ code: "patch_invalid_envelope", message: "patch_invalid_envelope" }]);
  });

  it("lists the eleven parser codes of §7.6", () => {
    expect(PATCH_CODES).toHaveLength(11);
  });
});

// [name, text, syntax-only code, resolved-target code at /repo]
type Row = [string, unknown, PatchCode | "ok", (PatchCode | "ok")?];

const rows: Row[] = [
  // §7.1 preconditions
  ["not a string (number)", 42, "patch_invalid_size_or_binary"],
  ["not a string (null)", null, "patch_invalid_size_or_binary"],
  ["not a string (String object)", new String(P("*** Delete File: a")), "patch_invalid_size_or_binary"],
  ["a NUL in a content line", P("*** Add File: a", "+x\u0000y"), "patch_invalid_size_or_binary"],
  ["a NUL after the envelope", `${P("*** Delete File: a")}\n\u0000`, "patch_invalid_size_or_binary"],
  ["control characters other than NUL are fine", P("*** Add File: a", "+\u0001\u001f\u007f"), "ok"],

  // §7.2–7.3 lines and envelope
  ["the empty string", "", "patch_invalid_envelope"],
  ["a single newline", "\n", "patch_invalid_envelope"],
  ["only *** Begin Patch", "*** Begin Patch", "patch_invalid_envelope"],
  ["only *** Begin Patch with a newline", "*** Begin Patch\n", "patch_invalid_envelope"],
  ["only *** End Patch", "*** End Patch", "patch_invalid_envelope"],
  [
    "*** Begin Patch with a trailing space",
    P("*** Delete File: a").replace("Patch\n", "Patch \n"),
    "patch_invalid_envelope",
  ],
  ["*** Begin Patch with a leading space", ` ${P("*** Delete File: a")}`, "patch_invalid_envelope"],
  ["*** End Patch with a trailing space", `${P("*** Delete File: a")} `, "patch_invalid_envelope"],
  ["*** End Patch with a trailing tab", `${P("*** Delete File: a")}\t`, "patch_invalid_envelope"],
  ["lowercase begin", P("*** Delete File: a").replace("Begin", "begin"), "patch_invalid_envelope"],
  ["a leading blank line", `\n${P("*** Delete File: a")}`, "patch_invalid_envelope"],
  ["one trailing newline is fine", `${P("*** Delete File: a")}\n`, "ok"],
  ["two trailing newlines fail", `${P("*** Delete File: a")}\n\n`, "patch_invalid_envelope"],
  ["one trailing CRLF is fine", `${P("*** Delete File: a")}\r\n`, "ok"],
  ["two trailing CRLFs fail", `${P("*** Delete File: a")}\r\n\r\n`, "patch_invalid_envelope"],
  [
    "CRLF throughout",
    `${P("*** Add File: a", "+x", "*** Update File: b", "@@", " c").replaceAll("\n", "\r\n")}\r\n`,
    "ok",
  ],
  ["a lone final CR after End Patch is removed", `${P("*** Delete File: a")}\r`, "ok"],
  [
    "two CRs before a LF remove only one",
    P("*** Delete File: a").replace("Patch\n", "Patch\r\r\n"),
    "patch_invalid_envelope",
  ],
  ["a trailing LF then CR drops the emptied line", `${P("*** Delete File: a")}\n\r`, "ok"],
  ["text after *** End Patch", `${P("*** Delete File: a")}\nmore`, "patch_invalid_envelope"],

  // §7.4 patch_empty
  ["no body", P(), "patch_empty"],
  ["no body, CRLF", "*** Begin Patch\r\n*** End Patch\r\n", "patch_empty"],
  ["a body of one empty line", P(""), "patch_invalid_header"],

  // §7.4 headers
  ["*** Add File:a", P("*** Add File:a"), "patch_invalid_header"],
  ["*** add File: a", P("*** add File: a"), "patch_invalid_header"],
  ["*** Add file: a", P("*** Add file: a"), "patch_invalid_header"],
  ["*** Add File: (nothing after the space)", P("*** Add File: "), "patch_invalid_header"],
  [
    "*** Add File: with CRLF and nothing after",
    `${P("*** Add File: ").replaceAll("\n", "\r\n")}`,
    "patch_invalid_header",
  ],
  ["*** Add File:", P("*** Add File:"), "patch_invalid_header"],
  ["**  Add File: a", P("**  Add File: a"), "patch_invalid_header"],
  ["*** Add  File: a", P("*** Add  File: a"), "patch_invalid_header"],
  ["*** Add File:\ta", P("*** Add File:\ta"), "patch_invalid_header"],
  ["a CR inside the header rest", P("*** Add File: a\rb"), "patch_invalid_header"],
  ["a header rest ending in CR before CRLF", P("*** Add File: a\r\r", "+x"), "patch_invalid_header"],
  ["U+2028 in the header rest", P("*** Add File: a\u2028b"), "patch_invalid_header"],
  ["U+2029 in the header rest", P("*** Delete File: a\u2029"), "patch_invalid_header"],
  ["*** Move File: a", P("*** Move File: a"), "patch_invalid_header"],
  ["a valid Add header", P("*** Add File: a"), "ok"],
  ["a valid Update header", P("*** Update File: a", "@@", " x"), "ok"],
  ["a valid Delete header", P("*** Delete File: a"), "ok"],
  [
    "an empty line where a header is expected",
    P("*** Delete File: a", "", "*** Delete File: b"),
    "patch_invalid_header",
  ],
  ["*** Move to: after an Add", P("*** Add File: a", "*** Move to: b"), "patch_invalid_header"],
  ["*** Move to: after a Delete", P("*** Delete File: a", "*** Move to: b"), "patch_invalid_header"],
  ["*** End of File after an Add", P("*** Add File: a", "+x", "*** End of File"), "patch_invalid_header"],
  ["a content line without +", P("*** Add File: a", "+x", "y"), "patch_invalid_header"],
  ["a context line after an Add", P("*** Add File: a", " y"), "patch_invalid_header"],
  ["a stray @@ after an Add", P("*** Add File: a", "@@", "+x"), "patch_invalid_header"],

  // §7.4 Add
  ["an Add with no lines (empty file)", P("*** Add File: a"), "ok"],
  ["an Add with a bare + and +*** End Patch", P("*** Add File: a", "+", "+*** End Patch"), "ok"],
  ["an Add followed by another section", P("*** Add File: a", "+x", "*** Delete File: b"), "ok"],

  // §7.4 Update and hunks
  ["an Update without hunks at the end", P("*** Update File: a"), "patch_missing_hunk"],
  ["a pure move", P("*** Update File: a", "*** Move to: b"), "patch_missing_hunk"],
  ["an Update followed by a header", P("*** Update File: a", "*** Delete File: b"), "patch_missing_hunk"],
  ["@@ -1 +1 @@ is not a hunk start", P("*** Update File: a", "@@ -1 +1 @@", " x"), "patch_missing_hunk"],
  ["@@ def f(): is not a hunk start", P("*** Update File: a", "@@ def f():", " x"), "patch_missing_hunk"],
  [
    "@@ with a trailing space is not a hunk start",
    P("*** Update File: a", "@@ ", " x"),
    "patch_missing_hunk",
  ],
  ["a move with a hunk", P("*** Update File: a", "*** Move to: b", "@@", "-x", "+y"), "ok"],
  ["@@ followed by nothing", P("*** Update File: a", "@@"), "patch_empty_hunk"],
  ["@@ followed by an empty line", P("*** Update File: a", "@@", "", " x"), "patch_empty_hunk"],
  ["@@ followed by @@", P("*** Update File: a", "@@", "@@", " x"), "patch_empty_hunk"],
  ["@@ followed by *** End of File", P("*** Update File: a", "@@", "*** End of File"), "patch_empty_hunk"],
  ["a second empty hunk", P("*** Update File: a", "@@", " x", "@@"), "patch_empty_hunk"],
  ["two hunks", P("*** Update File: a", "@@", " x", "@@", "-y"), "ok"],
  [
    "an empty line ends a hunk (then a header is expected)",
    P("*** Update File: a", "@@", " x", "", " y"),
    "patch_invalid_header",
  ],
  ["a blank context line is a single space", P("*** Update File: a", "@@", " x", " ", " y"), "ok"],
  ["an anchored hunk", P("*** Update File: a", "@@", "-x", "+y", "*** End of File"), "ok"],
  [
    "an anchored first hunk of two",
    P("*** Update File: a", "@@", " x", "*** End of File", "@@", " y"),
    "patch_hunk_after_eof",
  ],
  [
    "*** End of File twice",
    P("*** Update File: a", "@@", " x", "*** End of File", "*** End of File"),
    "patch_invalid_header",
  ],
  ["an anchored last hunk", P("*** Update File: a", "@@", " x", "@@", " y", "*** End of File"), "ok"],
  [
    "*** End of File with a trailing space",
    P("*** Update File: a", "@@", " x", "*** End of File "),
    "patch_invalid_header",
  ],

  // §7.4 no-newline marker
  ["the marker after an Add", P("*** Add File: a", "+x", "*** No newline at end of file"), "ok"],
  ["the marker after an empty Add", P("*** Add File: a", "*** No newline at end of file"), "ok"],
  ["the marker after an Update", P("*** Update File: a", "@@", "+x", "*** No newline at end of file"), "ok"],
  [
    "the marker after an anchored hunk",
    P("*** Update File: a", "@@", "+x", "*** End of File", "*** No newline at end of file"),
    "ok",
  ],
  [
    "the marker after a Delete",
    P("*** Delete File: a", "*** No newline at end of file"),
    "patch_invalid_header",
  ],
  [
    "a second marker",
    P("*** Add File: a", "+x", "*** No newline at end of file", "*** No newline at end of file"),
    "patch_invalid_header",
  ],
  [
    "the marker, then a hunk",
    P("*** Update File: a", "@@", "+x", "*** No newline at end of file", "@@", "+y"),
    "patch_invalid_header",
  ],

  // §7.5 target syntax
  ["*** Add File:  a (two spaces)", P("*** Add File:  a"), "patch_invalid_path"],
  ["*** Add File: a (trailing space)", P("*** Add File: a "), "patch_invalid_path"],
  ["a trailing tab", P("*** Delete File: a\t"), "patch_invalid_path"],
  ["a trailing no-break space", P("*** Delete File: a\u00a0"), "patch_invalid_path"],
  ["inner spaces are fine", P("*** Delete File: my file.txt"), "ok"],
  ["an empty *** Move to: ", P("*** Update File: a", "*** Move to: ", "@@", " x"), "patch_invalid_path"],
  [
    "*** Move to:  b (two spaces)",
    P("*** Update File: a", "*** Move to:  b", "@@", " x"),
    "patch_invalid_path",
  ],
  [
    "a CR inside a Move destination",
    P("*** Update File: a", "*** Move to: b\rc", "@@", " x"),
    "patch_invalid_path",
  ],
  [
    "*** Move to: without the space is not a move",
    P("*** Update File: a", "*** Move to:b", "@@", " x"),
    "patch_missing_hunk",
  ],
  ["the path is checked before the body", P("*** Update File:  a"), "patch_invalid_path"],
  [
    "the destination is checked before the hunks",
    P("*** Update File: a", "*** Move to: "),
    "patch_invalid_path",
  ],

  // §7.5 target count (more in "target limit" below)
  ["64 targets", P(...adds(64)), "ok", "ok"],
  ["65 targets", P(...adds(65)), "patch_too_many_paths", "patch_too_many_paths"],

  // §7.5 repeated and conflicting targets: only in resolved-target mode
  ["Add a then Delete ./a", P("*** Add File: a", "*** Delete File: ./a"), "ok", "patch_repeated_target"],
  [
    "Update a with Move to a",
    P("*** Update File: a", "*** Move to: a", "@@", " x"),
    "ok",
    "patch_repeated_target",
  ],
  [
    "Update a with Move to ./x/../a",
    P("*** Update File: a", "*** Move to: ./x/../a", "@@", " x"),
    "ok",
    "patch_repeated_target",
  ],
  ["the same path twice", P("*** Delete File: a", "*** Delete File: a"), "ok", "patch_repeated_target"],
  [
    "an absolute alias of a relative target",
    P("*** Delete File: a", "*** Delete File: /repo/a"),
    "ok",
    "patch_repeated_target",
  ],
  [
    "dir then dir/file",
    P("*** Delete File: dir", "*** Add File: dir/file"),
    "ok",
    "patch_conflicting_targets",
  ],
  [
    "dir/file then dir",
    P("*** Add File: dir/file", "*** Delete File: dir"),
    "ok",
    "patch_conflicting_targets",
  ],
  [
    "dir then dir/x/y (deep descendant)",
    P("*** Delete File: dir", "*** Add File: dir/x/y"),
    "ok",
    "patch_conflicting_targets",
  ],
  [
    "a move into a descendant of its source",
    P("*** Update File: dir", "*** Move to: dir/sub", "@@", " x"),
    "ok",
    "patch_conflicting_targets",
  ],
  ["dir and dir2 do not conflict", P("*** Delete File: dir", "*** Add File: dir2"), "ok", "ok"],
  ["dir2 and dir do not conflict", P("*** Add File: dir2/x", "*** Delete File: dir"), "ok", "ok"],
  ["dir/a and dir/b do not conflict", P("*** Add File: dir/a", "*** Add File: dir/b"), "ok", "ok"],
  ["a and a.txt do not conflict", P("*** Add File: a", "*** Add File: a.txt"), "ok", "ok"],
  ["../a and /a at /repo", P("*** Add File: ../a", "*** Add File: /a"), "ok", "patch_repeated_target"],
  [
    "a repeat is reported before a later syntax error",
    P("*** Delete File: a", "*** Delete File: a", ""),
    "patch_invalid_header",
    "patch_repeated_target",
  ],
];

describe("parsePatch codes (syntax-only and resolved-target at /repo)", () => {
  it.each(rows)("%s", (_name, text, syntax, resolved = syntax) => {
    expect(codeOf(text)).toBe(syntax);
    expect(codeOf(text, "/repo")).toBe(resolved);
  });

  it("throws the PatchError that safeParsePatch reports", () => {
    for (const [, text, syntax] of rows) {
      if (syntax === "ok") expect(() => parsePatch(text)).not.toThrow();
      else expect(() => parsePatch(text)).toThrow(expect.objectContaining({ code: syntax, message: syntax }));
    }
  });

  it("covers every parser code", () => {
    const seen = new Set(rows.flatMap(([, , a, b]) => [a, b ?? a]));
    for (const code of PATCH_CODES) expect(seen, code).toContain(code);
  });
});

describe("size limit (§7.1)", () => {
  const frame = P("*** Add File: a", "+");
  const fill = (bytes: number, unit = "x", unitBytes = 1): string => {
    const room = bytes - frame.length;
    return P(
      "*** Add File: a",
      `+${unit.repeat(Math.floor(room / unitBytes))}${"x".repeat(room % unitBytes)}`,
    );
  };

  it.each([
    ["ASCII", "x", 1],
    ["2-byte é", "é", 2],
    ["3-byte €", "€", 3],
    ["4-byte 😀 (one surrogate pair)", "😀", 4],
  ])("accepts exactly 1 MiB and refuses one byte more (%s)", (_name, unit, width) => {
    const exact = fill(MAX_PATCH_BYTES, unit, width);
    expect(new TextEncoder().encode(exact).length).toBe(MAX_PATCH_BYTES);
    expect(codeOf(exact)).toBe("ok");
    const over = fill(MAX_PATCH_BYTES + 1, unit, width);
    expect(new TextEncoder().encode(over).length).toBe(MAX_PATCH_BYTES + 1);
    expect(codeOf(over)).toBe("patch_invalid_size_or_binary");
  });

  it("counts a lone surrogate as three bytes", () => {
    const room = MAX_PATCH_BYTES - frame.length;
    const exact = P("*** Add File: a", `+\ud800${"x".repeat(room - 3)}`);
    expect(codeOf(exact)).toBe("ok");
    expect(codeOf(P("*** Add File: a", `+\ud800${"x".repeat(room - 2)}`))).toBe(
      "patch_invalid_size_or_binary",
    );
  });

  it("checks the size before the envelope", () => {
    expect(codeOf("x".repeat(MAX_PATCH_BYTES + 1))).toBe("patch_invalid_size_or_binary");
  });
});

describe("target limit (§7.5)", () => {
  it.each([undefined, "/repo"])("accepts 64 targets and refuses the 65th (cwd %s)", (cwd) => {
    expect(MAX_PATCH_TARGETS).toBe(64);
    expect(codeOf(P(...adds(64)), cwd)).toBe("ok");
    expect(codeOf(P(...adds(65)), cwd)).toBe("patch_too_many_paths");
  });

  it.each([undefined, "/repo"])("counts Move destinations (cwd %s)", (cwd) => {
    const moves = Array.from({ length: 32 }, (_, i) => [
      `*** Update File: s${i}`,
      `*** Move to: d${i}`,
      "@@",
      " x",
    ]);
    expect(codeOf(P(...moves.flat()), cwd)).toBe("ok");
    expect(codeOf(P(...moves.flat(), "*** Delete File: extra"), cwd)).toBe("patch_too_many_paths");
    const last = moves.slice(0, 31).flat();
    expect(
      codeOf(P(...last, "*** Delete File: x", "*** Update File: y", "*** Move to: z", "@@", " x"), cwd),
    ).toBe("patch_too_many_paths");
  });

  it("counts before checking repeats: the 65th target fails as too many even when repeated", () => {
    expect(codeOf(P(...adds(64), "*** Delete File: f0"), "/repo")).toBe("patch_too_many_paths");
  });

  it("counts the 65th target only once its syntax is valid", () => {
    expect(codeOf(P(...adds(64), "*** Delete File:  x"))).toBe("patch_invalid_path");
  });
});

describe("the two modes (§7.5)", () => {
  const text = P("*** Add File: ../a", "*** Add File: /a");

  it("syntax-only mode resolves against / and checks no repeats", () => {
    const patch = parsePatch(text);
    expect(patch.map((c) => c.path)).toEqual(["/a", "/a"]);
  });

  it("resolved-target mode at /repo/project gives two distinct targets", () => {
    expect(parsePatch(text, { cwd: "/repo/project" }).map((c) => c.path)).toEqual(["/repo/a", "/a"]);
  });

  it("resolved-target mode at /repo finds the repeat", () => {
    expect(() => parsePatch(text, { cwd: "/repo" })).toThrow(new PatchError("patch_repeated_target"));
  });

  it("normalizes the cwd itself", () => {
    expect(parsePatch(P("*** Delete File: x"), { cwd: "/r//s/../t/" })[0]?.path).toBe("/r/t/x");
  });

  it("treats an explicit undefined cwd as syntax-only mode", () => {
    expect(codeOf(P("*** Delete File: a", "*** Delete File: a"), undefined)).toBe("ok");
    expect(safeParsePatch(P("*** Delete File: a", "*** Delete File: a"), { cwd: undefined }).ok).toBe(true);
  });

  it.each(["", "relative", "./x"])("throws a TypeError for the non-absolute cwd %j", (cwd) => {
    expect(() => parsePatch(P("*** Delete File: a"), { cwd })).toThrow(TypeError);
    expect(() => safeParsePatch(P("*** Delete File: a"), { cwd })).toThrow(TypeError);
  });
});

describe("parsed result (§7.7)", () => {
  it("gives the shape of every section kind", () => {
    const text = P(
      "*** Add File: nested/new",
      "+héllo",
      "+",
      "*** No newline at end of file",
      "*** Update File: old",
      "*** Move to: moved",
      "@@",
      " keep",
      "-before",
      "+after",
      "@@",
      "--- dashes",
      "++ plus",
      "  indented",
      "*** End of File",
      "*** Update File: ./x//y",
      "@@",
      "+z",
      "*** Delete File: remove",
    );
    expect(parsePatch(text, { cwd: "/r" })).toEqual([
      {
        kind: "add",
        path: "/r/nested/new",
        rawPath: "nested/new",
        hunks: [],
        added: ["héllo", ""],
        noNewline: true,
      },
      {
        kind: "update",
        path: "/r/old",
        rawPath: "old",
        destination: "/r/moved",
        rawDestination: "moved",
        hunks: [
          {
            lines: [
              { kind: " ", text: "keep" },
              { kind: "-", text: "before" },
              { kind: "+", text: "after" },
            ],
            eof: false,
          },
          {
            lines: [
              { kind: "-", text: "-- dashes" },
              { kind: "+", text: "+ plus" },
              { kind: " ", text: " indented" },
            ],
            eof: true,
          },
        ],
        added: [],
        noNewline: false,
      },
      {
        kind: "update",
        path: "/r/x/y",
        rawPath: "./x//y",
        hunks: [{ lines: [{ kind: "+", text: "z" }], eof: false }],
        added: [],
        noNewline: false,
      },
      { kind: "delete", path: "/r/remove", rawPath: "remove", hunks: [], added: [], noNewline: false },
    ]);
  });

  it("keeps the key order kind, path, rawPath, destination, rawDestination, hunks, added, noNewline", () => {
    const [move] = parsePatch(P("*** Update File: a", "*** Move to: b", "@@", " x"));
    expect(Object.keys(move ?? {})).toEqual([
      "kind",
      "path",
      "rawPath",
      "destination",
      "rawDestination",
      "hunks",
      "added",
      "noNewline",
    ]);
    const [add] = parsePatch(P("*** Add File: a", "+x"));
    expect(Object.keys(add ?? {})).toEqual(["kind", "path", "rawPath", "hunks", "added", "noNewline"]);
  });

  it("removes one CR per line from CRLF text", () => {
    const text = `${P("*** Add File: a", "+x\r", "+", "*** Update File: b", "@@", " c", "-d").replaceAll("\n", "\r\n")}\r\n`;
    const [add, update] = parsePatch(text);
    expect(add?.added).toEqual(["x\r", ""]);
    expect(update?.hunks).toEqual([
      {
        lines: [
          { kind: " ", text: "c" },
          { kind: "-", text: "d" },
        ],
        eof: false,
      },
    ]);
  });

  it("serializes, clones, spreads and compares like plain data", () => {
    const patch = parsePatch(P("*** Add File: a", "+x", "*** Update File: b", "@@", " y"));
    const plain = JSON.parse(JSON.stringify(patch));
    expect(plain[0].added).toEqual(["x"]);
    expect(plain[1].hunks).toEqual([{ lines: [{ kind: " ", text: "y" }], eof: false }]);
    expect(structuredClone(patch)).toEqual(plain);
    expect({ ...patch[1] }.hunks).toBe(patch[1]?.hunks);
  });

  it("returns the same hunk array on every read, and accepts assignment", () => {
    const [update] = parsePatch(P("*** Update File: b", "@@", " y"));
    if (!update) throw new Error("no change");
    expect(update.hunks).toBe(update.hunks);
    const replacement = [{ lines: [{ kind: "+" as const, text: "z" }], eof: true }];
    update.hunks = replacement;
    expect(update.hunks).toBe(replacement);
    const frozen = Object.freeze(parsePatch(P("*** Add File: a", "+x"))[0]);
    expect(frozen?.added).toEqual(["x"]);
  });
});
