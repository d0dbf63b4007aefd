import {
  COMMANDS,
  type CommandForm,
  type CommandName,
  type OptionDefinition,
  type PositionalDefinition,
} from "../commands/definitions.js";

export type { CommandName } from "../commands/definitions.js";

/** How usage shows a positional argument: `<name>`, `<a|b>`, `<name...>`, `[<name>]`. */
function positionalText(positional: PositionalDefinition): string {
  const name = positional.choices?.join("|") ?? positional.name;
  const shown = `<${name}${positional.variadic === true ? "..." : ""}>`;
  return positional.optional === true ? `[${shown}]` : shown;
}

/** How usage shows an option: `--args <json|@file>`, `[--format text|json]`, `[--hook <dir>]...`, `[--web]`. */
function optionText(name: string, option: OptionDefinition): string {
  const value =
    option.type === "boolean" ? "" : ` ${option.choices?.join("|") ?? `<${option.value ?? "value"}>`}`;
  const text = `--${name}${value}`;
  if (option.required === true) return text;
  return `[${text}]${option.multiple === true ? "..." : ""}`;
}

/** The usage line of one form of a command. */
export function formUsage(name: CommandName, form: CommandForm): string {
  const parts = [`raw ${name}`];
  if (form.sub !== undefined) parts.push(form.sub);
  // The option that selects a form comes first: `raw schema --vscode [--out <dir>]`.
  if (form.flag !== undefined) {
    const flag = form.options[form.flag];
    if (flag !== undefined) parts.push(optionText(form.flag, flag));
  }
  for (const positional of form.positionals) parts.push(positionalText(positional));
  for (const [option, definition] of Object.entries(form.options)) {
    if (option !== form.flag) parts.push(optionText(option, definition));
  }
  if (form.rest !== undefined) parts.push(`-- ${form.rest}`);
  return parts.join(" ");
}

/** The usage text of a command, one line per form (what usage errors print). */
export function usageOf(name: CommandName): string {
  return COMMANDS[name].forms.map((form) => formUsage(name, form)).join("\n");
}

/** The option lines of `raw help <command>`: each option once, with its summary (and default). */
function optionLines(name: CommandName): string[] {
  const seen = new Map<string, string>();
  for (const form of COMMANDS[name].forms) {
    for (const [option, definition] of Object.entries(form.options)) {
      if (seen.has(option)) continue;
      const value =
        definition.type === "boolean"
          ? ""
          : ` ${definition.choices?.join("|") ?? `<${definition.value ?? "value"}>`}`;
      const fallback = definition.default === undefined ? "" : ` (default: ${definition.default})`;
      seen.set(`--${option}${value}`, `${definition.summary}${fallback}`);
    }
  }
  const width = Math.max(0, ...[...seen.keys()].map((key) => key.length));
  return [...seen].map(([key, summary]) => `  ${key.padEnd(width)}  ${summary}`);
}

/** What `raw help <command>` and `raw <command> --help` print: usage, summary, options and examples. */
export function commandHelpText(name: CommandName): string {
  const command = COMMANDS[name];
  const lines = [`usage: ${usageOf(name).replaceAll("\n", "\n       ")}`, "", command.summary];
  const options = optionLines(name);
  if (options.length > 0) lines.push("", "Options:", ...options);
  lines.push("", command.examples.length === 1 ? "Example:" : "Examples:");
  for (const example of command.examples) lines.push(`  raw ${example}`);
  return `${lines.join("\n")}\n`;
}

/** What `raw --help` prints: every command with its summary and usage, then the exit codes. */
export function globalHelpText(): string {
  const lines = [
    "usage: raw <command> [options]   (--debug shows the stack of an unexpected error)",
    "",
    "Commands:",
  ];
  for (const [name, command] of Object.entries(COMMANDS))
    lines.push(`  ${name.padEnd(9)} ${command.summary}`);
  lines.push("", "Usage:");
  for (const name of Object.keys(COMMANDS) as CommandName[])
    lines.push(`  ${usageOf(name).replaceAll("\n", "\n  ")}`);
  lines.push(
    "",
    'Run "raw help <command>" for a command\'s options and an example.',
    "",
    "Exit codes: 0 ok, 1 validation or contract failure, 2 usage error, 130 interrupted (Ctrl-C).",
  );
  return `${lines.join("\n")}\n`;
}
