/**
 * The shape of a scanned patch text (effects.md §7.1–7.4): what `scanPatch` of `parse-patch.ts` produces and the scan
 * cache keeps. Types only, a leaf module: both of them import it, neither imports the other's types.
 */
import type { PatchCode } from "./patch-error.js";

/** The kind of a file section. */
export type PatchChangeKind = "add" | "update" | "delete";

/** One file section as scanned, before its targets are checked (shared by every parse of the same text). */
export interface ScannedSection {
  readonly kind: PatchChangeKind;
  readonly rawPath: string;
  rawDestination: string | undefined;
  /**
   * Update: per hunk, the position of its first line, the position after its last line, 1 when anchored (else 0),
   * and its number of lines.
   */
  hunks: readonly number[];
  /** Add: the position of the first `+` line and the position after the last (equal when none). */
  addedStart: number;
  addedEnd: number;
  noNewline: boolean;
}

/**
 * The syntax of one patch text, which does not depend on the base directory: its sections in order (with where each
 * hunk and the added lines are, so they are built later without checking the grammar again) and the first grammar
 * failure, if any. A section whose header was read is listed even when the failure
 * comes in its body, so its targets are still checked first, as in one pass over the text.
 */
export interface ScannedPatch {
  readonly sections: readonly ScannedSection[];
  readonly failure: PatchCode | undefined;
  /** Where the line of the failure starts, when the failure is about one line (for `patchHint`). */
  readonly failureAt: number | undefined;
}
