import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeApproval, MAX_APPROVAL_ARGUMENT_BYTES, MAX_APPROVAL_ARGUMENT_LINES } from "../src/index.js";

/** Code points amendment A1 never lets through raw. */
const FORBIDDEN =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

describe("describeApproval", () => {
  const cwd = "/work/project";

  it("puts the identity first, then every effect with its absolute normalized path, then the arguments", () => {
    const view = describeApproval(
      {
        identity: "builtin/write_file",
        arguments: { path: "src/a.ts" },
        effects: {
          files: [
            { path: "src/../src/a.ts", operation: "write" },
            { path: "/etc/passwd", operation: "write" },
          ],
        },
      },
      { cwd },
    );
    expect(view.lines[0]).toBe("approve builtin/write_file?");
    expect(view.lines[1]).toBe("intended effects:");
    expect(view.lines[2]).toBe("  write /work/project/src/a.ts");
    expect(view.lines[3]).toBe("  write /etc/passwd outside");
    expect(view.lines[4]).toBe("arguments:");
    expect(view.effects?.map((effect) => effect.outside)).toEqual([false, true]);
    expect(view.text).toBe(view.lines.join("\n"));
  });

  it("marks a sibling folder whose name starts with the working folder's as outside", () => {
    const view = describeApproval(
      {
        identity: "t",
        arguments: {},
        effects: { files: [{ path: "/work/project-evil/x", operation: "delete" }] },
      },
      { cwd },
    );
    expect(view.effects?.[0]?.line).toBe("delete /work/project-evil/x outside");
  });

  it("escapes bidi, C1, ESC and line breaks in identity, effect paths, operations and arguments", () => {
    const hostile = "a\u202eb\u009bc\u001b[2Jd\ne\u2066f";
    const view = describeApproval(
      {
        identity: `local/x${hostile}`,
        arguments: { text: hostile, [hostile]: 1 },
        effects: { files: [{ path: hostile, operation: `write${hostile}` }] },
      },
      { cwd },
    );
    for (const line of view.lines) expect(line).not.toMatch(FORBIDDEN);
    expect(view.text).not.toMatch(FORBIDDEN);
    expect(view.text).toContain("\\u202e");
    expect(view.text).toContain("\\x1b");
    expect(view.text).toContain("\\x9b");
    // One effect is exactly one line, however many line breaks its path holds.
    expect(view.lines.filter((line) => line.includes("a\\u202eb")).length).toBeGreaterThanOrEqual(2);
    expect(view.effects).toHaveLength(1);
  });

  it("never shortens an effect line, and shortens arguments with the stated remainder", () => {
    const long = "p/".repeat(5_000);
    const args = { data: "x".repeat(10_000) };
    const view = describeApproval(
      { identity: "t", arguments: args, effects: { files: [{ path: long, operation: "write" }] } },
      { cwd },
    );
    expect(view.effects?.[0]?.path.length).toBeGreaterThan(5_000);
    const total = Buffer.byteLength(JSON.stringify(args, null, 2));
    expect(view.argumentsOmittedBytes).toBe(total - MAX_APPROVAL_ARGUMENT_BYTES);
    expect(view.arguments).toMatch(/… [\d,]+ more bytes$/);
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    const lines = describeApproval({ identity: "t", arguments: many }, { cwd }).arguments.split("\n");
    expect(lines).toHaveLength(MAX_APPROVAL_ARGUMENT_LINES);
  });

  it("says when a tool declares no effects and when it declares none for this call", () => {
    expect(describeApproval({ identity: "t", arguments: {} }, { cwd }).lines[1]).toBe(
      "intended effects: none declared by this tool",
    );
    expect(describeApproval({ identity: "t", arguments: {}, effects: { files: [] } }, { cwd }).lines[1]).toBe(
      "intended effects: none",
    );
  });

  it("never lets a forbidden code point through, whatever the strings (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.string({ unit: "binary" }),
        fc.jsonValue(),
        (path, op, args) => {
          const view = describeApproval(
            { identity: op, arguments: args, effects: { files: [{ path, operation: op }] } },
            { cwd },
          );
          expect(view.text).not.toMatch(FORBIDDEN);
          // Every effect is one line of the view.
          expect(view.lines).toContain(`  ${view.effects?.[0]?.line}`);
        },
      ),
    );
  });
});
