import { isPlainObject } from "@raw/schema";
import { safeParsePatch } from "./parse-patch.js";
import { MAX_WRITE_OPERATIONS, type WriteFileMode } from "./write-file-input.js";

const UNKNOWN_PROPERTY_HINT = '; use {"operations":[{"path":"...","mode":"overwrite","content":"..."}]}';
const MAX_LINE_NUMBER = 2_147_483_647;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The fields each mode allows and requires, in the order `missing <field>` is reported (effects.md §9). */
const FIELD_SETS: Readonly<Record<WriteFileMode, readonly string[]>> = Object.freeze({
  overwrite: Object.freeze(["path", "mode", "content"]),
  append: Object.freeze(["path", "mode", "content"]),
  replace_text: Object.freeze(["path", "mode", "old_text", "new_text"]),
  replace_lines: Object.freeze(["path", "mode", "start_line", "end_line", "content", "expected_sha256"]),
});

const hasOwn = (value: object, key: string): boolean => Object.hasOwn(value, key);

/**
 * The `validateArgs` of the reference `write_file` tool (effects.md §9): the first failing check's message, or
 * `undefined` when the arguments are valid. A patch is parsed in syntax-only mode; its failure message is the
 * parser code. Does not throw for JSON data.
 */
export function validateWriteFileArgs(args: unknown): string | undefined {
  if (!isPlainObject(args)) return "arguments must be an object";
  for (const key of Object.keys(args)) {
    if (key !== "operations" && key !== "patch") {
      return `unknown write_file property ${JSON.stringify(key)}${UNKNOWN_PROPERTY_HINT}`;
    }
  }
  const hasOperations = hasOwn(args, "operations");
  if (hasOperations === hasOwn(args, "patch")) return "provide exactly one of operations or patch";

  if (!hasOperations) {
    const patch = args.patch;
    if (typeof patch !== "string") return "patch must be a string";
    const parsed = safeParsePatch(patch);
    return parsed.ok ? undefined : parsed.code;
  }

  const operations = args.operations;
  if (!Array.isArray(operations) || operations.length < 1 || operations.length > MAX_WRITE_OPERATIONS) {
    return `operations must contain 1 to ${MAX_WRITE_OPERATIONS} entries`;
  }
  for (let i = 0; i < operations.length; i++) {
    const failure = checkOperation(operations[i], `operations[${i}]`);
    if (failure !== undefined) return failure;
  }
  return undefined;
}

/** Checks 7–15 of effects.md §9 for one operation; `at` is `operations[i]`. */
function checkOperation(operation: unknown, at: string): string | undefined {
  if (!isPlainObject(operation)) return `${at} must be an object`;
  const path = operation.path;
  if (typeof path !== "string" || path.length === 0) return `${at}.path must be a nonempty string`;
  const mode = operation.mode;
  if (typeof mode !== "string" || !hasOwn(FIELD_SETS, mode)) return `${at}.mode is invalid`;
  const fields = FIELD_SETS[mode as WriteFileMode];
  for (const key of Object.keys(operation)) {
    if (!fields.includes(key)) return `${at} has an invalid field for ${mode}`;
  }
  for (const field of fields) {
    if (!hasOwn(operation, field)) return `${at} missing ${field}`;
  }
  if (mode !== "replace_text" && typeof operation.content !== "string")
    return `${at}.content must be a string`;
  if (mode === "replace_text") {
    const oldText = operation.old_text;
    if (typeof oldText !== "string" || oldText.length === 0 || typeof operation.new_text !== "string") {
      return `${at} requires nonempty old_text and string new_text`;
    }
  }
  if (mode === "replace_lines") {
    const start = operation.start_line;
    const end = operation.end_line;
    if (
      !Number.isSafeInteger(start) ||
      !Number.isSafeInteger(end) ||
      (start as number) < 1 ||
      (start as number) > (end as number) ||
      (end as number) > MAX_LINE_NUMBER
    ) {
      return `${at} has invalid line range`;
    }
    const sha = operation.expected_sha256;
    if (typeof sha !== "string" || !SHA256_HEX.test(sha))
      return `${at}.expected_sha256 must be lowercase SHA-256`;
  }
  return undefined;
}
