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

/**
 * A patch parse failure: a `ContractError` whose `code` is a `patch_*` code and whose `message` is that code.
 * `offset` is where the offending line starts in the patch text, when the parser knows it; `hint` is one line a
 * model can act on (what to write instead, effects.md §7), present when the offending line shows what was meant
 * (`patchHint`). Both are guidance beside the contract: `code`, `message` and `issues` never depend on them, and
 * they are not enumerable (like `message`), so the error compares and serializes as before.
 */
export class PatchError extends ContractError {
  declare readonly code: PatchCode;
  declare readonly offset: number | undefined;
  declare readonly hint: string | undefined;

  constructor(code: PatchCode, offset?: number, hint?: string) {
    super(code, code);
    this.name = "PatchError";
    Object.defineProperty(this, "offset", { value: offset, enumerable: false });
    Object.defineProperty(this, "hint", { value: hint, enumerable: false });
  }
}
