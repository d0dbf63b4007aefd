/** The codes of `ValidateInputError`: a bad argument of `validatePaths` or `formatReport`. */
export type ValidateInputCode =
  | "invalid_paths"
  | "invalid_options"
  | "invalid_cwd"
  | "invalid_timeout"
  | "invalid_signal"
  | "invalid_report"
  | "invalid_format"
  | "validate_aborted";

/**
 * A bad argument of `validatePaths` or `formatReport` (a `TypeError` with a stable snake_case `code`, a message
 * naming the field and, where a person can act, a `hint`), or `validate_aborted` when the run's signal aborted.
 */
export class ValidateInputError extends TypeError {
  /** The stable code. */
  readonly code: ValidateInputCode;
  /** What to do about it, when there is something to do. */
  readonly hint: string | undefined;

  constructor(code: ValidateInputCode, message: string, hint?: string) {
    super(message);
    this.name = "ValidateInputError";
    this.code = code;
    this.hint = hint;
  }
}
