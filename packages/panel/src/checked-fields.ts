import type { Fields } from "./field-checks.js";

/**
 * Freezes the fields a validator has just checked, typed as the record they now are (a `PanelDocument`, a patch).
 * The one place where checked fields become their type: the checks (`checkText`, `checkArray`, ...) narrow each
 * field at run time, which TypeScript cannot follow from a `Record<string, unknown>`.
 */
export function checkedFields<T extends object>(fields: Fields): T {
  const frozen: object = Object.freeze(fields);
  // Sound because the caller checked every field of T; widening to `object` first is what lets the record narrow.
  return frozen as T;
}
