import { appendFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  coalesce,
  createMcpServer,
  type LoadedMcpProxyConfig,
  loadMcpProxyConfig,
  MCP_CONFIG_INVALID,
  type McpMount,
  mcpHttpTokenFromEnv,
  mountMcpServer,
  parseMcpHttpAddress,
  type RawMcpServer,
  type ServedMcpHttp,
  ServerStdioTransport,
  serveMcpHttp,
} from "@raw/mcp";
import { isContractError, stringifyForDisplay } from "@raw/schema";
import { createToolRegistry, type ToolRegistry } from "@raw/tool-api";
import { type ParsedCommand, parseCommand, stringOption, stringsOption } from "../support/args.js";
import { CliFailure, type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK, envOf, UsageError } from "../support/io.js";
import { loadWorkspace, workspaceRequest } from "../support/load-workspace.js";
import { displayLine } from "../support/present.js";
import { sessionCwd } from "./call.js";

/** The panels of a proxy config, by MCP tool name. */
type McpProxyPanels = LoadedMcpProxyConfig["panels"];

/** How long the CLI waits for a server to start and list its tools (`npx -y` may first download it), in ms. */
export const MCP_CLI_CONNECT_TIMEOUT_MS = 60_000;

/** Resolves when this process is asked to stop: stdin ends (stdio), SIGINT or SIGTERM. */
function untilStopped(watchStdin: boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
    if (watchStdin) {
      process.stdin.once("end", done);
      process.stdin.once("close", done);
    }
  });
}

function mountFailure(error: unknown): never {
  if (isContractError(error)) {
    const issue = error.issues[0];
    throw new CliFailure(issue?.code ?? error.code, issue?.message ?? error.message);
  }
  throw error;
}

async function mountCommand(
  command: string[],
  registry: ToolRegistry,
  name: string | undefined,
  cwd: string,
  onChange?: (mount: McpMount) => void,
  trace?: string,
  panels?: McpProxyPanels,
): Promise<McpMount> {
  const [executable, ...args] = command;
  if (executable === undefined) throw new UsageError("give the server command after --", undefined);
  try {
    return await mountMcpServer(registry, {
      ...(name === undefined ? {} : { name }),
      command: executable,
      args,
      cwd,
      // Proxy and listing keep their own stdout for the protocol or the report: the server's stderr passes through.
      stderr: "inherit",
      toolName: (tool) => tool,
      ...(panels === undefined ? {} : { panels }),
      connectTimeoutMs: MCP_CLI_CONNECT_TIMEOUT_MS,
      // Warning messages quote server-supplied names: one escaped line each (A1).
      onWarning: (warning) =>
        process.stderr.write(`raw mcp: ${displayLine(warning.code)}: ${displayLine(warning.message)}\n`),
      ...(onChange === undefined ? {} : { onToolsChanged: onChange }),
      // The trace is a log of server text: one JSON line per message, C1 and bidi characters as \u escapes (A1).
      ...(trace === undefined
        ? {}
        : {
            observe: (direction: "send" | "receive", message: unknown) =>
              appendFileSync(trace, `${stringifyForDisplay({ direction, message })}\n`),
          }),
    });
  } catch (error) {
    return mountFailure(error);
  }
}

/** `raw mcp tools [--name n] [--format text|json] -- <server command...>`: the tools and their identities. */
async function tools(args: ParsedCommand, io: CliIo): Promise<number> {
  const command = args.rest;
  if (command.length === 0) throw new UsageError("give the server command after --", args.usage);
  const format = stringOption(args, "format") as "text" | "json";
  const registry = createToolRegistry();
  const mount = await mountCommand(command, registry, stringOption(args, "name"), cwdOf(io));
  try {
    if (format === "json") {
      // One well-formed JSON document; server text (annotations, skipped names, messages) escaped as \uXXXX (A1).
      io.stdout.write(
        `${stringifyForDisplay({
          server: mount.server,
          tools: mount.tools.map((t) => ({
            name: t.tool,
            identity: t.identity,
            annotations: t.annotations ?? null,
          })),
          skipped: mount.skipped,
        })}\n`,
      );
    } else {
      // Tool names are validated (A-Z a-z 0-9 . _ -); skipped entries' messages are server text, escaped (A1).
      io.stdout.write(`server ${mount.server}\n`);
      for (const tool of mount.tools) {
        const hints = tool.annotations?.readOnlyHint === true ? "  (server says: read-only)" : "";
        io.stdout.write(`  ${tool.identity}${hints}\n`);
      }
      for (const skip of mount.skipped)
        io.stdout.write(`  skipped ${stringifyForDisplay(skip.tool)}: ${displayLine(skip.code)}\n`);
    }
  } finally {
    await mount.close();
  }
  return mount.skipped.length > 0 ? EXIT_FAILURE : EXIT_OK;
}

/**
 * `raw mcp proxy (--rules f | --config f) [--hook dir]... [--name n] [--cwd dir] [--http host:port] -- <server
 * command...>`: over stdio, or Streamable HTTP.
 */
