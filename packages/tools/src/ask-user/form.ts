import type { ToolInput } from "@raw/tool-api";
import { FORM_BLOCK } from "./constants.js";
import type { ASK_USER_INPUT_SCHEMA } from "./manifest.js";

/** The arguments of `ask_user` (`panels.md` §13.8), as its input schema guarantees them. */
export type AskUserArgs = ToolInput<typeof ASK_USER_INPUT_SCHEMA>;

/** One question: a form field (`required` defaults to true) with an optional `free_text` companion. */
export type QuestionInput = AskUserArgs["questions"][number];

/** A free-text companion of a choice question: becomes an optional text field right after it. */
export type FreeTextInput = NonNullable<QuestionInput["free_text"]>;

/** The form field of a question: its own fields, `required` defaulting to true. */
export function questionField(question: QuestionInput): Record<string, unknown> {
  const { free_text: _freeText, ...field } = question;
  return { ...field, required: question.required ?? true };
}

/** The optional text field of a `free_text` companion. */
export function freeTextField(freeText: FreeTextInput): Record<string, unknown> {
  const field: Record<string, unknown> = { id: freeText.id, label: freeText.label };
  if (freeText.description !== undefined) field.description = freeText.description;
  field.required = false;
  field.kind = "text";
  if (freeText.multiline !== undefined) field.multiline = freeText.multiline;
  if (freeText.max_bytes !== undefined) field.max_bytes = freeText.max_bytes;
  return field;
}

/** The form fields of all questions, each free-text field right after its question. */
export function formFields(questions: readonly QuestionInput[]): Record<string, unknown>[] {
  const fields: Record<string, unknown>[] = [];
  for (const question of questions) {
    fields.push(questionField(question));
    if (question.free_text !== undefined) fields.push(freeTextField(question.free_text));
  }
  return fields;
}

/** The document `ask_user` publishes: `{ title?, blocks: [{ id: "form", kind: "form", fields }] }`. */
export function questionsDocument(args: AskUserArgs): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  if (args.title !== undefined) document.title = args.title;
  document.blocks = [{ id: FORM_BLOCK, kind: "form", fields: formFields(args.questions) }];
  return document;
}
