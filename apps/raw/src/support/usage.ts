/** The command names of `raw`. */
export type CommandName =
  | "validate"
  | "schema"
  | "init"
  | "policy"
  | "call"
  | "effects"
  | "hook"
  | "panel"
  | "demo"
  | "mcp"
  | "serve";

/** Usage and a one-line summary of each command (what `raw --help` and usage errors print). */
export const COMMAND_HELP: Readonly<Record<CommandName, { usage: string; summary: string }>> = {
  validate: {
    usage: "raw validate <path...> [--format text|json|github] [--timeout <ms>]",
    summary: "check tool folders, hook folders, rules files, panel documents and policy cases",
  },
  schema: {
    usage:
      "raw schema <tool|hook|rules|panel-document|cases> [--out <dir>]\nraw schema --vscode [--out <dir>]",
    summary: "print or write a JSON Schema, or the editor setting that maps tool.json and hook.json to them",
  },
  init: {
    usage: "raw init tool <dir>\nraw init hook <dir>",
    summary: "scaffold a valid tool or hook folder with a test you can run",
  },
  policy: {
    usage:
      "raw policy explain --rules <file> <identity> [--args <json|@file>] [--effects <json|@file>] [--format text|json]\n" +
      "raw policy test <rules.json> <cases.json> [--format text|json]",
    summary: "explain which rule decides a call, or check rules against expected decisions",
  },
  call: {
    usage:
      "raw call <tool> --args <json|@file> [--rules <file>] [--hook <dir>]... [--tool <dir>]... [--cwd <dir>] [--approve yes|no|ask] [--format text|json] [--state <file>]",
    summary: "run one call of a bundled (or --tool) tool through the whole pipeline and print each step",
  },
  effects: {
    usage: "raw effects <tool> --args <json|@file> [--tool <dir>]... [--cwd <dir>] [--format text|json]",
    summary: "print the intended effects of a call, computed by the real pipeline",
  },
  hook: {
    usage: "raw hook run <dir> --event <event> --payload <json|@file> [--cwd <dir>] [--format text|json]",
    summary: "run a hook folder once with an event payload and print its answer",
  },
  panel: {
    usage:
      "raw panel render <file...> [--title <title>] [--select <id>]\nraw panel validate <file> [--format text|json|github]",
    summary: "render a panel document as text, or validate it",
  },
  demo: {
    usage: "raw demo [--web]",
    summary: "a short scripted session with the bundled tools, rules and hooks",
  },
  mcp: {
    usage:
      "raw mcp serve [--tool <dir>]... [--rules <file>] [--hook <dir>]... [--cwd <dir>] [--http <host:port>]\n" +
      "raw mcp proxy --rules <file> [--hook <dir>]... [--name <server>] [--cwd <dir>] [--trace <file>] -- <server command...>\n" +
      "raw mcp tools [--name <server>] [--format text|json] -- <server command...>",
    summary: "serve Raw tools over MCP, or put Raw rules, hooks and approval in front of an MCP server",
  },
  serve: {
    usage:
      "raw serve [--tool <dir>]... [--rules <file>] [--hook <dir>]... [--cwd <dir>] [--host <loopback address>] [--port <n>] [--state <file>]",
    summary: "a local web page: call tools, approve, answer forms and watch panels live",
  },
};

/** The usage text of a command, as usage errors print it. */
export function usageOf(name: CommandName): string {
  return COMMAND_HELP[name].usage;
}
