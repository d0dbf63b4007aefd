import { documentIssue, isObject } from "../shared/documents.js";
import { type DiagramArgs, diagramDocument } from "./document.js";

const ROOT_KEYS = new Set(["source", "title", "placement"]);

/**
 * `validateArgs` of `diagram`: the document it would publish must be valid (`panels.md` §3, §12: a non-empty
 * source of at most 16,384 bytes without control characters other than tab and line feed, a title of at most 80
 * characters). Messages are `<argument pointer>: <reason>`.
 */
export function validateArgs(args: unknown): string | undefined {
  if (!isObject(args)) return "arguments must be an object";
  for (const key of Object.keys(args)) {
    if (!ROOT_KEYS.has(key)) return `/${key}: unknown field`;
  }
  if (args.placement !== undefined && args.placement !== "chat" && args.placement !== "sidebar") {
    return "/placement: must be one of chat, sidebar";
  }
  const document = diagramDocument(args as unknown as DiagramArgs);
  const title = documentIssue({ ...document, blocks: [] }, "/title", "/title");
  if (title !== undefined) return title;
  return documentIssue(document, "/blocks/0/source", "/source");
}
