import { expect, it } from "vitest";
import * as api from "../src/index.js";

it("pins the public export names", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "FILES_EFFECTS_SCHEMA",
      "FILE_OPERATIONS",
      "FilesEffectsSchema",
      "MAX_EFFECTS_BYTES",
      "MAX_FILE_EFFECTS",
      "MAX_MATCHING_VISITS",
      "MAX_PATCH_BYTES",
      "MAX_PATCH_HINT_EXCERPT",
      "MAX_PATCH_TARGETS",
      "MAX_SOURCE_BYTES",
      "MAX_STAGED_BYTES",
      "MAX_STAGED_LINES",
      "MAX_WRITE_OPERATIONS",
      "PATCH_CODES",
      "PatchError",
      "WRITE_FILE_INPUT_SCHEMA",
      "WRITE_FILE_MODES",
      "addedContent",
      "applyHunks",
      "createMatchingBudget",
      "describeWriteFileEffects",
      "normalizePath",
      "parsePatch",
      "patchHint",
      "prepareEffects",
      "safeParsePatch",
      "validateWriteFileArgs",
      "writeFileArgsHint",
    ]
  `);
});
