import { isAbsolute } from "node:path";
import { ENTRY_IMPORT_TIMEOUT_MS } from "./entry-child.js";
import type { FileKind, FileReport, LocatedIssue } from "./report.js";
import { runValidation } from "./run-validation.js";
import { ValidateInputError } from "./validate-error.js";

/** Most paths one `validatePaths` call takes. */
export const MAX_VALIDATE_PATHS = 100_000;

/** Longest timeout one entry import may be given, in milliseconds (the `--timeout` bound of `raw validate`). */
export const MAX_VALIDATE_TIMEOUT_MS = 999_999_999;

/** Options of `validatePaths`. */
export interface ValidatePathsOptions {
  /** The folder relative paths are resolved against and shown from (absolute); default `process.cwd()`. */
  cwd?: string;
  /** How long one entry may take to import in the child process, in milliseconds; default 10,000. */
  timeoutMs?: number;
  /** Aborts the run: its child processes end and the promise rejects with code `validate_aborted`. */
  signal?: AbortSignal;
}

/** One issue (or warning) of a validated file: where it is and what to do. */
export type ValidationIssue = LocatedIssue;

/** The validation result of one file. */
export interface FileValidation {
  file: string;
  kind: FileKind;
  ok: boolean;
  issues: ValidationIssue[];
  warnings: ValidationIssue[];
}

/** The report of one run: the shape `raw validate --format json` prints. */
export interface ValidationReport {
  ok: boolean;
  summary: { passed: number; failed: number };
  files: FileValidation[];
}

function settleOptions(options: unknown): { cwd: string; timeoutMs: number; signal?: AbortSignal } {
  if (options === undefined) return { cwd: process.cwd(), timeoutMs: ENTRY_IMPORT_TIMEOUT_MS };
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ValidateInputError("invalid_options", "validatePaths: options must be an object when given");
  }
  const { cwd, timeoutMs, signal } = options as Record<string, unknown>;
  if (cwd !== undefined && (typeof cwd !== "string" || !isAbsolute(cwd) || cwd.includes("\0"))) {
    throw new ValidateInputError(
      "invalid_cwd",
      "validatePaths: options.cwd must be an absolute path",
      "pass process.cwd() or an absolute folder",
    );
  }
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== "number" ||
      !Number.isSafeInteger(timeoutMs) ||
      timeoutMs < 1 ||
      timeoutMs > MAX_VALIDATE_TIMEOUT_MS)
  ) {
    throw new ValidateInputError(
      "invalid_timeout",
      `validatePaths: options.timeoutMs must be a whole number of milliseconds from 1 to ${MAX_VALIDATE_TIMEOUT_MS}`,
    );
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new ValidateInputError("invalid_signal", "validatePaths: options.signal must be an AbortSignal");
  }
  return {
    cwd: (cwd as string | undefined) ?? process.cwd(),
    timeoutMs: (timeoutMs as number | undefined) ?? ENTRY_IMPORT_TIMEOUT_MS,
    ...(signal === undefined ? {} : { signal: signal as AbortSignal }),
  };
}

function checkPaths(paths: unknown): string[] {
  if (!Array.isArray(paths)) {
    throw new ValidateInputError(
      "invalid_paths",
      "validatePaths: paths must be an array of paths",
      'pass e.g. ["tools/my-tool"]',
    );
  }
  if (paths.length > MAX_VALIDATE_PATHS) {
    throw new ValidateInputError(
      "invalid_paths",
      `validatePaths: paths holds more than ${MAX_VALIDATE_PATHS} paths`,
    );
  }
  paths.forEach((path, index) => {
    if (typeof path !== "string" || path === "" || path.includes("\0")) {
      throw new ValidateInputError(
        "invalid_paths",
        `validatePaths: paths[${index}] must be a non-empty path without NUL characters`,
      );
    }
  });
  return [...paths];
}

/** The report of a run from its file reports. */
export function reportOf(reports: readonly FileReport[]): ValidationReport {
  const failed = reports.filter((r) => !r.ok).length;
  return {
    ok: failed === 0,
    summary: { passed: reports.length - failed, failed },
    files: reports.map((r) => ({
      file: r.file,
      kind: r.kind,
      ok: r.ok,
      issues: r.issues,
      warnings: r.warnings,
    })),
  };
}

/**
 * Validates tool folders, hook folders, rules files, panel documents and policy cases (`cases.json`) in one run, as
 * `raw validate` does, and resolves to the report `raw validate --format json` prints. Tool entries (handler
 * modules) are imported in an isolated child process, never in this one. A bad argument rejects with a
 * `ValidateInputError` (a stable `code`); an invalid file is never an exception, it is an issue in the report.
 */
export async function validatePaths(
  paths: readonly string[],
  options?: ValidatePathsOptions,
): Promise<ValidationReport> {
  const checked = checkPaths(paths);
  const settled = settleOptions(options);
  if (settled.signal?.aborted) throw aborted();
  try {
    return reportOf(await runValidation(checked, settled));
  } catch (error) {
    if (settled.signal?.aborted) throw aborted();
    throw error;
  }
}

function aborted(): ValidateInputError {
  return new ValidateInputError("validate_aborted", "validatePaths: the run was aborted (options.signal)");
}
