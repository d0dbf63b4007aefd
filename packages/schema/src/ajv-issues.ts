import type { ErrorObject } from "ajv";
import type { Issue } from "./issue.js";

/** Code of an issue produced by validating a value against a compiled schema (tool-api.md §3.5). */
export const SCHEMA_VIOLATION = "schema_violation";

/** Turns Ajv errors into `schema_violation` issues: the validator's message at the instance pointer. */
export function issuesFromAjv(errors: readonly ErrorObject[] | null | undefined, prefix = ""): Issue[] {
  if (!errors) return [];
  return errors.map((error) => ({
    code: SCHEMA_VIOLATION,
    message: error.message ?? `must pass "${error.keyword}" keyword validation`,
    path: prefix + error.instancePath,
  }));
}

/**
 * Formats validation issues as the dispatcher does: `<pointer or (root)>: <message>`, one line per issue. The text
 * is built by concatenation (no intermediate array, no copy into a flat string until it is read).
 */
export function formatValidationIssues(issues: readonly Issue[]): string {
  let text = "";
  for (let i = 0; i < issues.length; i++) {
    const issue = issues[i] as Issue;
    const line = `${issue.path ? issue.path : "(root)"}: ${issue.message}`;
    text = i === 0 ? line : `${text}\n${line}`;
  }
  return text;
}
