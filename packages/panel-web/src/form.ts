import type { FormAnswerValue, FormBlock } from "@raw/panel";
import { type PreparedForm, type PreparedFormField, prepareForm, validateFormAnswers } from "@raw/panel/host";
import { html, nothing, type TemplateResult } from "lit";

/** Answers being typed into one form, by field id; kept across live frames. */
export type FormDraft = Map<string, FormAnswerValue>;

/** What the form renderer needs from its element. */
export interface FormHost {
  /** The draft of a form block (created on first use). */
  draft(blockId: string): FormDraft;
  /** The message shown under the form (client-side check or the host's rejection), if any. */
  message(blockId: string): string | undefined;
  /** The field the message is about, if it names one. */
  invalidField(blockId: string): string | undefined;
  /** Called after every keystroke or choice. */
  changed(blockId: string): void;
  /** Submits validated answers. */
  submit(block: FormBlock, answers: Record<string, FormAnswerValue>, canonicalResult: string): void;
  /** Reports a client-side validation failure. */
  reject(block: FormBlock, message: string): void;
  /** Cancels the form. */
  cancel(block: FormBlock): void;
  /** The output budget the form is prepared against (`panels.md` §11.2). */
  readonly outputBudget: number;
  /** Whether the form is waiting for an answer (buttons enabled). */
  readonly pending: boolean;
  /** A prefix that makes element ids unique within the shadow root. */
  readonly idPrefix: string;
}

/** The answers of a draft as `validateFormAnswers` expects them: optional empty fields are left out. */
export function draftAnswers(form: PreparedForm, draft: FormDraft): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const field of form.fields) {
    const value = draft.get(field.id);
    if (value === undefined) continue;
    if (field.required !== true && (value === "" || (Array.isArray(value) && value.length === 0))) continue;
    Object.defineProperty(answers, field.id, { value, enumerable: true, writable: true, configurable: true });
  }
  return answers;
}

/** The field id a validation message starts with (`<id> is required`), when it names one of the form's fields. */
function fieldOfMessage(form: PreparedForm, message: string): string | undefined {
  const text = message.replace(/^interaction_[a-z_]+: /u, "");
  return form.fields
    .map((f) => f.id)
    .filter((id) => text.startsWith(`${id} `))
    .sort((a, b) => b.length - a.length)[0];
}

function prepared(block: FormBlock, budget: number): PreparedForm | string {
  try {
    return prepareForm(block.fields, budget);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Checks a draft with the contract's own `validateFormAnswers`; returns the error message or the answers. */
export function checkDraft(
  block: FormBlock,
  budget: number,
  draft: FormDraft,
):
  | { ok: true; answers: Record<string, FormAnswerValue>; canonicalResult: string }
  | { ok: false; message: string; field?: string } {
  const form = prepared(block, budget);
  if (typeof form === "string") return { ok: false, message: form };
  const result = validateFormAnswers(form, draftAnswers(form, draft));
  if (result.ok) return { ok: true, answers: result.answers, canonicalResult: result.canonicalResult };
  const message = result.issues[0]?.message ?? "invalid answers";
  const field = fieldOfMessage(form, message);
  return field === undefined ? { ok: false, message } : { ok: false, message, field };
}

function fieldInput(block: FormBlock, field: PreparedFormField, host: FormHost): TemplateResult {
  const draft = host.draft(block.id);
  const id = `${host.idPrefix}-${block.id}-${field.id}`;
  const describedBy = [
    field.description ? `${id}-desc` : "",
    host.invalidField(block.id) === field.id ? `${host.idPrefix}-${block.id}-msg` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const invalid = host.invalidField(block.id) === field.id ? "true" : "false";
  const description = field.description
    ? html`<div class="muted" id=${`${id}-desc`}>${field.description}</div>`
    : nothing;
  const required = field.required === true;
  if (field.kind === "text") {
    const value = typeof draft.get(field.id) === "string" ? (draft.get(field.id) as string) : "";
    const onInput = (event: Event) => {
      draft.set(field.id, (event.target as HTMLInputElement | HTMLTextAreaElement).value);
      host.changed(block.id);
    };
    const input =
      field.multiline === true
        ? html`<textarea id=${id} name=${field.id} rows="3" aria-required=${required ? "true" : "false"} aria-invalid=${invalid} aria-describedby=${describedBy || nothing} .value=${value} @input=${onInput}></textarea>`
        : html`<input type="text" id=${id} name=${field.id} aria-required=${required ? "true" : "false"} aria-invalid=${invalid} aria-describedby=${describedBy || nothing} .value=${value} @input=${onInput} />`;
    return html`<div class="field" data-field=${field.id}><label for=${id}>${field.label}${required ? " *" : ""}</label>${description}${input}</div>`;
  }
  const multi = field.kind === "multi_select";
  const selected = draft.get(field.id);
  const isChecked = (optionId: string) =>
    Array.isArray(selected) ? selected.includes(optionId) : selected === optionId;
  const onChange = (optionId: string) => (event: Event) => {
    const checked = (event.target as HTMLInputElement).checked;
    if (multi) {
      const current = Array.isArray(selected) ? selected : [];
      const next = checked
        ? [...current.filter((o) => o !== optionId), optionId]
        : current.filter((o) => o !== optionId);
      draft.set(field.id, next);
    } else if (checked) {
      draft.set(field.id, optionId);
    }
    host.changed(block.id);
  };
  return html`<fieldset class="field" data-field=${field.id} data-invalid=${invalid} role=${multi ? "group" : "radiogroup"} aria-invalid=${multi ? nothing : invalid} aria-describedby=${describedBy || nothing} aria-required=${!multi && required ? "true" : nothing}>
    <legend>${field.label}${required ? " *" : ""}</legend>${description}
    ${(field.options ?? []).map((option) => {
      const optionId = `${id}-${option.id}`;
      return html`<div><input type=${multi ? "checkbox" : "radio"} id=${optionId} name=${id} .checked=${isChecked(option.id)} @change=${onChange(option.id)} /><label for=${optionId} style="display:inline;font-weight:normal">${option.label}</label></div>`;
    })}
  </fieldset>`;
}

/**
 * Renders a `form` block (`panels.md` §11) as real, labelled inputs. Submitting checks the answers with the
 * contract's own `validateFormAnswers` first; an invalid answer stays in the form with the message shown.
 */
export function renderForm(block: FormBlock, host: FormHost): TemplateResult {
  const form = prepared(block, host.outputBudget);
  const fields = typeof form === "string" ? block.fields : form.fields;
  const message = host.message(block.id);
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (!host.pending) return;
    const checked = checkDraft(block, host.outputBudget, host.draft(block.id));
    if (checked.ok) host.submit(block, checked.answers, checked.canonicalResult);
    else host.reject(block, checked.message);
  };
  return html`<form novalidate @submit=${onSubmit} aria-label=${block.title ?? "Form"}>
    ${fields.map((field) => fieldInput(block, field, host))}
    <div id=${`${host.idPrefix}-${block.id}-msg`} class="error" role="alert" aria-live="assertive">${message ?? nothing}</div>
    <div class="buttons">
      <button type="submit" class="primary" ?disabled=${!host.pending}>Submit</button>
      <button type="button" ?disabled=${!host.pending} @click=${() => host.cancel(block)}>Cancel</button>
    </div>
  </form>`;
}
