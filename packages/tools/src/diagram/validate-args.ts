import { documentIssue } from "../shared/documents.js";
import { type DiagramArgs, diagramDocument } from "./document.js";

/**
 * `validateArgs` of `diagram`: the document it would publish must be valid (`panels.md` §3, §12), which the input
 * schema cannot say on its own (it runs first: known fields, `placement`, a non-empty `source`, a `title` of at most
 * 80 characters): `source` at most 16,384 UTF-8 bytes, no control characters other than tab and line feed in
 * `source` or `title`. Messages are `<argument pointer>: <reason>`.
 */
export function validateArgs(args: DiagramArgs): string | undefined {
  const document = diagramDocument(args);
  const title = documentIssue({ ...document, blocks: [] }, "/title", "/title");
  if (title !== undefined) return title;
  return documentIssue(document, "/blocks/0/source", "/source");
}
