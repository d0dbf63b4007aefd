import Type, { type Static } from "typebox";
import { FILE_OPERATIONS, MAX_FILE_EFFECTS } from "../src/files-effects.js";

// The TypeBox source of the committed JSON Schema. It is used at build time only (by test/schemas.test.ts, which
// writes schemas/*.schema.json with `npm run schemas` and fails when they drift); the package ships the JSON.

/** The `files` effects schema of the reference `write_file` tool (effects.md §6.4), as TypeBox. */
export const FilesEffectsSchemaSource = Type.Object(
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

/** The static type TypeBox derives from the source; `FilesEffects` must equal it. */
export type FilesEffectsSource = Static<typeof FilesEffectsSchemaSource>;
