/**
 * Issue 8 — the patch grammar under attack (effects.md §7): every typo of every fixed line, mixed line endings,
 * the 1 MiB boundary (exactly 1,048,576 bytes accepted, one more refused, with multi-byte characters and lone
 * surrogates at the edge), 64 and 65 targets, paths climbing above `/`, and paths that differ only by a trailing
 * slash or `./`. `parsePatch` answers with a change list or a `PatchError` carrying a `patch_*` code, never
 * anything else; `validateWriteFileArgs` and `describeWriteFileEffects` agree with it.
 */
import { describe, expect, it } from "vitest";
import {
  describeWriteFileEffects,
  MAX_PATCH_BYTES,
  MAX_PATCH_TARGETS,
  PATCH_CODES,
  PatchError,
  parsePatch,
  safeParsePatch,
  validateWriteFileArgs,
} from "../../src/index.js";

const patch = (...body: string[]) => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");

/** Parses, and proves the outcome is a change list or a PatchError whose message is its code. */
function outcome(text: unknown, cwd?: string): { ok: true; paths: string[] } | { ok: false; code: string } {
  try {
    const changes = parsePatch(text, cwd === undefined ? {} : { cwd });
    return { ok: true, paths: changes.flatMap((c) => (c.destination ? [c.path, c.destination] : [c.path])) };
  } catch (error) {
    expect(error).toBeInstanceOf(PatchError);
    const code = (error as PatchError).code;
    expect((PATCH_CODES as readonly string[]).includes(code)).toBe(true);
    expect((error as PatchError).message).toBe(code);
    return { ok: false, code };
  }
}

/** Every single-edit typo of `line`: case flips, deletions, swaps, inserted spaces, odd whitespace and lookalikes. */
function typos(line: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
    if (flipped !== c) out.add(line.slice(0, i) + flipped + line.slice(i + 1));
    out.add(line.slice(0, i) + line.slice(i + 1));
    if (i + 1 < line.length) out.add(line.slice(0, i) + line[i + 1] + c + line.slice(i + 2));
    out.add(`${line.slice(0, i)} ${line.slice(i)}`);
    if (c === " ") {
      for (const other of ["\t", "  ", "\u00a0", "\u3000", ""])
        out.add(line.slice(0, i) + other + line.slice(i + 1));
    }
    if (c === ":")
      for (const other of [";", "::", "："]) out.add(line.slice(0, i) + other + line.slice(i + 1));
    if (c === "*") out.add(`${line.slice(0, i)}＊${line.slice(i + 1)}`);
  }
  for (const edge of [" ", "\t", "\u00a0", "\ufeff", "\u2028"]) {
    out.add(edge + line);
    out.add(line + edge);
  }
  out.add(`${line}\r`);
  out.add(line.replace(/\*\*\*/, "****"));
  out.add(line.replace(/\*\*\*/, "**"));
  out.delete(line);
  return [...out];
}

let tried = 0;

describe("adversarial patches: every typo of every fixed line", () => {
  const update = (extra: string[]) => ["*** Update File: u", ...extra];
  const cases: Array<
    [string, string, (typo: string) => string, (code: string | undefined, typo: string) => boolean]
  > = [
    [
      "*** Begin Patch",
      "envelope",
      (t) => [t, "*** Delete File: a", "*** End Patch"].join("\n"),
      (c) => c === "patch_invalid_envelope",
    ],
    [
      "*** End Patch",
      "envelope",
      (t) => ["*** Begin Patch", "*** Delete File: a", t].join("\n"),
      (c) => c === "patch_invalid_envelope",
    ],
    [
      "*** Add File: ",
      "header",
      (t) => patch(`${t}a`, "+x"),
      (c) => c === "patch_invalid_header" || c === "patch_invalid_path",
    ],
    [
      "*** Update File: ",
      "header",
      (t) => patch(`${t}a`, "@@", " x"),
      (c) => c === "patch_invalid_header" || c === "patch_invalid_path",
    ],
    [
      "*** Delete File: ",
      "header",
      (t) => patch(`${t}a`),
      (c) => c === "patch_invalid_header" || c === "patch_invalid_path",
    ],
    [
      "*** Move to: ",
      "move",
      (t) => patch(...update([`${t}b`, "@@", " x"])),
      (c) => c === "patch_missing_hunk" || c === "patch_invalid_path",
    ],
    [
      "@@",
      "hunk",
      (t) => patch(...update([t, " x"])),
      (c) => c === "patch_missing_hunk" || c === "patch_invalid_header",
    ],
    ["*** End of File", "eof", (t) => patch(...update(["@@", " x", t])), (c) => c === "patch_invalid_header"],
    [
      "*** No newline at end of file",
      "marker",
      (t) => patch("*** Add File: a", "+x", t),
      (c) => c === "patch_invalid_header",
    ],
  ];

  it.each(cases)("%s (%s)", (line, _kind, build, accepts) => {
    const variants = typos(line);
    expect(variants.length).toBeGreaterThan(10);
    for (const typo of variants) {
      const text = build(typo);
      // A typo that happens to spell the path part differently still parses; only the fixed part matters.
      const result = outcome(text);
      tried++;
      if (result.ok) {
        // Allowed only when the edit landed after the fixed part (a trailing space in a path), or when the typo turned
        // the line into a hunk or content line (a leading space, `+` or `-`), which the grammar reads as such.
        const harmless = typo.startsWith(line) || /^[ +-]/.test(typo);
        expect(harmless, `accepted typo ${JSON.stringify(typo)}`).toBe(true);
        continue;
      }
      expect(accepts(result.code, typo), `${JSON.stringify(typo)} gave ${result.code}`).toBe(true);
      expect(validateWriteFileArgs({ patch: text })).toBe(result.code);
    }
  });
});

