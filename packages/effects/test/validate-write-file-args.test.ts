import { describe, expect, it } from "vitest";
import { validateWriteFileArgs } from "../src/index.js";

const P = (...body: string[]): string => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");
const SHA = "a".repeat(64);
const ow = { path: "a", mode: "overwrite", content: "x" };
const rt = { path: "a", mode: "replace_text", old_text: "x", new_text: "y" };
const rl = {
  path: "a",
  mode: "replace_lines",
  start_line: 1,
  end_line: 2,
  content: "x",
  expected_sha256: SHA,
};
const HINT = '; use {"operations":[{"path":"...","mode":"overwrite","content":"..."}]}';

describe("validateWriteFileArgs (§9)", () => {
  it.each<[string, unknown, string | undefined]>([
    // valid
    ["an overwrite", { operations: [ow] }, undefined],
    ["an append", { operations: [{ ...ow, mode: "append" }] }, undefined],
    ["a replace_text", { operations: [rt] }, undefined],
    ["a replace_text with empty new_text", { operations: [{ ...rt, new_text: "" }] }, undefined],
    ["a replace_lines", { operations: [rl] }, undefined],
    [
      "a replace_lines with start = end = 2147483647",
      { operations: [{ ...rl, start_line: 2147483647, end_line: 2147483647 }] },
      undefined,
    ],
    ["16 operations", { operations: Array.from({ length: 16 }, () => ow) }, undefined],
    ["a valid patch", { patch: P("*** Delete File: a") }, undefined],
    [
      "a patch with repeats (syntax-only mode)",
      { patch: P("*** Add File: ../a", "*** Add File: /a") },
      undefined,
    ],
    ["an empty content", { operations: [{ ...ow, content: "" }] }, undefined],

    // 1
    ["null", null, "arguments must be an object"],
    ["an array", [ow], "arguments must be an object"],
    ["a string", "{}", "arguments must be an object"],
    ["a number", 1, "arguments must be an object"],
    ["undefined", undefined, "arguments must be an object"],
    ["a class instance", new (class X {})(), "arguments must be an object"],

    // 2
    ["an unknown key", { operations: [ow], mode: "x" }, `unknown write_file property "mode"${HINT}`],
    ["the first unknown key", { b: 1, a: 2 }, `unknown write_file property "b"${HINT}`],
    ["a key needing JSON escapes", { 'pa"th\n': 1 }, `unknown write_file property "pa\\"th\\n"${HINT}`],
    ["an unknown key before a missing form", { path: "a" }, `unknown write_file property "path"${HINT}`],

    // 3
    ["neither form", {}, "provide exactly one of operations or patch"],
    ["both forms", { operations: [ow], patch: "" }, "provide exactly one of operations or patch"],

    // 4
    ["a numeric patch", { patch: 1 }, "patch must be a string"],
    ["a null patch", { patch: null }, "patch must be a string"],

    // 5
    ["a patch without envelope", { patch: "x" }, "patch_invalid_envelope"],
    ["an empty patch", { patch: P() }, "patch_empty"],
    ["a bad header", { patch: P("*** Add File:a") }, "patch_invalid_header"],
    ["a bad path", { patch: P("*** Add File:  a") }, "patch_invalid_path"],
    ["a NUL", { patch: "\u0000" }, "patch_invalid_size_or_binary"],
    [
      "65 targets",
      { patch: P(...Array.from({ length: 65 }, (_, i) => `*** Delete File: f${i}`)) },
      "patch_too_many_paths",
    ],

    // 6
    ["no operations", { operations: [] }, "operations must contain 1 to 16 entries"],
    [
      "17 operations",
      { operations: Array.from({ length: 17 }, () => ow) },
      "operations must contain 1 to 16 entries",
    ],
    ["operations as an object", { operations: { 0: ow } }, "operations must contain 1 to 16 entries"],
    ["operations null", { operations: null }, "operations must contain 1 to 16 entries"],

    // 7
    ["a null operation", { operations: [null] }, "operations[0] must be an object"],
    ["an array operation", { operations: [ow, []] }, "operations[1] must be an object"],
    ["a string operation", { operations: ["a"] }, "operations[0] must be an object"],

    // 8
    [
      "a missing path",
      { operations: [{ mode: "overwrite", content: "" }] },
      "operations[0].path must be a nonempty string",
    ],
    ["an empty path", { operations: [{ ...ow, path: "" }] }, "operations[0].path must be a nonempty string"],
    [
      "a numeric path",
      { operations: [ow, { ...ow, path: 1 }] },
      "operations[1].path must be a nonempty string",
    ],

    // 9
    ["a missing mode", { operations: [{ path: "a" }] }, "operations[0].mode is invalid"],
    ["an unknown mode", { operations: [{ ...ow, mode: "delete" }] }, "operations[0].mode is invalid"],
    [
      "an inherited mode name",
      { operations: [{ ...ow, mode: "toString" }] },
      "operations[0].mode is invalid",
    ],
    [
      "a mode in the wrong case",
      { operations: [{ ...ow, mode: "Overwrite" }] },
      "operations[0].mode is invalid",
    ],

    // 10
    [
      "old_text on an overwrite",
      { operations: [{ ...ow, old_text: "x" }] },
      "operations[0] has an invalid field for overwrite",
    ],
    [
      "expected_sha256 on an append",
      { operations: [{ ...ow, mode: "append", expected_sha256: SHA }] },
      "operations[0] has an invalid field for append",
    ],
    [
      "content on a replace_text",
      { operations: [{ ...rt, content: "" }] },
      "operations[0] has an invalid field for replace_text",
    ],
    [
      "new_text on a replace_lines",
      { operations: [{ ...rl, new_text: "" }] },
      "operations[0] has an invalid field for replace_lines",
    ],
    [
      "an unknown field before a missing one",
      { operations: [{ path: "a", mode: "overwrite", x: 1 }] },
      "operations[0] has an invalid field for overwrite",
    ],

    // 11
    [
      "an overwrite without content",
      { operations: [{ path: "a", mode: "overwrite" }] },
      "operations[0] missing content",
    ],
    [
      "a replace_text without both texts",
      { operations: [{ path: "a", mode: "replace_text" }] },
      "operations[0] missing old_text",
    ],
    [
      "a replace_text without new_text",
      { operations: [{ path: "a", mode: "replace_text", old_text: "x" }] },
      "operations[0] missing new_text",
    ],
    [
      "a replace_lines without anything",
      { operations: [{ path: "a", mode: "replace_lines" }] },
      "operations[0] missing start_line",
    ],
    [
      "a replace_lines without end_line",
      { operations: [{ path: "a", mode: "replace_lines", start_line: 1 }] },
      "operations[0] missing end_line",
    ],
    [
      "a replace_lines without content",
      {
        operations: [{ path: "a", mode: "replace_lines", start_line: 1, end_line: 1, expected_sha256: SHA }],
      },
      "operations[0] missing content",
    ],
    [
      "a replace_lines without expected_sha256",
      { operations: [{ path: "a", mode: "replace_lines", start_line: 1, end_line: 1, content: "" }] },
      "operations[0] missing expected_sha256",
    ],

    // 12
    ["a numeric content", { operations: [{ ...ow, content: 1 }] }, "operations[0].content must be a string"],
    [
      "a null append content",
      { operations: [{ ...ow, mode: "append", content: null }] },
      "operations[0].content must be a string",
    ],
    [
      "a replace_lines content before its range",
      { operations: [{ ...rl, content: 1, start_line: 0 }] },
      "operations[0].content must be a string",
    ],

    // 13
    [
      "an empty old_text",
      { operations: [{ ...rt, old_text: "" }] },
      "operations[0] requires nonempty old_text and string new_text",
    ],
    [
      "a numeric old_text",
      { operations: [{ ...rt, old_text: 1 }] },
      "operations[0] requires nonempty old_text and string new_text",
    ],
    [
      "a null new_text",
      { operations: [{ ...rt, new_text: null }] },
      "operations[0] requires nonempty old_text and string new_text",
    ],

    // 14
    ["start_line 0", { operations: [{ ...rl, start_line: 0 }] }, "operations[0] has invalid line range"],
    [
      "start after end",
      { operations: [{ ...rl, start_line: 3, end_line: 2 }] },
      "operations[0] has invalid line range",
    ],
    [
      "end past 2147483647",
      { operations: [{ ...rl, end_line: 2147483648 }] },
      "operations[0] has invalid line range",
    ],
    [
      "a fractional start",
      { operations: [{ ...rl, start_line: 1.5 }] },
      "operations[0] has invalid line range",
    ],
    ["a string end", { operations: [{ ...rl, end_line: "2" }] }, "operations[0] has invalid line range"],
    [
      "an unsafe integer",
      { operations: [{ ...rl, end_line: 2 ** 53 }] },
      "operations[0] has invalid line range",
    ],
    [
      "a range before a bad hash",
      { operations: [{ ...rl, start_line: -1, expected_sha256: "x" }] },
      "operations[0] has invalid line range",
    ],

    // 15
    [
      "an uppercase hash",
      { operations: [{ ...rl, expected_sha256: "A".repeat(64) }] },
      "operations[0].expected_sha256 must be lowercase SHA-256",
    ],
    [
      "a short hash",
      { operations: [{ ...rl, expected_sha256: "a".repeat(63) }] },
      "operations[0].expected_sha256 must be lowercase SHA-256",
    ],
    [
      "a hash with a newline",
      { operations: [{ ...rl, expected_sha256: `${SHA}\n` }] },
      "operations[0].expected_sha256 must be lowercase SHA-256",
    ],
    [
      "a numeric hash",
      { operations: [{ ...rl, expected_sha256: 1 }] },
      "operations[0].expected_sha256 must be lowercase SHA-256",
    ],

    // operations are checked one at a time, in order
    [
      "the first failing operation wins",
      { operations: [ow, { ...ow, content: 1 }, null] },
      "operations[1].content must be a string",
    ],
  ])("%s", (_name, args, message) => {
    expect(validateWriteFileArgs(args)).toBe(message);
  });
});
