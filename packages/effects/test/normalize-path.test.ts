import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizePath } from "../src/index.js";

describe("normalizePath (§5)", () => {
  it.each([
    // the spec's examples
    ["/repo/project", "../a", "/repo/a"],
    ["/w", "./a//b/../c", "/w/a/c"],
    ["/w", "/abs/./x/../y/", "/abs/y"],
    ["/w", "..", "/"],
    ["/w", "~/x", "/w/~/x"],
    // the rules
    ["/w", "", "/w"],
    ["/w", ".", "/w"],
    ["/w", "a/", "/w/a"],
    ["/w", "a//b///c", "/w/a/b/c"],
    ["/w", "../../../..", "/"],
    ["/w", "/../a", "/a"],
    ["/w", "//a", "/a"],
    ["/w", "///", "/"],
    ["/w", "a\\b", "/w/a\\b"],
    ["/w", "...", "/w/..."],
    ["/w", ".a/..b/a.", "/w/.a/..b/a."],
    ["/w", " a / b ", "/w/ a / b "],
    ["/", "a", "/a"],
    ["/", "..", "/"],
    ["/a/b/", "c", "/a/b/c"],
    ["/a/./b/../", "c", "/a/c"],
    ["//a//", "..", "/"],
  ])("(%j, %j) → %j", (cwd, path, expected) => {
    expect(normalizePath(cwd, path)).toBe(expected);
    expect(posix.resolve(cwd, path)).toBe(expected);
  });

  it.each([
    ["relative cwd", "w", "a"],
    ["empty cwd", "", "a"],
    ["cwd ./w", "./w", "/abs"],
    ["non-string cwd", 1, "a"],
    ["undefined cwd", undefined, "a"],
    ["non-string path", "/w", 5],
    ["null path", "/w", null],
  ])("throws a TypeError for a %s", (_name, cwd, path) => {
    expect(() => normalizePath(cwd as string, path as string)).toThrow(TypeError);
  });

  it("names the offending cwd", () => {
    expect(() => normalizePath("w", "a")).toThrow('cwd must be an absolute path: "w"');
  });
});

describe("normalizePath properties", () => {
  const segment = fc.constantFrom("a", "b", "~", ".", "..", "...", "", " ", "\\", ".a", "é", "a b");
  const relative = fc.array(segment, { maxLength: 8 }).map((parts) => parts.join("/"));
  const anyPath = fc.oneof(
    relative,
    relative.map((p) => `/${p}`),
    fc.string({ unit: "binary", maxLength: 12 }),
  );
  const cwd = relative.map((p) => `/${p}`);

  it("equals path.posix.resolve, is absolute, idempotent and free of . / .. / empty segments", () => {
    fc.assert(
      fc.property(cwd, anyPath, (base, path) => {
        const out = normalizePath(base, path);
        expect(out).toBe(posix.resolve(base, path));
        expect(out.startsWith("/")).toBe(true);
        expect(normalizePath("/elsewhere", out)).toBe(out);
        expect(normalizePath(out, ".")).toBe(out);
        if (out !== "/") {
          for (const part of out.slice(1).split("/")) expect(["", ".", ".."]).not.toContain(part);
        }
      }),
      { seed: 20_240_517, numRuns: 2000 },
    );
  });
});
