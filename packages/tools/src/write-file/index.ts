/** The reference `write_file` tool (effects.md §6–§9): handler, `validateArgs` and `describeEffects`. */
import { PATCH_CODES, type PatchCode, validateWriteFileArgs, writeFileArgsHint } from "@raw/effects";

export { describeWriteFileEffects as describeEffects } from "@raw/effects";
export { handler } from "./handler.js";

/**
 * `validateArgs` of the bundled tool: the message of effects.md §9 (for a bad patch, the parser code), and for a
 * patch the model wrote in another patch or diff format a second line `hint: ...` saying what to write instead
 * (issue 13). The first line is always the contract message.
 */
export function validateArgs(args: unknown): string | undefined {
  const message = validateWriteFileArgs(args);
  if (message === undefined || !PATCH_CODES.includes(message as PatchCode)) return message;
  const hint = writeFileArgsHint(args);
  return hint === undefined ? message : `${message}\nhint: ${hint}`;
}