describe("adversarial patches: mixed line endings", () => {
  const lines = [
    "*** Begin Patch",
    "*** Add File: a",
    "+one",
    "+",
    "*** Update File: b",
    "*** Move to: c",
    "@@",
    " ctx",
    "-old",
    "+new",
    "*** End of File",
    "*** Delete File: d",
    "*** End Patch",
  ];

  it("any mix of LF and CRLF parses exactly like LF", () => {
    const reference = JSON.stringify(parsePatch(lines.join("\n"), { cwd: "/r" }));
    for (let mask = 0; mask < 1 << 12; mask += 5) {
      const text = lines
        .map((line, i) => line + (i === lines.length - 1 ? "" : mask & (1 << i) ? "\r\n" : "\n"))
        .join("");
      tried++;
      expect(JSON.stringify(parsePatch(text, { cwd: "/r" }))).toBe(reference);
    }
  });

  it.each([
    ["a lone CR as the only separator", lines.join("\r"), "patch_invalid_envelope"],
    ["LF CR between lines", lines.join("\n\r"), "patch_invalid_envelope"],
    ["LF CR inside the body", `${lines.slice(0, -1).join("\n\r")}\n*** End Patch`, "patch_invalid_header"],
    [
      "CR CR LF after a header",
      lines.join("\n").replace("*** Add File: a\n", "*** Add File: a\r\r\n"),
      "patch_invalid_header",
    ],
    [
      "a CR inside a header",
      lines.join("\n").replace("*** Add File: a", "*** Add File: a\rb"),
      "patch_invalid_header",
    ],
    [
      "U+2028 in a header",
      lines.join("\n").replace("*** Add File: a", "*** Add File: a\u2028b"),
      "patch_invalid_header",
    ],
    [
      "U+2029 in a header",
      lines.join("\n").replace("*** Delete File: d", "*** Delete File: d\u2029"),
      "patch_invalid_header",
    ],
    [
      "a CR inside a Move destination",
      lines.join("\n").replace("*** Move to: c", "*** Move to: c\rx"),
      "patch_invalid_path",
    ],
    ["two trailing newlines", `${lines.join("\n")}\n\n`, "patch_invalid_envelope"],
    ["two trailing CRLFs", `${lines.join("\r\n")}\r\n\r\n`, "patch_invalid_envelope"],
    ["a blank line inside a hunk", lines.join("\n").replace(" ctx", " ctx\n"), "patch_invalid_header"],
    [
      "a blank CRLF line between sections",
      lines.join("\n").replace("*** Delete File: d", "\r\n*** Delete File: d"),
      "patch_invalid_header",
    ],
  ])("%s", (_name, text, code) => {
    tried++;
    expect(outcome(text, "/r")).toEqual({ ok: false, code });
  });

  it("a CR kept at the end of a content line is content (one CR is removed per line)", () => {
    expect(parsePatch(patch("*** Add File: a", "+x\r"), { cwd: "/r" })[0]?.added).toEqual(["x"]);
    expect(parsePatch(patch("*** Add File: a", "+x\r\r"), { cwd: "/r" })[0]?.added).toEqual(["x\r"]);
  });
});