async function proxy(args: ParsedCommand, io: CliIo): Promise<number> {
  const command = args.rest;
  if (command.length === 0) throw new UsageError("give the server command after --", args.usage);
  const here = cwdOf(io);
  // No token, no listener, and no upstream server started for nothing (A10).
  checkHttp(stringOption(args, "http"), io, args.usage);
  const tracePath = stringOption(args, "trace");
  const trace = tracePath === undefined ? undefined : resolve(here, tracePath);
  const configPath = stringOption(args, "config");
  const rulesPath = stringOption(args, "rules");
  // The config file: the upstream's panels, and rules and hooks so a client config needs one path (A11).
  const config =
    configPath === undefined
      ? undefined
      : await loadMcpProxyConfig(resolve(here, configPath)).catch(mountFailure);
  if (config?.rules !== undefined && rulesPath !== undefined) {
    throw new CliFailure(
      MCP_CONFIG_INVALID,
      `${configPath} /rules: give the rules in the config or with --rules, not both`,
    );
  }
  if (config?.rules === undefined && rulesPath === undefined) {
    throw new UsageError("give --rules <file>, or --config <file> holding rules", args.usage);
  }
  const workspace = await loadWorkspace(
    {
      rules: rulesPath,
      tools: false,
      hooks: [...stringsOption(args, "hook"), ...(config?.hooks ?? [])],
      cwd: here,
    },
    io,
  );
  if (workspace === undefined) return EXIT_FAILURE;
  const cwd = await sessionCwd(stringOption(args, "cwd"), here);
  let mount: McpMount | undefined;
  // One host session (A10, `@raw/host` inside `createMcpServer`): default rules, hooks, panels, interactions and
  // approval wired once; the upstream's tools are mounted into its registry.
  const server: RawMcpServer = createMcpServer({
    cwd,
    tools: [],
    rules: workspace.rules?.rules ?? config?.rules,
    hooks: workspace.hooks,
    name: () => `raw-proxy-${mount?.server ?? "server"}`,
    annotations: (name) => mount?.tools.find((t) => t.name === name)?.annotations,
    title: (name) => mount?.tools.find((t) => t.name === name)?.title,
  });
  // Notices to the client are coalesced like the re-lists: one in flight, one queued.
  const noticeToolsChanged = coalesce(() => server.notifyToolsChanged());
  try {
    mount = await mountCommand(
      command,
      server.session.registry,
      stringOption(args, "name"),
      here,
      () => void noticeToolsChanged(),
      trace,
      config?.panels,
    );
  } catch (error) {
    await server.close();
    throw error;
  }
  try {
    const http = stringOption(args, "http");
    if (http !== undefined) return await serveHttp(server, http, io, args.usage);
    const stopped = untilStopped(true);
    await server.connect(new ServerStdioTransport());
    await stopped;
  } finally {
    await server.close();
    await mount.close();
  }
  return EXIT_OK;
}

/** `raw mcp serve [--tool dir]... [--rules f] [--hook dir]... [--cwd dir] [--http host:port]`. */
async function serve(args: ParsedCommand, io: CliIo): Promise<number> {
  const usage = args.usage;
  const here = cwdOf(io);
  checkHttp(stringOption(args, "http"), io, usage);
  const workspace = await loadWorkspace(workspaceRequest(args, here), io);
  if (workspace === undefined) return EXIT_FAILURE;
  const cwd = await sessionCwd(stringOption(args, "cwd"), here);
  // One host session (A10, `@raw/host` inside `createMcpServer`): the default rules before --rules, hooks, panels,
  // interactions and approval wired once.
  const server = createMcpServer({
    cwd,
    tools: workspace.tools,
    rules: workspace.rules?.rules,
    hooks: workspace.hooks,
    name: "raw",
  });
  const http = stringOption(args, "http");
  if (http === undefined) {
    const stopped = untilStopped(true);
    await server.connect(new ServerStdioTransport());
    await stopped;
    await server.close();
    return EXIT_OK;
  }
  try {
    return await serveHttp(server, http, io, usage);
  } finally {
    await server.close();
  }
}

/** Refuses a bad `--http` address or a missing `RAW_MCP_TOKEN` before anything starts. */
function checkHttp(http: string | undefined, io: CliIo, usage: string | undefined): void {
  if (http === undefined) return;
  if (parseMcpHttpAddress(http) === undefined)
    throw new UsageError("--http takes host:port (for example 127.0.0.1:8787)", usage);
  try {
    mcpHttpTokenFromEnv(envOf(io));
  } catch (error) {
    mountFailure(error);
  }
}

/**
 * Serves `server` on Streamable HTTP at `http` (`host:port`, path `/mcp`) with the bearer token of `RAW_MCP_TOKEN`
 * on every request (`serveMcpHttp` of `@raw/mcp`; no token, no listener). Resolves once asked to stop.
 */
async function serveHttp(
  server: RawMcpServer,
  http: string,
  io: CliIo,
  usage: string | undefined,
): Promise<number> {
  const address = parseMcpHttpAddress(http);
  if (address === undefined)
    throw new UsageError("--http takes host:port (for example 127.0.0.1:8787)", usage);
  let served: ServedMcpHttp;
  try {
    served = await serveMcpHttp(server, { address, env: envOf(io) });
  } catch (error) {
    return mountFailure(error);
  }
  for (const line of served.banner) io.stderr.write(`raw mcp: ${line}\n`);
  await untilStopped(false);
  await served.listener.close();
  return EXIT_OK;
}

/** `raw mcp serve|proxy|tools`: Raw tools over MCP, and Raw rules, hooks and approval in front of MCP servers. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("mcp", argv);
  if (args.sub === "serve") return serve(args, io);
  if (args.sub === "proxy") return proxy(args, io);
  return tools(args, io);
}
