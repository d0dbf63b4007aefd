import { utf8Length } from "../shared/results.js";
import type { BashArgs } from "./handler.js";
import { MAX_BASH_COMMAND_BYTES } from "./limits.js";

/**
 * `validateArgs` of `bash`: only the checks the JSON Schema cannot express, first failure wins (dispatch runs the
 * input schema first: object shape, known fields, 1 to 16 commands, non-empty commands, `timeout_ms` range). A
 * command's length in UTF-8 bytes (the schema counts characters) and a NUL byte, which no `exec` can pass.
 * Returns `undefined` when valid.
 */
export function validateArgs(args: BashArgs): string | undefined {
  for (const [i, { command }] of args.commands.entries()) {
    if (utf8Length(command) > MAX_BASH_COMMAND_BYTES) {
      return `commands[${i}].command must be at most ${MAX_BASH_COMMAND_BYTES} bytes`;
    }
    if (command.includes("\u0000")) return `commands[${i}].command must not contain NUL`;
  }
  return undefined;
}
