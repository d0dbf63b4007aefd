/**
 * The table of `raw`'s commands (names, usage forms, options, examples): data only, a leaf module. Command modules
 * and the argument parser read it; it imports none of them (their loaders are `src/command-loaders.ts`), so no
 * import cycle runs through it.
 */
import type { CliIo } from "../support/io.js";

/** What every command module exports: `run(argv, io)` resolves to the exit code. */
export interface CommandModule {
  run(argv: string[], io: CliIo): Promise<number>;
}

/** One option of a command form: its type, how usage shows its value, and what it does. */
export interface OptionDefinition {
  type: "string" | "boolean";
  /** The option may be given several times (`--hook a --hook b`). */
  multiple?: boolean;
  /** The value placeholder usage shows (`file` → `<file>`); `choices` are shown instead when given. */
  value?: string;
  /** The only values the option takes (a usage error names them otherwise). */
  choices?: readonly string[];
  /** The value when the option is absent (a choice option). */
  default?: string;
  /** The form needs the option (`--args is required` otherwise). */
  required?: boolean;
  /** One line for `raw help <command>`. */
  summary: string;
}

/** One positional argument of a command form. */
export interface PositionalDefinition {
  /** Its name, as "missing argument <name>" says it. */
  name: string;
  /** The argument may repeat (`<path...>`); at least one is needed unless `optional`. */
  variadic?: boolean;
  /** The argument may be left out. */
  optional?: boolean;
  /** The only values it takes; usage shows them instead of the name. */
  choices?: readonly string[];
  /** Most values a variadic argument takes. */
  max?: number;
}

/** One way to call a command: one usage line. */
export interface CommandForm {
  /** The subcommand word that selects this form (`raw policy explain ...`). */
  sub?: string;
  /** A boolean option that selects this form when given (`raw schema --vscode`). */
  flag?: string;
  positionals: readonly PositionalDefinition[];
  options: Readonly<Record<string, OptionDefinition>>;
  /** What follows a `--` (usage text), for forms that take a command line there. */
  rest?: string;
}

/** A command: its summary, usage forms and examples (its module's loader is in `COMMAND_LOADERS`). */
export interface CommandDefinition {
  summary: string;
  /** What the first word of a form is called in usage errors ("subcommand", "kind"). */
  subLabel?: string;
  forms: readonly CommandForm[];
  /** Command lines `raw help <command>` shows (without the leading `raw `). */
  examples: readonly string[];
  /** Packages the command needs that the CLI does not install by itself (optional peers), with the install line. */
  peers?: { packages: readonly string[]; install: string };
}

/** Most documents one `raw panel render` reads. */
export const MAX_RENDER_FILES = 64;

const FORMAT_TEXT_JSON: OptionDefinition = {
  type: "string",
  choices: ["text", "json"],
  default: "text",
  summary: "the output format",
};
const FORMAT_REPORT: OptionDefinition = {
  type: "string",
  choices: ["text", "json", "github"],
  default: "text",
  summary: "the report format (github: workflow annotations)",
};
const ARGS: OptionDefinition = {
  type: "string",
  value: "json|@file",
  required: true,
  summary: "the call's arguments: inline JSON, or @ and a file holding it",
};
const RULES: OptionDefinition = {
  type: "string",
  value: "file",
  summary: "a rules file (JSON array of rules)",
};
const HOOK: OptionDefinition = {
  type: "string",
  value: "dir",
  multiple: true,
  summary: "a hook folder by path, or a bundled hook by name (repeatable)",
};
const TOOL: OptionDefinition = {
  type: "string",
  value: "dir",
  multiple: true,
  summary: "a tool folder by path, loaded beside the bundled tools (repeatable)",
};
const CWD: OptionDefinition = {
  type: "string",
  value: "dir",
  summary: "the session's working folder (default: the current folder)",
};
const STATE: OptionDefinition = {
  type: "string",
  value: "file",
  summary: "keep interaction requests in this SQLite file (they survive a restart)",
};
const OUT: OptionDefinition = { type: "string", value: "dir", summary: "write the files into this folder" };

const SCHEMA_OUT: OptionDefinition = {
  ...OUT,
  summary:
    "write the schema files into this folder (with --vscode the setting points at them: works offline)",
};

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
  | "acp"
  | "serve";

