import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { displayPath, parseJsonSource, readJsonFile } from "@raw/validate";
import { COMMANDS, type CommandForm, type CommandName } from "../commands/definitions.js";
import { CliFailure, UsageError } from "./io.js";
import { closeName, rankByNearness } from "./nearest.js";
import { usageOf } from "./usage.js";

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
      throw new UsageError(unknownOptionMessage(named ?? "", Object.keys(options)), usage);
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

/** Most option names an "unknown option" message lists. */
const MAX_LISTED_OPTIONS = 8;

/** `unknown option --tols; did you mean --tool?`, or the known options, nearest first. */
function unknownOptionMessage(given: string, known: readonly string[]): string {
  const bare = given.replace(/^--?/, "").replace(/=.*$/s, "");
  const shown = JSON.stringify(given).slice(1, -1);
  const near = closeName(bare, known);
  if (near !== undefined) return `unknown option ${shown}; did you mean --${near}?`;
  if (known.length === 0) return `unknown option ${shown}; this command takes no options`;
  const listed = rankByNearness(bare, known)
    .slice(0, MAX_LISTED_OPTIONS)
    .map((name) => `--${name}`);
  return `unknown option ${shown}; known options, nearest first: ${listed.join(", ")}`;
}

/** "a", "a or b", "a, b or c". */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** A command line parsed against its command's definition: the form it selected, options, positionals. */
export interface ParsedCommand extends ParsedArgs {
  /** The subcommand word of the form (`explain`), when the command has subcommands. */
  sub: string | undefined;
  /** What followed `--`, for forms that take a command line there (`raw mcp proxy ... -- <command>`). */
  rest: string[];
  /** The command's usage text (for later usage errors of the command). */
  usage: string;
}

/** The form `argv` selects: by its subcommand word, by a selecting flag, or the command's only form. */
function selectForm(
  name: CommandName,
  argv: readonly string[],
  usage: string,
): { form: CommandForm; args: string[] } {
  const { forms, subLabel = "subcommand" } = COMMANDS[name];
  const subs = forms.flatMap((form) => (form.sub === undefined ? [] : [form.sub]));
  if (subs.length > 0) {
    const [first, ...rest] = argv;
    // A command with subcommands may keep a bare form (`raw acp` besides `raw acp proxy`).
    const bare = forms.find((f) => f.sub === undefined);
    if (bare !== undefined && !subs.includes(first ?? "")) return { form: bare, args: [...argv] };
    if (first === undefined) throw new UsageError(`missing ${subLabel} (${orList(subs)})`, usage);
    const form = forms.find((f) => f.sub === first);
    if (form === undefined) {
      const near = closeName(first, subs);
      throw new UsageError(
        `unknown ${subLabel} ${JSON.stringify(first)}: ${near === undefined ? `use ${orList(subs)}` : `did you mean ${near}?`}`,
        usage,
      );
    }
    return { form, args: rest };
  }
  const end = argv.indexOf("--");
  const head = end === -1 ? argv : argv.slice(0, end);
  const flagged = forms.find((form) => form.flag !== undefined && head.includes(`--${form.flag}`));
  const form = flagged ?? forms.find((f) => f.flag === undefined) ?? forms[0];
  if (form === undefined) throw new Error(`raw ${name} has no usage form`);
  return { form, args: [...argv] };
}

/**
 * Parses a command line against the command's definition (`COMMANDS`): unknown options name the nearest known one,
 * a missing argument is named, choices and required options are checked and defaults filled in. Any problem is a
 * `UsageError` carrying the command's usage (exit 2).
 */
export function parseCommand(name: CommandName, argv: readonly string[]): ParsedCommand {
  const usage = usageOf(name);
  const { form, args } = selectForm(name, argv, usage);
  let options = args;
  let rest: string[] = [];
  if (form.rest !== undefined) {
    const end = args.indexOf("--");
    if (end !== -1) {
      options = args.slice(0, end);
      rest = args.slice(end + 1);
    }
  }
  const specs: Record<string, OptionSpec> = {};
  for (const [option, definition] of Object.entries(form.options)) {
    specs[option] =
      definition.multiple === true ? { type: definition.type, multiple: true } : { type: definition.type };
  }
  const positionals = form.positionals;
  const required = positionals.filter((p) => p.optional !== true).length;
  const max = positionals.some((p) => p.variadic === true)
    ? Math.max(...positionals.map((p) => p.max ?? Number.POSITIVE_INFINITY))
    : positionals.length;
  const parsed = parseCommandArgs(options, specs, usage, { min: 0, max });
  const given = parsed.positionals;
  if (given.length < required) {
    const missing = positionals[given.length];
    const choices = missing?.choices === undefined ? "" : ` (${orList(missing.choices)})`;
    throw new UsageError(`missing argument <${missing?.name ?? "argument"}>${choices}`, usage);
  }
  positionals.forEach((positional, i) => {
    const value = given[i];
    if (positional.choices === undefined || value === undefined || positional.choices.includes(value)) return;
    const near = closeName(value, positional.choices);
    throw new UsageError(
      `unknown ${positional.name} ${JSON.stringify(value)}: ${near === undefined ? `use one of ${positional.choices.join(", ")}` : `did you mean ${near}?`}`,
      usage,
    );
  });
  for (const [option, definition] of Object.entries(form.options)) {
    const value = parsed.values[option];
    if (value === undefined) {
      if (definition.required === true) throw new UsageError(`--${option} is required`, usage);
      if (definition.default !== undefined) parsed.values[option] = definition.default;
      continue;
    }
    if (definition.choices === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      if (typeof one === "string" && !definition.choices.includes(one)) {
        throw new UsageError(
          `--${option} must be one of ${definition.choices.join(", ")} (got ${JSON.stringify(one)})`,
          usage,
        );
      }
    }
  }
  return { ...parsed, sub: form.sub, rest, usage };
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
