import { utf8Length } from "../shared/results.js";
import { MAX_BASH_COMMAND_BYTES, MAX_BASH_COMMANDS, MAX_BASH_TIMEOUT_MS } from "./limits.js";

const ROOT_KEYS = new Set(["commands"]);
const COMMAND_KEYS = new Set(["command", "timeout_ms"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `validateArgs` of `bash`: the checks the JSON Schema cannot express (a command's UTF-8 byte length, NUL) and,
 * when called directly, the schema's own checks, first failure wins. Returns `undefined` when valid.
 */
export function validateArgs(args: unknown): string | undefined {
  if (!isObject(args)) return "arguments must be an object";
  for (const key of Object.keys(args)) {
    if (!ROOT_KEYS.has(key)) return `unknown bash property ${JSON.stringify(key)}`;
  }
  const commands = args.commands;
  if (!Array.isArray(commands) || commands.length < 1 || commands.length > MAX_BASH_COMMANDS) {
    return `commands must contain 1 to ${MAX_BASH_COMMANDS} entries`;
  }
  for (let i = 0; i < commands.length; i++) {
    const entry: unknown = commands[i];
    if (!isObject(entry)) return `commands[${i}] must be an object`;
    for (const key of Object.keys(entry)) {
      if (!COMMAND_KEYS.has(key)) return `commands[${i}] has an unknown field ${JSON.stringify(key)}`;
    }
    const command = entry.command;
    if (typeof command !== "string" || command === "")
      return `commands[${i}].command must be a nonempty string`;
    if (utf8Length(command) > MAX_BASH_COMMAND_BYTES) {
      return `commands[${i}].command must be at most ${MAX_BASH_COMMAND_BYTES} bytes`;
    }
    if (command.includes("\u0000")) return `commands[${i}].command must not contain NUL`;
    const timeout = entry.timeout_ms;
    if (
      timeout !== undefined &&
      (!Number.isSafeInteger(timeout) || (timeout as number) < 1 || (timeout as number) > MAX_BASH_TIMEOUT_MS)
    ) {
      return `commands[${i}].timeout_ms must be an integer from 1 to ${MAX_BASH_TIMEOUT_MS}`;
    }
  }
  return undefined;
}