/**
 * Every command of `raw`, defined once: usage, `raw help <command>`, `raw <command> --help`, the global help and the
 * argument parsing (`parseCommand`) are all generated from this table. Command modules are imported only when their
 * command runs (`COMMAND_LOADERS` of `src/command-loaders.ts`), so `raw validate` never loads the server, MCP or web
 * code.
 */
export const COMMANDS: Readonly<Record<CommandName, CommandDefinition>> = {
  validate: {
    summary: "check tool folders, hook folders, rules files, panel documents and policy cases",
    forms: [
      {
        positionals: [{ name: "path", variadic: true }],
        options: {
          format: FORMAT_REPORT,
          timeout: { type: "string", value: "ms", summary: "how long a tool entry may take to import" },
        },
      },
    ],
    examples: ["validate tools/*/ hooks/guard rules.json", "validate tools/*/ --format github"],
  },
  schema: {
    summary: "print or write a JSON Schema, or the editor setting that maps every document kind to them",
    forms: [
      {
        positionals: [
          {
            name: "schema",
            choices: ["tool", "hook", "rules", "panel-document", "cases", "mcp-proxy-config"],
          },
        ],
        options: { out: SCHEMA_OUT },
      },
      {
        flag: "vscode",
        positionals: [],
        options: {
          vscode: {
            type: "boolean",
            required: true,
            summary: "print the VS Code json.schemas setting for every kind raw validate checks",
          },
          out: SCHEMA_OUT,
        },
      },
    ],
    examples: ["schema tool", "schema --vscode --out .vscode/schemas"],
  },
  init: {
    summary: "scaffold a valid tool or hook folder with a test you can run",
    subLabel: "kind",
    forms: [
      { sub: "tool", positionals: [{ name: "dir" }], options: {} },
      { sub: "hook", positionals: [{ name: "dir" }], options: {} },
    ],
    examples: ["init tool tools/touch"],
  },
  policy: {
    summary: "explain which rule decides a call, or check rules against expected decisions",
    forms: [
      {
        sub: "explain",
        positionals: [{ name: "identity" }],
        options: {
          rules: { ...RULES, required: true },
          args: { ...ARGS, required: false, summary: "the call's arguments (for conditional rules)" },
          effects: {
            type: "string",
            value: "json|@file",
            summary: "the call's intended effects (for conditional rules)",
          },
          format: FORMAT_TEXT_JSON,
        },
      },
      {
        sub: "test",
        positionals: [{ name: "rules.json" }, { name: "cases.json" }],
        options: { format: FORMAT_TEXT_JSON },
      },
    ],
    examples: [
      'policy explain --rules rules.json builtin/bash --args \'{"commands":[{"command":"ls"}]}\'',
      "policy test rules.json cases.json",
    ],
  },
  call: {
    summary: "run one call of a bundled (or --tool) tool through the whole pipeline and print each step",
    forms: [
      {
        positionals: [{ name: "tool" }],
        options: {
          args: ARGS,
          rules: RULES,
          hook: HOOK,
          tool: TOOL,
          cwd: CWD,
          approve: {
            type: "string",
            choices: ["yes", "no", "ask"],
            default: "ask",
            summary: "answer approval questions (ask: prompt in a terminal)",
          },
          format: FORMAT_TEXT_JSON,
          state: STATE,
        },
      },
    ],
    examples: ['call todo --args \'{"mode":"replace","items":[{"id":"a","label":"Write tests"}]}\''],
  },
  effects: {
    summary: "print the intended effects of a call, computed by the real pipeline",
    forms: [
      {
        positionals: [{ name: "tool" }],
        options: { args: ARGS, tool: TOOL, cwd: CWD, format: FORMAT_TEXT_JSON },
      },
    ],
    examples: [
      'effects write_file --args \'{"operations":[{"path":"a.txt","mode":"overwrite","content":"x"}]}\'',
    ],
  },
  hook: {
    summary: "run a hook folder once with an event payload and print its answer",
    forms: [
      {
        sub: "run",
        positionals: [{ name: "dir" }],
        options: {
          event: {
            type: "string",
            value: "event",
            required: true,
            summary: "the hook event (PreToolUse, ...)",
          },
          payload: {
            type: "string",
            value: "json|@file",
            required: true,
            summary: "the event's fields: inline JSON, or @ and a file holding it",
          },
          cwd: CWD,
          format: FORMAT_TEXT_JSON,
        },
      },
    ],
    examples: ["hook run guard --event PreToolUse --payload @payload.json"],
  },
  panel: {
    summary: "render a panel document as text, or validate it",
    forms: [
      {
        sub: "render",
        positionals: [{ name: "file", variadic: true, max: MAX_RENDER_FILES }],
        options: {
          title: { type: "string", value: "title", summary: "the panel title (one document)" },
          select: { type: "string", value: "id", summary: "the panel shown selected" },
        },
      },
      { sub: "validate", positionals: [{ name: "file" }], options: { format: FORMAT_REPORT } },
    ],
    examples: ["panel render panel.json", "panel validate panel.json --format json"],
  },
  demo: {
    summary: "a short scripted session with the bundled tools, rules and hooks",
    forms: [
      {
        positionals: [],
        options: { web: { type: "boolean", summary: "play the session on a local web page" } },
      },
    ],
    examples: ["demo"],
  },
  mcp: {
    summary: "serve Raw tools over MCP, or put Raw rules, hooks and approval in front of an MCP server",
    forms: [
      {
        sub: "serve",
        positionals: [],
        options: {
          tool: TOOL,
          rules: RULES,
          hook: HOOK,
          cwd: CWD,
          http: {
            type: "string",
            value: "host:port",
            summary: "serve Streamable HTTP there instead of stdio (needs the bearer token in RAW_MCP_TOKEN)",
          },
        },
      },
      {
        sub: "proxy",
        positionals: [],
        rest: "<server command...>",
        options: {
          rules: RULES,
          config: {
            type: "string",
            value: "file",
            summary: "a JSON config: the server's panels (each naming its MCP tool), rules, hooks",
          },
          hook: HOOK,
          name: { type: "string", value: "server", summary: "the server's name in identities" },
          cwd: CWD,
          trace: { type: "string", value: "file", summary: "append every MCP message to this file" },
          http: {
            type: "string",
            value: "host:port",
            summary: "serve Streamable HTTP there instead of stdio (needs the bearer token in RAW_MCP_TOKEN)",
          },
        },
      },
      {
        sub: "tools",
        positionals: [],
        rest: "<server command...>",
        options: {
          name: { type: "string", value: "server", summary: "the server's name in identities" },
          format: FORMAT_TEXT_JSON,
        },
      },
    ],
    examples: [
      "mcp serve --rules rules.json",
      "mcp proxy --rules rules.json -- npx -y @modelcontextprotocol/server-filesystem .",
    ],
    peers: {
      packages: ["@modelcontextprotocol/sdk", "zod"],
      install: "npm install @modelcontextprotocol/sdk@1 zod@4",
    },
  },
  acp: {
    summary:
      "an ACP agent on stdio for editors (Zed, JetBrains): run tools with Raw rules, hooks and approval",
    forms: [
      {
        positionals: [],
        options: {
          tool: TOOL,
          rules: RULES,
          hook: HOOK,
          cwd: CWD,
          state: STATE,
          driver: {
            type: "string",
            value: "module",
            summary: "a module exporting the turn driver (default: command mode, `<tool> <JSON arguments>`)",
          },
        },
      },
      {
        sub: "proxy",
        positionals: [],
        rest: "<agent command...>",
        options: {
          rules: RULES,
          hook: HOOK,
          name: {
            type: "string",
            value: "agent",
            summary: "the agent's name in identities (acp/<agent>/...)",
          },
          cwd: CWD,
          explain: { type: "boolean", summary: "print the identities the gate uses for the agent and exit" },
        },
      },
    ],
    examples: ["acp --rules rules.json --hook guard", "acp proxy --rules rules.json -- npx my-acp-agent"],
    peers: {
      packages: ["@agentclientprotocol/sdk", "zod"],
      install: "npm install @agentclientprotocol/sdk@2 zod@4",
    },
  },
  serve: {
    summary: "a local web page: call tools, approve, answer forms and watch panels live",
    forms: [
      {
        positionals: [],
        options: {
          tool: TOOL,
          rules: RULES,
          hook: HOOK,
          cwd: CWD,
          host: {
            type: "string",
            value: "loopback address",
            default: "127.0.0.1",
            summary: "the address to listen on (loopback only)",
          },
          port: { type: "string", value: "n", summary: "the port (default: any free port)" },
          state: STATE,
        },
      },
    ],
    examples: ["serve --rules examples/rules.json --hook guard"],
  },
};

/** True when `name` is a command of `raw`. */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
