import { compileObjectSchema, validateWith } from "@raw/schema";
import { describe, expect, it } from "vitest";
import {
  describeWriteFileEffects,
  FILES_EFFECTS_SCHEMA,
  FilesEffectsSchema,
  PatchError,
  prepareEffects,
  WRITE_FILE_INPUT_SCHEMA,
} from "../src/index.js";

const P = (...body: string[]): string => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");
const effectsValidator = compileObjectSchema(FILES_EFFECTS_SCHEMA, { name: "effects of write_file" });

describe("describeWriteFileEffects: operations (§6.2)", () => {
  it("normalizes every path and gives one write per unique path, in first-seen order", () => {
    const args = {
      operations: [
        { path: "b.txt", mode: "overwrite", content: "x" },
        { path: "./a//c/../a.txt", mode: "append", content: "y" },
        { path: "/r/b.txt", mode: "replace_text", old_text: "x", new_text: "z" },
        {
          path: "../r/a.txt",
          mode: "replace_lines",
          start_line: 1,
          end_line: 1,
          content: "",
          expected_sha256: "0",
        },
        { path: "~/x", mode: "overwrite", content: "" },
      ],
    };
    expect(describeWriteFileEffects(args, { cwd: "/r" })).toEqual({
      files: [
        { path: "/r/b.txt", operation: "write" },
        { path: "/r/a/a.txt", operation: "write" },
        { path: "/r/a.txt", operation: "write" },
        { path: "/r/~/x", operation: "write" },
      ],
    });
  });

  it("reads only path", () => {
    expect(describeWriteFileEffects({ operations: [{ path: "a" }] }, { cwd: "/" })).toEqual({
      files: [{ path: "/a", operation: "write" }],
    });
  });
});

describe("describeWriteFileEffects: patch (§6.3)", () => {
  it("gives the effects of the §7.8 example", () => {
    const patch = P(
      "*** Add File: nested/new",
      "+héllo",
      "*** Update File: old",
      "*** Move to: moved",
      "@@",
      "-before",
      "+after",
      "*** Delete File: remove",
    );
    const effects = describeWriteFileEffects({ patch }, { cwd: "/r" });
    expect(JSON.stringify(effects)).toBe(
      '{"files":[{"path":"/r/nested/new","operation":"write"},{"path":"/r/old","operation":"rename_source"},{"path":"/r/moved","operation":"rename_destination"},{"path":"/r/remove","operation":"delete"}]}',
    );
  });

  it("an Update without a move is a write", () => {
    expect(describeWriteFileEffects({ patch: P("*** Update File: a", "@@", " x") }, { cwd: "/r" })).toEqual({
      files: [{ path: "/r/a", operation: "write" }],
    });
  });

  it("the ../a and /a example: two effects at /repo/project, patch_repeated_target at /repo", () => {
    const patch = P("*** Add File: ../a", "*** Add File: /a");
    expect(describeWriteFileEffects({ patch }, { cwd: "/repo/project" })).toEqual({
      files: [
        { path: "/repo/a", operation: "write" },
        { path: "/a", operation: "write" },
      ],
    });
    expect(() => describeWriteFileEffects({ patch }, { cwd: "/repo" })).toThrow(
      new PatchError("patch_repeated_target"),
    );
  });

  it.each([
    [P("*** Add File: a", "*** Delete File: ./a"), "patch_repeated_target"],
    [P("*** Delete File: dir", "*** Add File: dir/file"), "patch_conflicting_targets"],
    [P("*** Add File:a"), "patch_invalid_header"],
    ["garbage", "patch_invalid_envelope"],
  ])("a parse error surfaces through prepareEffects as cannot describe write_file: <code>", (patch, code) => {
    expect(() => describeWriteFileEffects({ patch }, { cwd: "/r" })).toThrow(PatchError);
    expect(
      prepareEffects({
        toolName: "write_file",
        describeEffects: describeWriteFileEffects,
        arguments: Object.freeze({ patch }),
        cwd: "/r",
        validate: effectsValidator,
      }),
    ).toEqual({ ok: false, code: "effects_error", message: `cannot describe write_file: ${code}` });
  });

  it("passes the whole preparation step for both forms", () => {
    for (const args of [
      { operations: [{ path: "a", mode: "overwrite", content: "" }] },
      { patch: P("*** Delete File: a") },
    ]) {
      const result = prepareEffects({
        toolName: "write_file",
        describeEffects: describeWriteFileEffects,
        arguments: Object.freeze(args),
        cwd: "/r",
        validate: effectsValidator,
      });
      expect(result.ok).toBe(true);
    }
  });

  it("refuses arguments with neither form", () => {
    expect(() => describeWriteFileEffects({}, { cwd: "/r" })).toThrow(TypeError);
  });
});

