import { deepFreeze } from "@raw/schema";

/** The modes of a `write_file` operation (effects.md §6.1). */
export const WRITE_FILE_MODES = Object.freeze([
  "overwrite",
  "append",
  "replace_text",
  "replace_lines",
] as const);

/** A `write_file` operation mode. */
export type WriteFileMode = (typeof WRITE_FILE_MODES)[number];

/** Most operations one `write_file` call may carry (effects.md §6.1). */
export const MAX_WRITE_OPERATIONS = 16;

/**
 * The input schema of the reference `write_file` tool (effects.md §6.1) as a plain, frozen JSON object: exactly
 * one of `operations` (1–16 items) and `patch`. It compiles under the strict object-schema rules of tool-api.md §3.
 */
export const WRITE_FILE_INPUT_SCHEMA: Readonly<Record<string, unknown>> = deepFreeze({
  type: "object",
  additionalProperties: false,
  properties: {
    operations: {
      type: "array",
      minItems: 1,
      maxItems: MAX_WRITE_OPERATIONS,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "mode"],
        properties: {
          path: { type: "string" },
          mode: { type: "string", enum: [...WRITE_FILE_MODES] },
          content: { type: "string" },
          old_text: { type: "string" },
          new_text: { type: "string" },
          start_line: { type: "integer", minimum: 1 },
          end_line: { type: "integer", minimum: 1 },
          expected_sha256: { type: "string" },
        },
      },
    },
    patch: { type: "string" },
  },
  oneOf: [
    { properties: { operations: {} }, required: ["operations"] },
    { properties: { patch: {} }, required: ["patch"] },
  ],
});
