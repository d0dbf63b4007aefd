import type { Issue } from "@raw/schema";
import { checkBlock } from "./blocks/catalog.js";
import { checkField } from "./blocks/form.js";
import type { FormField } from "./forms.js";
import { invalidIssue, PanelFailure } from "./panel-error.js";
import type { PanelBlock } from "./types.js";

/** Where a validated part sits: `pointer` is its JSON Pointer in the caller's document (`""`, shown `/`, by default). */
export interface PanelPartOptions {
  pointer?: string;
}

/** Outcome of `validatePanelBlock`: the validated, deep-frozen block, or its first failure as one issue. */
export type PanelBlockValidation = { ok: true; block: PanelBlock } | { ok: false; issues: Issue[] };

/** Outcome of `validatePanelFormField`: the validated, frozen field, or its first failure as one issue. */
export type PanelFormFieldValidation = { ok: true; field: FormField } | { ok: false; issues: Issue[] };

/** Runs a check that fails with a `PanelFailure`; any other throw (a getter, a proxy trap) is `is not serializable`. */
function run<T>(pointer: string, check: () => T): { ok: true; value: T } | { ok: false; issues: Issue[] } {
  try {
    return { ok: true, value: check() };
  } catch (error) {
    if (error instanceof PanelFailure) return { ok: false, issues: [error.issue] };
    return { ok: false, issues: [invalidIssue(pointer, "is not serializable")] };
  }
}

/**
 * Validates one block by the rules of `panels.md` §4 (the document's duplicate-id and size checks aside), first
 * failure wins, with pointers that start at `options.pointer`: a caller that holds the block elsewhere (a tool
 * argument, `/source`) passes that pointer and gets `panel_invalid` issues whose `path` and `<pointer>: <reason>`
 * message are already its own. Never throws.
 */
export function validatePanelBlock(block: unknown, options: PanelPartOptions = {}): PanelBlockValidation {
  const pointer = options.pointer ?? "";
  const result = run(pointer, () => checkBlock(block, pointer));
  return result.ok ? { ok: true, block: result.value } : result;
}

/**
 * Validates one form field by the rules of `panels.md` §11.1 (a form's duplicate-id check aside), first failure
 * wins, with pointers that start at `options.pointer` (for example `/questions/0` of a tool's arguments). Never
 * throws.
 */
export function validatePanelFormField(
  field: unknown,
  options: PanelPartOptions = {},
): PanelFormFieldValidation {
  const pointer = options.pointer ?? "";
  const result = run(pointer, () => checkField(field, pointer).field as FormField);
  return result.ok ? { ok: true, field: result.value } : result;
}
