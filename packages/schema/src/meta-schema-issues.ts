import type { ErrorObject } from "ajv";
import type { Issue } from "./issue.js";
import { parsePointer, valueAtPointer } from "./pointer.js";
import { MAX_SCHEMA_FINDINGS, typeNameHint } from "./strict-schema-walk.js";

/**
 * How many meta-schema errors are diagnosed (Ajv reports every one; the issues are capped at `MAX_SCHEMA_FINDINGS`
 * anyway, and a hostile schema can have hundreds of thousands).
 */
export const MAX_META_ERRORS = 1000;

/**
 * Every meta-schema error of a schema as `schema_unsupported` issues, one per offending keyword value (the deepest
 * pointer of each group of errors), each at the keyword's pointer with the validator's wording
 * (`schema is invalid: data/... <message>`) and a hint. `root` is the schema the errors are about.
 */
export function metaSchemaIssues(
  errors: readonly ErrorObject[],
  root: unknown,
  label: string,
  at: string,
): Issue[] {
  const groups = new Map<string, ErrorObject[]>();
  // Pointers that have a deeper error under them (each error adds its ancestors: linear in the pointers' length).
  const enclosing = new Set<string>();
  for (const error of errors.slice(0, MAX_META_ERRORS)) {
    const path = error.instancePath;
    const group = groups.get(path);
    if (group === undefined) groups.set(path, [error]);
    else group.push(error);
    for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
      const ancestor = path.slice(0, slash);
      if (enclosing.has(ancestor)) break;
      enclosing.add(ancestor);
    }
    if (path !== "") enclosing.add("");
  }
  const issues: Issue[] = [];
  for (const [path, group] of groups) {
    // A group with a deeper group under it is the noise of an enclosing alternative (anyOf of string or array).
    if (enclosing.has(path)) continue;
    const first =
      group.find((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf") ?? (group[0] as ErrorObject);
    issues.push({
      code: "schema_unsupported",
      message: `unsupported tool schema: ${label}: schema is invalid: data${path} ${first.message ?? "is invalid"}`,
      path: at + path,
      hint: metaHint(path, first, root),
    });
    if (issues.length >= MAX_SCHEMA_FINDINGS) break;
  }
  return issues;
}

function metaHint(path: string, error: ErrorObject, root: unknown): string {
  const tokens = parsePointer(path) ?? [];
  const last = tokens[tokens.length - 1];
  const parent = tokens[tokens.length - 2];
  const value = valueAtPointer(root, tokens);
  if (last === "type") return typeNameHint(value);
  if (parent === "type" && /^\d+$/.test(last ?? "")) return typeNameHint(value);
  if (last === "required" || parent === "required") {
    return `"required" is a list of distinct property names, such as ["path"]`;
  }
  if (error.message === "must be object,boolean" || error.message === "must be object") {
    return last === undefined
      ? "a schema must be a JSON object"
      : `the value of "${last}" must be a schema (a JSON object such as { "type": "string" }, or true/false)`;
  }
  return last === undefined
    ? `the schema ${error.message}`
    : `the value of "${last}" ${error.message ?? "is invalid"}`;
}
