import { deepFreeze } from "@raw/schema";
import committed from "../schemas/files-effects.schema.json" with { type: "json" };

/** The operations a `files` effect can name (effects.md §6.4). */
export const FILE_OPERATIONS = Object.freeze([
  "write",
  "delete",
  "rename_source",
  "rename_destination",
] as const);

/** Most effects one `files` value may list (effects.md §6.4). */
export const MAX_FILE_EFFECTS = 128;

const { $schema: _dialect, $id: _id, ...schema } = committed;

/**
 * The `files` effects schema of the reference `write_file` tool (effects.md §6.4) as a plain JSON Schema (2020-12)
 * object: the committed `schemas/files-effects.schema.json` without `$schema` and `$id`, generated at build time from
 * its TypeBox source (`test/schema-source.ts`; a test fails on drift), so TypeBox is not needed at run time.
 */
export const FilesEffectsSchema = schema;

/** The operation of a `FileEffect`. */
export type FileOperation = (typeof FILE_OPERATIONS)[number];

/** One intended file change: an absolute, lexically normalized `path` and its `operation`. */
export type FileEffect = { path: string; operation: FileOperation };

/** The `files` effects value: `{ files: FileEffect[] }`. */
export type FilesEffects = { files: FileEffect[] };

/** The §6.4 `files` effects schema as a plain, frozen JSON object (what `write_file`'s `effects_schema` holds). */
export const FILES_EFFECTS_SCHEMA: Readonly<Record<string, unknown>> = deepFreeze({
  type: "object",
  additionalProperties: false,
  required: ["files"],
  properties: {
    files: {
      type: "array",
      maxItems: MAX_FILE_EFFECTS,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "operation"],
        properties: {
          path: { type: "string" },
          operation: { type: "string", enum: [...FILE_OPERATIONS] },
        },
      },
    },
  },
});