describe("adversarial patches: the 1 MiB boundary", () => {
  /** A valid patch of exactly `bytes` UTF-8 bytes, its one content line made of `unit` (ASCII fills the rest). */
  function sized(bytes: number, unit: string): string {
    const frame = Buffer.byteLength(patch("*** Add File: a", "+"));
    const room = bytes - frame;
    const unitBytes = Buffer.byteLength(unit);
    const units = Math.floor(room / unitBytes);
    const text = patch("*** Add File: a", `+${"a".repeat(room - units * unitBytes)}${unit.repeat(units)}`);
    return text;
  }

  it.each(["a", "é", "€", "😀", "\ud800"])(
    "exactly 1,048,576 bytes of %j is accepted, one more byte is not",
    (unit) => {
      const at = sized(MAX_PATCH_BYTES, unit);
      expect(Buffer.byteLength(at)).toBe(MAX_PATCH_BYTES);
      expect(outcome(at, "/r").ok).toBe(true);
      const over = at.replace("+", "+a");
      expect(Buffer.byteLength(over)).toBe(MAX_PATCH_BYTES + 1);
      expect(outcome(over, "/r")).toEqual({ ok: false, code: "patch_invalid_size_or_binary" });
      expect(validateWriteFileArgs({ patch: over })).toBe("patch_invalid_size_or_binary");
      tried += 2;
    },
  );

  it("a multi-byte character straddling the limit is refused (bytes, not characters)", () => {
    const at = sized(MAX_PATCH_BYTES - 1, "a");
    const straddle = at.replace("+", "+é");
    expect(straddle.length).toBeLessThanOrEqual(MAX_PATCH_BYTES);
    expect(Buffer.byteLength(straddle)).toBe(MAX_PATCH_BYTES + 1);
    expect(outcome(straddle, "/r")).toEqual({ ok: false, code: "patch_invalid_size_or_binary" });
    // UTF-16 length well under the limit, UTF-8 length over it.
    const wide = patch("*** Add File: a", `+${"€".repeat(400_000)}`);
    expect(wide.length).toBeLessThan(MAX_PATCH_BYTES / 2);
    expect(outcome(wide, "/r")).toEqual({ ok: false, code: "patch_invalid_size_or_binary" });
    tried += 2;
  });

  it("a NUL anywhere, also at the very end or past the limit, is refused", () => {
    for (const text of [
      `\u0000${patch("*** Delete File: a")}`,
      patch("*** Delete File: a\u0000"),
      `${patch("*** Delete File: a")}\u0000`,
      `${sized(MAX_PATCH_BYTES - 1, "a")}\u0000`,
      `${sized(MAX_PATCH_BYTES, "a")}\u0000`,
    ]) {
      tried++;
      expect(outcome(text, "/r")).toEqual({ ok: false, code: "patch_invalid_size_or_binary" });
    }
  });

  it("non-strings are refused", () => {
    for (const value of [
      undefined,
      null,
      1,
      {},
      [],
      Buffer.from(patch("*** Delete File: a")),
      new String("x"),
    ]) {
      tried++;
      expect(outcome(value, "/r")).toEqual({ ok: false, code: "patch_invalid_size_or_binary" });
    }
  });

  it("a 1 MiB patch of 260,000 one-character lines parses in linear time and never throws", () => {
    const text = `*** Begin Patch\n*** Add File: a\n${"+x\n".repeat(260_000)}*** End Patch`;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_PATCH_BYTES);
    expect(parsePatch(text, { cwd: "/r" })[0]?.added).toHaveLength(260_000);
    tried++;
  });
});

describe("adversarial patches: 64 and 65 targets", () => {
  const deletes = (n: number) => Array.from({ length: n }, (_, i) => `*** Delete File: f${i}`);
  const moves = (n: number) =>
    Array.from({ length: n }, (_, i) => [`*** Update File: s${i}`, `*** Move to: d${i}`, "@@", " x"]).flat();

  it.each([undefined, "/r"])(
    "cwd %s: 64 targets pass, the 65th fails, sources and destinations both count",
    (cwd) => {
      expect(outcome(patch(...deletes(MAX_PATCH_TARGETS)), cwd).ok).toBe(true);
      expect(outcome(patch(...deletes(MAX_PATCH_TARGETS + 1)), cwd)).toEqual({
        ok: false,
        code: "patch_too_many_paths",
      });
      expect(outcome(patch(...moves(32)), cwd).ok).toBe(true);
      expect(outcome(patch(...moves(32), "*** Delete File: extra"), cwd)).toEqual({
        ok: false,
        code: "patch_too_many_paths",
      });
      // The 65th target is counted even when it is an invalid or repeated path further on.
      expect(outcome(patch(...deletes(64), "*** Delete File: f0"), cwd)).toEqual({
        ok: false,
        code: "patch_too_many_paths",
      });
      tried += 5;
    },
  );

  it("65 targets give the same code through validateArgs and describeEffects", () => {
    const text = patch(...deletes(65));
    expect(validateWriteFileArgs({ patch: text })).toBe("patch_too_many_paths");
    expect(() => describeWriteFileEffects({ patch: text }, { cwd: "/r" })).toThrow("patch_too_many_paths");
    tried += 2;
  });
});

