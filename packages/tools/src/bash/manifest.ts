import {
  BASH_COMMAND_ECHO_BYTES,
  BASH_KILL_GRACE_MS,
  DEFAULT_BASH_TIMEOUT_MS,
  MAX_BASH_COMMAND_BYTES,
  MAX_BASH_COMMANDS,
  MAX_BASH_TIMEOUT_MS,
} from "./limits.js";

/** The input schema of `bash`. */
export const BASH_INPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["commands"],
  properties: {
    commands: {
      type: "array",
      minItems: 1,
      maxItems: MAX_BASH_COMMANDS,
      description: "Commands to run in order; the first one that fails stops the rest.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["command"],
        properties: {
          command: {
            type: "string",
            minLength: 1,
            maxLength: MAX_BASH_COMMAND_BYTES,
            description: `A POSIX shell command line run with /bin/sh -c (at most ${MAX_BASH_COMMAND_BYTES} UTF-8 bytes).`,
          },
          timeout_ms: {
            type: "integer",
            minimum: 1,
            maximum: MAX_BASH_TIMEOUT_MS,
            description: `Timeout for this command in milliseconds (default ${DEFAULT_BASH_TIMEOUT_MS}, at most ${MAX_BASH_TIMEOUT_MS}).`,
          },
        },
      },
    },
  },
} as const;

/** The model-facing description of `bash`. */
export const BASH_DESCRIPTION = [
  `Runs 1 to ${MAX_BASH_COMMANDS} shell commands in order, each with /bin/sh -c in the session working directory, with no standard input.`,
  `Each command may take ${MAX_BASH_COMMAND_BYTES} bytes and has its own timeout (timeout_ms, default ${DEFAULT_BASH_TIMEOUT_MS / 60_000} minutes, at most ${MAX_BASH_TIMEOUT_MS / 60_000} minutes).`,
  `Each command runs as the leader of a new session. A command that times out, or a cancelled call, is stopped with SIGTERM, then SIGKILL after ${BASH_KILL_GRACE_MS} ms, sent to every process of its session; when a command ends, every process still in its session is killed, background jobs included (on Linux; elsewhere only its process group). A process that leaves the session (setsid, daemons) is not stopped.`,
  "Execution stops at the first command that fails (non-zero exit status, signal, timeout): later commands are not run and are reported as skipped with error `prior_command_failure`. Commands do not share shell state (a `cd` or variable does not carry over), so chain dependent steps in one command with && .",
  'Result: one JSON value {"results":[...]} with one row per command: `index`, `command` (echoed, cut to ' +
    BASH_COMMAND_ECHO_BYTES +
    " bytes), `status` (`ok`, `error` or `skipped`), `exit_code` or `signal`, `timed_out`, `error` (`aborted`, `prior_command_failure` or a spawn error code), and `stdout` and `stderr` captured separately. Output is bounded: when the rows would exceed the output budget, the budget is shared between the outputs and the middle of a long output is replaced by a marker `[… N bytes omitted …]`, with `truncated: true` on the row. The call is an error when any row is not ok.",
].join("\n");

/** The `tool.json` of `bash`. */
export const BASH_MANIFEST = {
  api_version: 2,
  id: "bash",
  version: "1.0.0",
  name: "bash",
  description: BASH_DESCRIPTION,
  input_schema: BASH_INPUT_SCHEMA,
  entry: "./index.mjs",
  condition_sources: ["arguments"],
} as const;
