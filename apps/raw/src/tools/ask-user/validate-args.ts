import { documentIssue, isObject } from "../shared/documents.js";
import { FORM_BLOCK, MAX_ASK_TIMEOUT_MS, MAX_QUESTIONS } from "./constants.js";
import { type FreeTextInput, freeTextField, type QuestionInput, questionField } from "./form.js";

const ROOT_KEYS = new Set(["questions", "title", "timeout_ms"]);
const FREE_TEXT_KEYS = new Set(["id", "label", "description", "multiline", "max_bytes"]);
const MAX_TITLE_CHARS = 80;

function fieldIssue(field: Record<string, unknown>, at: string): string | undefined {
  const document = { blocks: [{ id: FORM_BLOCK, kind: "form", fields: [field] }] };
  return documentIssue(document, "/blocks/0/fields/0", at);
}

/**
 * `validateArgs` of `ask_user` (`panels.md` §13.8): every argument is checked before permission or publication,
 * first failure wins, messages `<argument pointer>: <reason>`. Each question is checked as a form field
 * (`panels.md` §11.1), `free_text` only on choice questions (`free_text is only supported on choice questions`),
 * ids unique across questions and free-text fields (`duplicate field id`), `title` 1–80 characters, `timeout_ms`
 * an integer from 1 to 86,400,000.
 */
export function validateArgs(args: unknown): string | undefined {
  if (!isObject(args)) return "arguments must be an object";
  for (const key of Object.keys(args)) {
    if (!ROOT_KEYS.has(key)) return `/${key}: unknown field`;
  }
  const questions = args.questions;
  if (!Array.isArray(questions) || questions.length < 1 || questions.length > MAX_QUESTIONS) {
    return `/questions: must hold 1 to ${MAX_QUESTIONS} questions`;
  }
  if (args.title !== undefined) {
    if (typeof args.title !== "string") return "/title: must be a string";
    if ([...args.title].length > MAX_TITLE_CHARS)
      return `/title: must be at most ${MAX_TITLE_CHARS} characters`;
    if (args.title === "") return "/title: must not be empty";
    const issue = documentIssue({ title: args.title, blocks: [] }, "/title", "/title");
    if (issue !== undefined) return issue;
  }
  const timeout = args.timeout_ms;
  if (
    timeout !== undefined &&
    (!Number.isSafeInteger(timeout) || (timeout as number) < 1 || (timeout as number) > MAX_ASK_TIMEOUT_MS)
  ) {
    return `/timeout_ms: must be an integer from 1 to ${MAX_ASK_TIMEOUT_MS}`;
  }
  const ids = new Set<string>();
  for (let i = 0; i < questions.length; i++) {
    const question: unknown = questions[i];
    const at = `/questions/${i}`;
    if (!isObject(question)) return `${at}: must be an object`;
    const issue = fieldIssue(questionField(question as unknown as QuestionInput), at);
    if (issue !== undefined) return issue;
    const id = question.id as string;
    if (ids.has(id)) return `${at}/id: duplicate field id`;
    ids.add(id);
    const freeText = question.free_text;
    if (freeText === undefined) continue;
    if (question.kind === "text") return `${at}/free_text: free_text is only supported on choice questions`;
    if (!isObject(freeText)) return `${at}/free_text: must be an object`;
    for (const key of Object.keys(freeText)) {
      if (!FREE_TEXT_KEYS.has(key)) return `${at}/free_text/${key}: unknown field`;
    }
    const freeIssue = fieldIssue(freeTextField(freeText as unknown as FreeTextInput), `${at}/free_text`);
    if (freeIssue !== undefined) return freeIssue;
    const freeId = freeText.id as string;
    if (ids.has(freeId)) return `${at}/free_text/id: duplicate field id`;
    ids.add(freeId);
  }
  return undefined;
}