describe("FilesEffectsSchema and FILES_EFFECTS_SCHEMA (§6.4)", () => {
  it("are the same schema", () => {
    expect(JSON.parse(JSON.stringify(FilesEffectsSchema))).toEqual(FILES_EFFECTS_SCHEMA);
  });

  it("is exactly the spec's schema", () => {
    expect(FILES_EFFECTS_SCHEMA).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["files"],
      properties: {
        files: {
          type: "array",
          maxItems: 128,
          items: {
            type: "object",
            additionalProperties: false,
            required: ["path", "operation"],
            properties: {
              path: { type: "string" },
              operation: { type: "string", enum: ["write", "delete", "rename_source", "rename_destination"] },
            },
          },
        },
      },
    });
    expect(Object.isFrozen(FILES_EFFECTS_SCHEMA)).toBe(true);
  });

  const cases: [string, unknown, boolean][] = [
    ["no files", { files: [] }, true],
    [
      "each operation",
      {
        files: ["write", "delete", "rename_source", "rename_destination"].map((operation) => ({
          path: "/a",
          operation,
        })),
      },
      true,
    ],
    ["128 files", { files: Array.from({ length: 128 }, () => ({ path: "/a", operation: "write" })) }, true],
    ["129 files", { files: Array.from({ length: 129 }, () => ({ path: "/a", operation: "write" })) }, false],
    ["an unknown operation", { files: [{ path: "/a", operation: "move" }] }, false],
    ["a missing operation", { files: [{ path: "/a" }] }, false],
    ["an extra member", { files: [{ path: "/a", operation: "write", mode: 1 }] }, false],
    ["a numeric path", { files: [{ path: 1, operation: "write" }] }, false],
    ["a root extra", { files: [], x: 1 }, false],
    ["no files member", {}, false],
  ];
  it.each(cases)("TypeBox and the strict compiled schema agree on %s", (_name, value, valid) => {
    expect(effectsValidator.test(value)).toBe(valid);
    expect(validateWith(FilesEffectsSchema, value).length === 0).toBe(valid);
  });
});

describe("WRITE_FILE_INPUT_SCHEMA (§6.1)", () => {
  const input = compileObjectSchema(WRITE_FILE_INPUT_SCHEMA, { name: "arguments of write_file" });
  const op = { path: "a", mode: "overwrite", content: "" };

  it("compiles under the strict object-schema rules", () => {
    expect(input.dialect).toBe("2020-12");
    expect(Object.isFrozen(WRITE_FILE_INPUT_SCHEMA)).toBe(true);
  });

  it.each([
    ["operations", { operations: [op] }, true],
    ["patch", { patch: "anything" }, true],
    ["16 operations", { operations: Array.from({ length: 16 }, () => op) }, true],
    [
      "every optional field",
      {
        operations: [{ ...op, old_text: "", new_text: "", start_line: 1, end_line: 2, expected_sha256: "" }],
      },
      true,
    ],
    ["both", { operations: [op], patch: "" }, false],
    ["neither", {}, false],
    ["an unknown root key", { patch: "", extra: 1 }, false],
    ["0 operations", { operations: [] }, false],
    ["17 operations", { operations: Array.from({ length: 17 }, () => op) }, false],
    ["an unknown operation key", { operations: [{ ...op, other: 1 }] }, false],
    ["a missing mode", { operations: [{ path: "a" }] }, false],
    ["an unknown mode", { operations: [{ path: "a", mode: "delete" }] }, false],
    ["start_line 0", { operations: [{ ...op, start_line: 0 }] }, false],
    ["a fractional end_line", { operations: [{ ...op, end_line: 1.5 }] }, false],
    ["a non-string patch", { patch: 1 }, false],
  ])("%s → %s", (_name, value, valid) => {
    expect(input.validate(value).length === 0).toBe(valid);
  });
});
