import { ContractError } from "@raw/schema";

/** Every code the patch parser can produce (effects.md §7.6). */
export type PatchCode =
  | "patch_invalid_size_or_binary"
  | "patch_invalid_envelope"
  | "patch_empty"
  | "patch_invalid_header"
  | "patch_invalid_path"
  | "patch_missing_hunk"
  | "patch_empty_hunk"
  | "patch_hunk_after_eof"
  | "patch_too_many_paths"
  | "patch_repeated_target"
  | "patch_conflicting_targets";

/** The codes of effects.md §7.6, in the order of its table. */
export const PATCH_CODES: readonly PatchCode[] = Object.freeze([
  "patch_invalid_size_or_binary",
  "patch_invalid_envelope",
  "patch_empty",
  "patch_invalid_header",
  "patch_invalid_path",
  "patch_missing_hunk",
  "patch_empty_hunk",
  "patch_hunk_after_eof",
  "patch_too_many_paths",
  "patch_repeated_target",
  "patch_conflicting_targets",
]);

/** A patch parse failure: a `ContractError` whose `code` is a `patch_*` code and whose `message` is that code. */
export class PatchError extends ContractError {
  declare readonly code: PatchCode;

  constructor(code: PatchCode) {
    super(code, code);
    this.name = "PatchError";
  }
}
