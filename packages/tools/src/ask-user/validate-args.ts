import { documentIssue } from "../shared/documents.js";
import { FORM_BLOCK } from "./constants.js";
import { type AskUserArgs, freeTextField, questionField } from "./form.js";

function fieldIssue(field: Record<string, unknown>, at: string): string | undefined {
  const document = { blocks: [{ id: FORM_BLOCK, kind: "form", fields: [field] }] };
  return documentIssue(document, "/blocks/0/fields/0", at);
}

/**
 * `validateArgs` of `ask_user` (`panels.md` §13.8): what the input schema cannot express, checked before permission
 * or publication (the schema runs first: known fields, 1 to 3 questions, kinds, lengths, `title` 1–80 characters,
 * `timeout_ms` from 1 to 86,400,000). First failure wins, messages `<argument pointer>: <reason>`: the title has no
 * control character, each question is a valid form field (`panels.md` §11.1), `free_text` only on choice questions
 * (`free_text is only supported on choice questions`), ids unique across questions and free-text fields
 * (`duplicate field id`).
 */
export function validateArgs(args: AskUserArgs): string | undefined {
  if (args.title !== undefined) {
    const issue = documentIssue({ title: args.title, blocks: [] }, "/title", "/title");
    if (issue !== undefined) return issue;
  }
  const ids = new Set<string>();
  for (const [i, question] of args.questions.entries()) {
    const at = `/questions/${i}`;
    const issue = fieldIssue(questionField(question), at);
    if (issue !== undefined) return issue;
    if (ids.has(question.id)) return `${at}/id: duplicate field id`;
    ids.add(question.id);
    const freeText = question.free_text;
    if (freeText === undefined) continue;
    if (question.kind === "text") return `${at}/free_text: free_text is only supported on choice questions`;
    const freeIssue = fieldIssue(freeTextField(freeText), `${at}/free_text`);
    if (freeIssue !== undefined) return freeIssue;
    if (ids.has(freeText.id)) return `${at}/free_text/id: duplicate field id`;
    ids.add(freeText.id);
  }
  return undefined;
}
