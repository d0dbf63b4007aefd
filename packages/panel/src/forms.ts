import { ContractError, type Issue, isPlainObject, utf8Bytes } from "@raw/schema";

/** Largest canonical form result in bytes, whatever the output budget (`panels.md` §11.2: 1 MiB). */
export const MAX_FORM_RESULT_BYTES = 1_048_576;

/** Largest `max_bytes` of a text field, declared or effective (`panels.md` §11.1). */
export const MAX_FORM_TEXT_BYTES = 65_536;

/** One option of a choice field: exactly `{ id, label }`. */
export interface FormOption {
  readonly id: string;
  readonly label: string;
}

/** A form field as declared in a `form` block (already validated by the document rules of §11.1). */
export interface FormField {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly kind: "text" | "single_select" | "multi_select";
  readonly multiline?: boolean;
  readonly max_bytes?: number;
  readonly options?: readonly FormOption[];
  readonly min_selected?: number;
  readonly max_selected?: number;
}

/**
 * A form field with its effective limits (`panels.md` §11.2): text fields always carry `max_bytes`, multi-select
 * fields always carry `max_selected` (it may be 0 for an optional field) and `min_selected`.
 */
export type PreparedFormField = FormField & { readonly max_bytes?: number; readonly max_selected?: number };

/** A form fitted to a call's output budget; what `validateFormAnswers` checks answers against. */
export interface PreparedForm {
  readonly fields: readonly PreparedFormField[];
  /** `min(1 MiB, max(0, floor(outputBudget)))`: the largest canonical result accepted. */
  readonly maxResultBytes: number;
}

/** The value of one answer in a canonical result: a text, an option id, or option ids in declared order. */
export type FormAnswerValue = string | string[];

/** Outcome of `validateFormAnswers`: the normalized answers and the exact canonical result JSON. */
export type FormAnswersValidation =
  | { ok: true; answers: Record<string, FormAnswerValue>; canonicalResult: string }
  | { ok: false; issues: Issue[] };

const ENVELOPE_BYTES = utf8Bytes('{"status":"answered","answers":}');

/** Sets an own enumerable data property, so ids such as `__proto__` stay ordinary data. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function encodedBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value));
}

/** The least number of options a multi-select answer must hold when given. */
function minCount(field: FormField): number {
  return Math.max(field.min_selected ?? 0, field.required === true ? 1 : 0);
}

/** Options sorted by the UTF-8 length of their JSON-encoded id, declared order on ties. */
function shortestOptions(field: FormField): FormOption[] {
  const options = [...(field.options ?? [])];
  const length = new Map(options.map((o) => [o, encodedBytes(o.id)] as const));
  return options.sort((a, b) => (length.get(a) ?? 0) - (length.get(b) ?? 0));
}

/** The minimum answer of one required field (`undefined` for an optional field). */
function minimumValue(field: FormField, shortest: FormOption[]): FormAnswerValue | undefined {
  if (field.required !== true) {
    return undefined;
  }
  if (field.kind === "text") return "x";
  if (field.kind === "single_select") return shortest[0]?.id ?? "";
  return shortest.slice(0, minCount(field)).map((o) => o.id);
}

/** UTF-8 length of `{"status":"answered","answers":<answers>}` with `override` replacing one field's value. */
function envelopeBytes(
  fields: readonly FormField[],
  minimum: ReadonlyArray<FormAnswerValue | undefined>,
  override?: { index: number; value: FormAnswerValue },
): number {
  const answers: Record<string, unknown> = {};
  fields.forEach((field, i) => {
    const value = override?.index === i ? override.value : minimum[i];
    if (value !== undefined) define(answers, field.id, value);
  });
  return ENVELOPE_BYTES + encodedBytes(answers);
}

/**
 * Fits a form to a call's output budget before it is shown (`panels.md` §11.2): computes `maxResultBytes`,
 * checks that the minimum answer fits, and lowers the text byte limits and multi-select counts so an answer can
 * fit. Throws `ContractError` `interaction_budget_too_small` when even the minimum answer cannot fit.
 */
