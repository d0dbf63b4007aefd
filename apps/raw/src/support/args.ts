import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { displayPath, readJsonFile } from "./files.js";
import { CliFailure, UsageError } from "./io.js";
import { parseJsonSource } from "./json-source.js";

/** One option of a command. */
export interface OptionSpec {
  type: "string" | "boolean";
  multiple?: boolean;
  short?: string;
}

/** A parsed command line: option values and positionals. */
export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/** Parses `argv` strictly against `options`; any problem is a `UsageError` carrying `usage`. */
export function parseCommandArgs(
  argv: readonly string[],
  options: Record<string, OptionSpec>,
  usage: string,
  positionals: { min: number; max: number },
): ParsedArgs {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true }) as ParsedArgs;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const named = /'([^']+)'/.exec((error as Error).message)?.[1];
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
      throw new UsageError(`unknown option ${named ?? ""}`, usage);
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const option = /--?[\w-]+/.exec((error as Error).message)?.[0] ?? named ?? "an option";
      throw new UsageError(`option ${option} needs a value`, usage);
    }
    throw new UsageError((error as Error).message, usage);
  }
  const count = parsed.positionals.length;
  if (count < positionals.min) throw new UsageError("missing argument", usage);
  if (count > positionals.max) {
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[positionals.max])}`, usage);
  }
  return parsed;
}

/** The string value of an option, or `fallback`. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
}

/** Every value of a repeatable string option. */
export function stringsOption(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? [value] : [];
}

/** A choice option: its value must be one of `choices` (usage error otherwise). */
export function choiceOption<T extends string>(
  args: ParsedArgs,
  name: string,
  choices: readonly T[],
  fallback: T,
  usage: string,
): T {
  const value = stringOption(args, name);
  if (value === undefined) return fallback;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(
      `--${name} must be one of ${choices.join(", ")} (got ${JSON.stringify(value)})`,
      usage,
    );
  }
  return value as T;
}

/**
 * The JSON value of an option given inline (`--args '{"a":1}'`) or as `@file`. Inline JSON that does not parse is a
 * usage error (exit 2); a file that cannot be read or parsed is a coded failure (exit 1). Both name the line and
 * column of a syntax error.
 */
export async function jsonOption(value: string, name: string, cwd: string, usage: string): Promise<unknown> {
  if (value.startsWith("@")) {
    const path = resolve(cwd, value.slice(1));
    const file = await readJsonFile(path, displayPath(path, cwd));
    if (!file.ok) throw new CliFailure(file.code, file.message);
    return file.value;
  }
  const source = parseJsonSource(value);
  if (!source.ok) {
    const { line, column } = source.position;
    throw new UsageError(
      `--${name} is not valid JSON (line ${line}, column ${column}): ${source.message}`,
      usage,
    );
  }
  return source.value;
}

/** A JSON option that must hold an object (usage error otherwise). */
export async function objectOption(
  value: string | undefined,
  name: string,
  cwd: string,
  usage: string,
): Promise<Record<string, unknown> | undefined> {
  if (value === undefined) return undefined;
  const parsed = await jsonOption(value, name, cwd, usage);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--${name} must be a JSON object`, usage);
  }
  return parsed as Record<string, unknown>;
}
