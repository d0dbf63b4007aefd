import { escapePointerToken, type Issue } from "@raw/schema";

/** Any shape, field, count, id, template or patch failure (`panels.md` §8). */
export const PANEL_INVALID = "panel_invalid";

/** The final document is larger than 65,536 serialized bytes (`panels.md` §8). */
export const PANEL_TOO_LARGE = "panel_too_large";

/** `patch` or `close` on a panel that has no document yet (`panels.md` §8). */
export const PANEL_UNKNOWN = "panel_unknown";

/** `base_revision` is present and differs from the current revision (`panels.md` §7.1). */
export const PANEL_REVISION_CONFLICT = "panel_revision_conflict";

/** A validation failure travelling up to the function that reports it (never escapes the package). */
export class PanelFailure {
  constructor(readonly issue: Issue) {}
}

/**
 * A panel pointer as messages show it (`panels.md` §1): `""` (the root of the validated value) renders as `/`;
 * every other pointer is kept as is.
 */
export function displayPointer(pointer: string): string {
  return pointer === "" ? "/" : pointer;
}

/** Appends one escaped reference token to a pointer: `childPointer("/a", "b/c")` is `/a/b~1c`. */
export function childPointer(pointer: string, token: string | number): string {
  return typeof token === "number" ? `${pointer}/${token}` : `${pointer}/${escapePointerToken(token)}`;
}

/** The `panel_invalid` issue `<pointer>: <reason>` whose `path` is that pointer (the root renders as `/`). */
export function invalidIssue(pointer: string, reason: string): Issue {
  const shown = displayPointer(pointer);
  return { code: PANEL_INVALID, message: `${shown}: ${reason}`, path: shown };
}

/** Stops validation with a `panel_invalid` failure at `pointer`. */
export function fail(pointer: string, reason: string): never {
  throw new PanelFailure(invalidIssue(pointer, reason));
}
