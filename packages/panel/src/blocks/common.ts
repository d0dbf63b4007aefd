import { checkInteger, checkKeys, checkText, type Fields, OneOf, readObject } from "../field-checks.js";
import type { PanelItemStatus, PanelRef } from "../types.js";

/** Item statuses in the order `panels.md` §3.3 lists them. */
export const ITEM_STATUSES = new OneOf<PanelItemStatus>([
  "pending",
  "in_progress",
  "done",
  "skipped",
  "blocked",
  "failed",
]);

/** The rules of one catalog kind: its own keys and the checks run after the common fields. */
export interface BlockKind {
  /** The kind's own keys; with the common fields they are the only keys allowed. */
  readonly keys: readonly string[];
  /**
   * Validates the kind's fields (the own-key check has run) and replaces nested values in `fields` with their
   * validated, frozen copies. Fails with a `PanelFailure`.
   */
  validate(fields: Fields, pointer: string): void;
}

/** The keys every block may carry (`panels.md` §4.1). */
export const COMMON_BLOCK_KEYS = ["id", "kind", "title", "fallback"] as const;

const REF_KEYS = new Set(["path", "line"]);

/** Maximum characters of a ref path (`panels.md` §3.4). */
const MAX_REF_PATH_CHARS = 500;

/** A `ref`: exactly `path` (1–500 characters) and optional `line` (integer ≥ 1) (`panels.md` §3.4). */
export function checkRef(value: unknown, pointer: string): PanelRef {
  const { fields, keys } = readObject(value, pointer);
  checkKeys(keys, REF_KEYS, pointer);
  checkText(fields.path, `${pointer}/path`, MAX_REF_PATH_CHARS, true);
  if (fields.line !== undefined) checkInteger(fields.line, `${pointer}/line`, 1);
  // Every field was checked above, one by one: the record is a PanelRef.
  return Object.freeze(fields) as unknown as PanelRef;
}
