import { deepFreeze } from "@raw/schema";
import Type, { type Static } from "typebox";

/** The operations a `files` effect can name (effects.md §6.4). */
export const FILE_OPERATIONS = Object.freeze([
  "write",
  "delete",
  "rename_source",
  "rename_destination",
] as const);

/** Most effects one `files` value may list (effects.md §6.4). */
export const MAX_FILE_EFFECTS = 128;

/** The `files` effects schema of the reference `write_file` tool (effects.md §6.4), as TypeBox. */
export const FilesEffectsSchema = Type.Object(
  {
    files: Type.Array(
      Type.Object(
        {
          path: Type.String(),
          operation: Type.Enum([...FILE_OPERATIONS], { type: "string" }),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_FILE_EFFECTS },
    ),
  },
  { additionalProperties: false },
);

/** The `files` effects value: `{ files: FileEffect[] }`. */
export type FilesEffects = Static<typeof FilesEffectsSchema>;

/** One intended file change: an absolute, lexically normalized `path` and its `operation`. */
export type FileEffect = FilesEffects["files"][number];

/** The operation of a `FileEffect`. */
export type FileOperation = FileEffect["operation"];

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