describe("adversarial patches: paths climbing above / and aliases", () => {
  it.each([
    ["../../../../../../etc/passwd", "/etc/passwd"],
    ["/../../../etc/shadow", "/etc/shadow"],
    [`${"../".repeat(1000)}x`, "/x"],
    ["..", "/r"],
    ["a/../../../../b", "/b"],
    ["./../p/./a", "/r/p/a"],
    ["../../../..", "/"],
    ["~/x", "/r/p/~/x"],
    ["a\\..\\..\\b", "/r/p/a\\..\\..\\b"],
    ["//etc//passwd", "/etc/passwd"],
  ])("%s is the lexical path %s in the effects", (raw, expected) => {
    const effects = describeWriteFileEffects({ patch: patch(`*** Delete File: ${raw}`) }, { cwd: "/r/p" });
    expect(effects).toEqual({ files: [{ path: expected, operation: "delete" }] });
    expect(validateWriteFileArgs({ patch: patch(`*** Delete File: ${raw}`) })).toBeUndefined();
    tried++;
  });

  it.each([
    ["a", "a/"],
    ["a", "./a"],
    ["a", "a/."],
    ["a", "./a/"],
    ["a/b", "a//b"],
    ["a/b", "a/./b"],
    ["a", "a/b/.."],
    ["a", "../p/a"],
    ["a", "/r/p/a"],
    ["/x", "../../x"],
    ["/x", `${"../".repeat(50)}x`],
  ])(
    "%s and %s are one target: repeated in resolved mode, distinct only in syntax-only mode",
    (first, second) => {
      const text = patch(`*** Delete File: ${first}`, `*** Add File: ${second}`, "+x");
      expect(outcome(text, "/r/p")).toEqual({ ok: false, code: "patch_repeated_target" });
      expect(() => describeWriteFileEffects({ patch: text }, { cwd: "/r/p" })).toThrow(
        "patch_repeated_target",
      );
      const move = patch(`*** Update File: ${first}`, `*** Move to: ${second}`, "@@", " x");
      expect(outcome(move, "/r/p")).toEqual({ ok: false, code: "patch_repeated_target" });
      expect(validateWriteFileArgs({ patch: text })).toBe(
        outcome(text).ok ? undefined : "patch_repeated_target",
      );
      tried += 3;
    },
  );

  it.each([
    ["dir", "dir/file"],
    ["dir/", "./dir/sub/file"],
    ["a/b/c", "a/b"],
    ["..", "x"],
  ])("%s and %s conflict (one is an ancestor of the other)", (first, second) => {
    const text = patch(`*** Delete File: ${first}`, `*** Delete File: ${second}`);
    const cwd = first === ".." ? "/r" : "/r/p";
    const result = outcome(text, cwd);
    if (first === "..") {
      // `..` at /r is `/`; by the spec's textual rule ("the other followed by `/` and more") `/` and `/x` do not
      // conflict, since `/` followed by `/` is `//`. The handler refuses `/` itself (not a regular file).
      expect(result).toEqual({ ok: true, paths: ["/", "/r/x"] });
    } else {
      expect(result).toEqual({ ok: false, code: "patch_conflicting_targets" });
    }
    expect(outcome(text).ok).toBe(true);
    tried += 2;
  });

  it("dir and dir2 do not conflict; paths are compared after normalization only", () => {
    expect(outcome(patch("*** Delete File: dir", "*** Delete File: dir2"), "/r").ok).toBe(true);
    expect(outcome(patch("*** Delete File: a b", "*** Delete File: a"), "/r").ok).toBe(true);
    tried += 2;
  });
});

describe("adversarial patches: totals", () => {
  it("tried more than a thousand hostile patches", () => {
    expect(tried).toBeGreaterThan(1000);
    expect(safeParsePatch(patch("*** Delete File: a")).ok).toBe(true);
  });
});
