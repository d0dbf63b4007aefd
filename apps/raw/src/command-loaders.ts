import type { CommandModule, CommandName } from "./commands/definitions.js";

/**
 * How each command's module is loaded: a dynamic `import()`, so only the command that runs is loaded (`raw validate`
 * never loads the server, MCP or web code). Kept apart from the command table (`commands/definitions.ts`), which the
 * command modules read: the table stays a leaf and no import cycle runs through it.
 */
export const COMMAND_LOADERS: Readonly<Record<CommandName, () => Promise<CommandModule>>> = {
  validate: () => import("./commands/validate.js"),
  schema: () => import("./commands/schema.js"),
  init: () => import("./commands/init.js"),
  policy: () => import("./commands/policy.js"),
  call: () => import("./commands/call.js"),
  effects: () => import("./commands/effects.js"),
  hook: () => import("./commands/hook.js"),
  panel: () => import("./commands/panel.js"),
  demo: () => import("./commands/demo.js"),
  mcp: () => import("./commands/mcp.js"),
  acp: () => import("./commands/acp.js"),
  serve: () => import("./commands/serve.js"),
};
