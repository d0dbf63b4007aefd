import { MAX_SOURCE_BYTES } from "@raw/effects";

/** The local id of `write_file`'s sidebar panel (effects.md §6.1). */
export const FILES_PANEL = "files_changed";

/** Length of the placeholder `error` in the worst-case rows of the output budget check (effects.md §8.1). */
export const WORST_CASE_ERROR_CHARS = 120;

/** `bytes_written` of a worst-case patch row (effects.md §8.1). */
export const WORST_CASE_BYTES_WRITTEN = 999_999_999;

/** The placeholder `error` of a worst-case row: 120 × `x`. */
export const WORST_CASE_ERROR = "x".repeat(WORST_CASE_ERROR_CHARS);

/** An operation row's OS error code is used when it matches this; otherwise `write_error` (effects.md §8.2). */
export const OPERATION_OS_CODE = /^[A-Za-z0-9_]+$/;

/** A patch OS error code passes through when it matches this; otherwise `patch_io_error` (effects.md §8.3.1). */
export const PATCH_OS_CODE = /^[A-Za-z0-9_]{1,80}$/;

/** The handler's output budget message for the operations form (effects.md §8.4). */
export const OPERATIONS_BUDGET_MESSAGE = "write batch outcomes exceed output budget";

/** The handler's output budget message for the patch form (effects.md §8.4). */
export const PATCH_BUDGET_MESSAGE = "patch outcomes exceed output budget";

/** The code of a result whose rows cannot fit the output budget (effects.md §8.4). */
export const OUTPUT_BUDGET_TOO_SMALL = "output_budget_too_small";

/** Most bytes `replace_text` and `replace_lines` read from a file: 16 MiB, the patch form's per-file limit (A3). */
export const MAX_OPERATION_READ_BYTES = MAX_SOURCE_BYTES;

/** Size of one read or write of `write_file`; the abort signal is checked before each chunk (A3). */
export const WRITE_FILE_IO_CHUNK_BYTES = 1_048_576;

/** The row error of a path that exists and is not a regular file after following links (A3). */
export const NOT_REGULAR_FILE = "not_regular_file";

/** The row error of a `replace_text` or `replace_lines` file larger than `MAX_OPERATION_READ_BYTES` (A3). */
export const FILE_TOO_LARGE = "file_too_large";
