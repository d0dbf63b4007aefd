/**
 * One contract failure: a stable snake_case `code`, a readable `message`, a JSON Pointer `path` where a location
 * exists, and optionally a `hint`: one sentence a person or model can act on (the expected value, the allowed set,
 * "did you mean ...?"). The hint is guidance beside the contract text; `code` and `message` never depend on it.
 * Schema issues keep the contract's `path` (the schema's pointer, `tool-api.md` §3.4) and add `keywordPath`: the
 * pointer, in the same document, of the offending keyword inside the schema, so a tool can show the exact place.
 */
export type Issue = { code: string; message: string; path?: string; hint?: string; keywordPath?: string };

const BRAND = Symbol.for("raw.contracts.ContractError");

/** The error thrown by the throwing twins of the `parse*`/`validate*` functions; it carries every issue. */
export class ContractError extends Error {
  /** The code of the failure (the first issue's code unless given). */
  readonly code: string;
  /** Every issue found, in the order they were found. */
  readonly issues: Issue[];

  constructor(code: string, message: string, issues: Issue[] = [{ code, message }], options?: ErrorOptions) {
    super(message, options);
    this.name = "ContractError";
    this.code = code;
    this.issues = issues;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** Builds a `ContractError` from issues: the first issue's code, the messages joined with `; `. */
  static fromIssues(issues: Issue[], code?: string): ContractError {
    const first = issues[0];
    return new ContractError(
      code ?? first?.code ?? "contract_error",
      issues.map((i) => i.message).join("; "),
      issues,
    );
  }
}

/** True for a `ContractError`, including one created by another copy of this package. */
export function isContractError(value: unknown): value is ContractError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** Result of a validating-style function: `{ ok: true, ...value }` or `{ ok: false, issues }`. */
export type Validated<T extends object> = ({ ok: true } & T) | { ok: false; issues: Issue[] };

/** The `message` of a thrown value: its string `message` property, or `String(value)` when it has none. */
export function thrownMessage(value: unknown): string {
  try {
    if ((typeof value === "object" && value !== null) || typeof value === "function") {
      const message = (value as { message?: unknown }).message;
      if (typeof message === "string") return message;
    }
    return String(value);
  } catch {
    return "unknown error";
  }
}
