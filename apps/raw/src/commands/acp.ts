import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type AcpMcpServer,
  type AcpTurnDriver,
  createAcpGate,
  explainGate,
  gateTools,
  identitySafeName,
  probeAgentName,
  serveAcpAgent,
  stdioStream,
} from "@raw/acp";
import { openHostSession } from "@raw/host";
import type { ToolRegistry } from "@raw/tool-api";
import { type ParsedCommand, parseCommand, stringOption } from "../support/args.js";
import { CliFailure, type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK } from "../support/io.js";
import { loadWorkspace, workspaceRequest } from "../support/load-workspace.js";
import { displayLine } from "../support/present.js";
import { openStateStore } from "../support/state-store.js";
import { sessionCwd } from "./call.js";

/** How long `raw acp` waits for an MCP server of `session/new.mcpServers` to start and list its tools, in ms. */
export const ACP_MCP_CONNECT_TIMEOUT_MS = 60_000;

function pairs(list: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  for (const entry of list as Array<{ name?: unknown; value?: unknown }>) {
    if (typeof entry?.name === "string" && typeof entry.value === "string") out[entry.name] = entry.value;
  }
  return out;
}

/** Mounts one MCP server of `session/new.mcpServers` as `mcp/<server>/<tool>` (`@raw/mcp`, loaded on first use). */
async function mountServer(registry: ToolRegistry, server: AcpMcpServer, cwd: string) {
  const { mountMcpServer } = await import("@raw/mcp");
  const common = {
    name: server.name,
    connectTimeoutMs: ACP_MCP_CONNECT_TIMEOUT_MS,
    onWarning: (warning: { code: string; message: string }) =>
      process.stderr.write(`raw acp: ${displayLine(warning.code)}: ${displayLine(warning.message)}\n`),
  };
  if (server.type === "http" && typeof server.url === "string") {
    return mountMcpServer(registry, { ...common, url: server.url, headers: pairs(server.headers) });
  }
  if (typeof server.command !== "string") {
    throw new CliFailure(
      "mcp_server_unsupported",
      `MCP server ${displayLine(server.name)}: only stdio and http`,
    );
  }
  return mountMcpServer(registry, {
    ...common,
    command: server.command,
    args: Array.isArray(server.args) ? (server.args as string[]) : [],
    env: { ...process.env, ...pairs(server.env) },
    cwd,
    // stdout is the ACP channel: a server's stderr goes to this process's stderr.
    stderr: "inherit",
  });
}

/** Loads `--driver <module>`: its `driver` export, else its default export, must be a function (`AcpTurnDriver`). */
async function loadDriver(path: string, here: string): Promise<AcpTurnDriver> {
  const loaded = (await import(pathToFileURL(resolve(here, path)).href)) as {
    driver?: unknown;
    default?: unknown;
  };
  const driver = loaded.driver ?? loaded.default;
  if (typeof driver !== "function") {
    throw new CliFailure(
      "driver_invalid",
      `--driver ${path} exports no function named driver (nor a default one)`,
    );
  }
  return driver as AcpTurnDriver;
}

/**
 * `raw acp [--tool dir]... [--rules f] [--hook dir]... [--cwd dir] [--state f] [--driver module]`: an ACP agent
 * (protocol 1) on stdio that any ACP client (Zed, JetBrains, acpx) can start. Each ACP session is one host session
 * (the session's `cwd` from `session/new`, else `--cwd`), with the A10 defaults and the user's rules. Its turn driver
 * is the command mode (`<tool name> <JSON arguments>`, `/tools`) unless `--driver` loads another one. Runs until the
 * client closes stdin; nothing but protocol messages goes to stdout.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("acp", argv);
  if (args.sub === "proxy") return proxy(args, io);
  const here = cwdOf(io);
  const defaultCwd = await sessionCwd(stringOption(args, "cwd"), here);
  const workspace = await loadWorkspace(workspaceRequest(args, here), io);
  if (workspace === undefined) return EXIT_FAILURE;
  const driverPath = stringOption(args, "driver");
  const driver = driverPath === undefined ? undefined : await loadDriver(driverPath, here);
  const statePath = stringOption(args, "state");
  const store =
    statePath === undefined ? undefined : await openStateStore(statePath, here, { exclusive: true });
  const connection = serveAcpAgent({
    connection: stdioStream(),
    name: "raw",
    session: (binding) =>
      openHostSession({
        cwd: binding.cwd || defaultCwd,
        tools: workspace.tools,
        rules: workspace.rules?.rules,
        hooks: workspace.hooks,
        approve: binding.approve,
        interactionAdapter: binding.interactionAdapter,
        store,
      }),
    mountMcpServer: mountServer,
    ...(driver === undefined ? {} : { driver }),
  });
  const stop = (): void => connection.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await connection.closed.catch(() => undefined);
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  store?.close();
  return EXIT_OK;
}

/**
 * `raw acp proxy [--rules f] [--hook dir]... [--name agent] [--cwd dir] [--explain] -- <agent command...>`: the ACP
 * gate of amendment A13 (`createAcpGate`) on stdio, in front of the agent it starts. `--explain` prints the identities
 * it uses for the agent (its `initialize` name unless `--name`) and what the rules decide for each, then exits.
 */
async function proxy(args: ParsedCommand, io: CliIo): Promise<number> {
  const [command, ...commandArgs] = args.rest;
  if (command === undefined) {
    throw new CliFailure(
      "agent_command_missing",
      "raw acp proxy: give the agent command after -- (raw acp proxy -- <agent command...>)",
    );
  }
  const here = cwdOf(io);
  const cwd = await sessionCwd(stringOption(args, "cwd"), here);
  const workspace = await loadWorkspace({ ...workspaceRequest(args, here), tools: false }, io);
  if (workspace === undefined) return EXIT_FAILURE;
  const name = stringOption(args, "name");
  const agent = { command, args: commandArgs, cwd };
  const session = (binding: { tools: Parameters<typeof openHostSession>[0]["tools"] }) =>
    openHostSession({ cwd, tools: binding.tools, rules: workspace.rules?.rules, hooks: workspace.hooks });
  if (args.values.explain === true) {
    const agentName = name === undefined ? await probeAgentName(agent) : identitySafeName(name);
    const host = session({ tools: gateTools(agentName) });
    for (const entry of explainGate(host, agentName)) {
      const rule =
        entry.rule === null ? "no rule" : entry.rule === "default" ? "default rule" : `rule ${entry.rule}`;
      io.stdout.write(`${displayLine(entry.identity)}  ${entry.decision} (${rule})\n`);
    }
    await host.close();
    return EXIT_OK;
  }
  // Rules and hooks that cannot bind to the gate's identities fail here, before the editor's first request.
  try {
    await session({ tools: gateTools(identitySafeName(name ?? "agent")) }).close();
  } catch (error) {
    throw new CliFailure(
      "gate_session_invalid",
      `the rules or hooks do not fit the gate's identities: ${displayLine(error instanceof Error ? error.message : String(error))}`,
    );
  }
  const gate = createAcpGate({ session, agent, name });
  const stop = (): void => gate.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const exit = await gate.closed;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  return exit.code ?? EXIT_FAILURE;
}
