import { validatePanelDocument } from "@raw/panel";

/**
 * Validates a document built from arguments and returns the first failure as `<argument pointer>: <reason>`, with
 * the document pointer `from` (and everything below it) replaced by the argument pointer `to`; `undefined` when
 * the document is valid. Other failures (a size limit) are returned as they are.
 */
export function documentIssue(document: unknown, from: string, to: string): string | undefined {
  const checked = validatePanelDocument(document);
  if (checked.ok) return undefined;
  const issue = checked.issues[0];
  if (issue === undefined) return "invalid document";
  const path = issue.path ?? "";
  if (path === from || path.startsWith(`${from}/`)) {
    const rest = issue.message.slice(path.length);
    return `${to}${path.slice(from.length)}${rest}`;
  }
  return issue.message;
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
