import {
  checkArray,
  checkBoolean,
  checkInteger,
  checkKeys,
  checkPattern,
  checkText,
  type Fields,
  ITEM_ID_PATTERN,
  ITEM_ID_REASON,
  OneOf,
  readObject,
} from "../field-checks.js";
import { MAX_FORM_TEXT_BYTES } from "../forms.js";
import { MAX_FORM_FIELDS, MAX_FORM_OPTIONS } from "../limits.js";
import { fail } from "../panel-error.js";
import type { BlockKind } from "./common.js";

const FIELD_KINDS = new OneOf(["text", "single_select", "multi_select"]);
const COMMON_FIELD_KEYS = ["id", "label", "description", "required", "kind"];
const FIELD_KEYS: Record<string, ReadonlySet<string>> = {
  text: new Set([...COMMON_FIELD_KEYS, "multiline", "max_bytes"]),
  single_select: new Set([...COMMON_FIELD_KEYS, "options"]),
  multi_select: new Set([...COMMON_FIELD_KEYS, "options", "min_selected", "max_selected"]),
};
const OPTION_KEYS = new Set(["id", "label"]);
const MAX_LABEL_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 500;
const BOOLEAN_REASON = "must be boolean";

function checkOptions(value: unknown, pointer: string): readonly object[] {
  const list = checkArray(value, pointer, 1, MAX_FORM_OPTIONS);
  const ids = new Set<string>();
  const out: object[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const p = `${pointer}/${i}`;
    const { fields: option, keys } = readObject(list[i], p);
    checkKeys(keys, OPTION_KEYS, p);
    const id = checkPattern(option.id, `${p}/id`, ITEM_ID_PATTERN, ITEM_ID_REASON);
    checkText(option.label, `${p}/label`, MAX_LABEL_CHARS, true);
    if (ids.has(id)) fail(`${p}/id`, "duplicate option id");
    ids.add(id);
    out[i] = Object.freeze(option);
  }
  return Object.freeze(out);
}

/** Validates one form field (`panels.md` §11.1) at `p`; returns its id and frozen copy, or fails with a `PanelFailure`. */
export function checkField(value: unknown, p: string): { id: string; field: object } {
  const { fields: field, keys } = readObject(value, p);
  const id = checkPattern(field.id, `${p}/id`, ITEM_ID_PATTERN, ITEM_ID_REASON);
  checkText(field.label, `${p}/label`, MAX_LABEL_CHARS, true);
  if (field.description !== undefined) {
    checkText(field.description, `${p}/description`, MAX_DESCRIPTION_CHARS, false);
  }
  if (field.required !== undefined) checkBoolean(field.required, `${p}/required`, BOOLEAN_REASON);
  const kind = FIELD_KINDS.check(field.kind, `${p}/kind`);
  checkKeys(keys, FIELD_KEYS[kind] as ReadonlySet<string>, p);
  if (kind === "text") {
    if (field.multiline !== undefined) checkBoolean(field.multiline, `${p}/multiline`, BOOLEAN_REASON);
    if (field.max_bytes !== undefined) {
      const max = checkInteger(field.max_bytes, `${p}/max_bytes`, 1);
      if (max > MAX_FORM_TEXT_BYTES) fail(`${p}/max_bytes`, `must be at most ${MAX_FORM_TEXT_BYTES}`);
    }
  } else {
    const options = checkOptions(field.options, `${p}/options`);
    field.options = options;
    if (kind === "multi_select") {
      const min =
        field.min_selected === undefined ? 0 : checkInteger(field.min_selected, `${p}/min_selected`, 0);
      const max =
        field.max_selected === undefined
          ? options.length
          : checkInteger(field.max_selected, `${p}/max_selected`, 1);
      if (min > max || max > options.length) fail(p, "invalid selection limits");
    }
  }
  return { id, field: Object.freeze(field) };
}

/** `form`: 1–8 fields (`text`, `single_select`, `multi_select`) with unique ids (`panels.md` §11.1). */
export const formKind: BlockKind = {
  keys: ["fields"],
  validate(fields: Fields, pointer: string): void {
    const fieldsPointer = `${pointer}/fields`;
    const list = checkArray(fields.fields, fieldsPointer, 1, MAX_FORM_FIELDS);
    const ids = new Set<string>();
    const out: object[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const p = `${fieldsPointer}/${i}`;
      const { id, field } = checkField(list[i], p);
      if (ids.has(id)) fail(`${p}/id`, "duplicate field id");
      ids.add(id);
      out[i] = field;
    }
    fields.fields = Object.freeze(out);
  },
};