export function prepareForm(fields: readonly FormField[], outputBudget: number): PreparedForm {
  const floored = Math.floor(outputBudget);
  const maxResultBytes = Math.min(MAX_FORM_RESULT_BYTES, Number.isNaN(floored) ? 0 : Math.max(0, floored));
  const shortest = fields.map(shortestOptions);
  const minimum = fields.map((field, i) => minimumValue(field, shortest[i] ?? []));
  if (envelopeBytes(fields, minimum) > maxResultBytes) {
    throw new ContractError(
      "interaction_budget_too_small",
      "interaction_budget_too_small: the minimum answer and result envelope cannot fit",
    );
  }
  const prepared = fields.map((field, index): PreparedFormField => {
    if (field.kind === "text") {
      const available = maxResultBytes - envelopeBytes(fields, minimum, { index, value: "" });
      const maxBytes = Math.min(
        field.max_bytes ?? MAX_FORM_TEXT_BYTES,
        MAX_FORM_TEXT_BYTES,
        Math.max(1, Math.floor(available / 2)),
      );
      return { ...field, max_bytes: maxBytes };
    }
    if (field.kind === "multi_select") {
      const options = shortest[index] ?? [];
      const least = minCount(field);
      let maxSelected = Math.min(field.max_selected ?? options.length, options.length);
      while (
        maxSelected > least &&
        envelopeBytes(fields, minimum, { index, value: options.slice(0, maxSelected).map((o) => o.id) }) >
          maxResultBytes
      ) {
        maxSelected--;
      }
      return { ...field, min_selected: field.min_selected ?? 0, max_selected: maxSelected };
    }
    return { ...field };
  });
  return { fields: prepared, maxResultBytes };
}

function invalid(text: string): FormAnswersValidation {
  return { ok: false, issues: [{ code: "interaction_invalid", message: `interaction_invalid: ${text}` }] };
}

const hasOwn = (value: object, key: string): boolean => Object.hasOwn(value, key);

/**
 * Checks answers against a prepared form (`panels.md` §11.3), first failure wins: the answers object, unknown
 * keys, then each field in declared order, then the result budget. On success returns the normalized answers
 * (provided fields in declared order, multi-select ids in declared option order) and the canonical result
 * `{"status":"answered","answers":{...}}`. Codes: `interaction_invalid`, `interaction_budget_exceeded`.
 */
export function validateFormAnswers(form: PreparedForm, answers: unknown): FormAnswersValidation {
  if (!isPlainObject(answers)) return invalid("answers must be an object");
  const fields = form.fields;
  const ids = new Set(fields.map((f) => f.id));
  for (const key of Object.keys(answers)) {
    if (!ids.has(key)) return invalid(`unknown field ${key}`);
  }
  const normalized: Record<string, FormAnswerValue> = {};
  for (const field of fields) {
    const id = field.id;
    if (!hasOwn(answers, id)) {
      if (field.required === true) return invalid(`${id} is required`);
      continue;
    }
    const value = answers[id];
    if (field.kind === "text") {
      if (typeof value !== "string") return invalid(`${id} must be text`);
      if (field.required === true && value.trim() === "") return invalid(`${id} is required`);
      if (utf8Bytes(value) > (field.max_bytes ?? MAX_FORM_TEXT_BYTES)) {
        return invalid(`${id} exceeds its effective byte limit`);
      }
      define(normalized, id, value);
    } else if (field.kind === "single_select") {
      if (typeof value !== "string" || !(field.options ?? []).some((o) => o.id === value)) {
        return invalid(`${id} has an unknown option`);
      }
      define(normalized, id, value);
    } else {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
        return invalid(`${id} must be an array of option IDs`);
      }
      const chosen = new Set<string>(value);
      if (chosen.size !== value.length) return invalid(`${id} repeats an option`);
      const options = field.options ?? [];
      const known = new Set(options.map((o) => o.id));
      for (const v of chosen) if (!known.has(v)) return invalid(`${id} has an unknown option`);
      const maxSelected = Math.min(field.max_selected ?? options.length, options.length);
      if (chosen.size < minCount(field) || chosen.size > maxSelected) {
        return invalid(`${id} has an invalid selection count`);
      }
      define(
        normalized,
        id,
        options.filter((o) => chosen.has(o.id)).map((o) => o.id),
      );
    }
  }
  const canonicalResult = JSON.stringify({ status: "answered", answers: normalized });
  if (utf8Bytes(canonicalResult) > form.maxResultBytes) {
    return {
      ok: false,
      issues: [
        {
          code: "interaction_budget_exceeded",
          message: "interaction_budget_exceeded: the complete encoded answer exceeds the result budget",
        },
      ],
    };
  }
  return { ok: true, answers: normalized, canonicalResult };
}
