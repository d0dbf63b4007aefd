/** Most commands one `bash` call may run. */
export const MAX_BASH_COMMANDS = 16;

/** Longest command, in UTF-8 bytes. */
export const MAX_BASH_COMMAND_BYTES = 16_384;

/** Per-command timeout when `timeout_ms` is absent: 2 minutes. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;

/** Largest `timeout_ms`: 10 minutes. */
export const MAX_BASH_TIMEOUT_MS = 600_000;

/** Time between `SIGTERM` and `SIGKILL` to the processes of a command's session when it is stopped. */
export const BASH_KILL_GRACE_MS = 1_000;

/** After `SIGKILL`, how long the tool still waits for the output pipes to close before it settles anyway. */
export const BASH_SETTLE_GRACE_MS = 1_000;

/** Most bytes of each stream kept while streaming (half from the start, half from the end), before fitting. */
export const MAX_BASH_CAPTURE_BYTES = 1_048_576;

/** A row's `command` echoes at most this many UTF-8 bytes of the command (then `…`). */
export const BASH_COMMAND_ECHO_BYTES = 256;

/** Longest `error` a row carries, in characters (used for the worst-case row of the budget check). */
export const MAX_BASH_ROW_ERROR_CHARS = 64;
