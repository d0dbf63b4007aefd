export {
  type ApplyHunksCode,
  type ApplyHunksResult,
  addedContent,
  applyHunks,
  createMatchingBudget,
  type MatchingBudget,
} from "./apply-hunks.js";
export { type DescribeEffectsContext, describeWriteFileEffects } from "./describe-write-file-effects.js";
export {
  FILE_OPERATIONS,
  FILES_EFFECTS_SCHEMA,
  type FileEffect,
  type FileOperation,
  type FilesEffects,
  FilesEffectsSchema,
  MAX_FILE_EFFECTS,
} from "./files-effects.js";
export {
  MAX_EFFECTS_BYTES,
  MAX_MATCHING_VISITS,
  MAX_PATCH_BYTES,
  MAX_PATCH_TARGETS,
  MAX_SOURCE_BYTES,
  MAX_STAGED_BYTES,
  MAX_STAGED_LINES,
} from "./limits.js";
export { normalizePath } from "./normalize-path.js";
export {
  type ParsedPatch,
  type ParsePatchOptions,
  type PatchChange,
  type PatchChangeKind,
  type PatchHunk,
  type PatchLine,
  type PatchLineKind,
  parsePatch,
  type SafeParsePatchResult,
  safeParsePatch,
} from "./parse-patch.js";
export { PATCH_CODES, type PatchCode, PatchError } from "./patch-error.js";
export { MAX_PATCH_HINT_EXCERPT, patchHint } from "./patch-hints.js";
export {
  type EffectsDescriptor,
  type EffectsValidator,
  type PrepareEffectsCode,
  type PrepareEffectsInput,
  type PrepareEffectsResult,
  prepareEffects,
} from "./prepare-effects.js";
export { validateWriteFileArgs } from "./validate-write-file-args.js";
export { writeFileArgsHint } from "./write-file-args-hint.js";
export {
  MAX_WRITE_OPERATIONS,
  WRITE_FILE_INPUT_SCHEMA,
  WRITE_FILE_MODES,
  type WriteFileMode,
} from "./write-file-input.js";
