import { randomUUID } from "node:crypto";
import {
  type AgentApp,
  type AgentConnection,
  agent,
  type ClientApp,
  PROTOCOL_VERSION,
  RequestError,
  type Stream,
} from "@agentclientprotocol/sdk";
import type { ApprovalView, HostSession } from "@raw/host";
import type { InteractionAdapter } from "@raw/panel/host";
import type { ApprovalRequest, ToolRegistry } from "@raw/tool-api";
import { MAX_CLIENT_TOOLS, MAX_SESSIONS_PER_CONNECTION } from "../limits.js";
import { type AcpClientPort, AcpSessionState } from "./acp-session.js";
import { approvalTimeoutOf } from "./approval-timeout.js";
import { type AcpClientFeatures, clientFeaturesOf, NO_CLIENT_FEATURES } from "./capabilities.js";
import { CLIENT_TOOL_CODES, ClientTools } from "./client-tools.js";
import { commandModeDriver } from "./command-mode.js";
import type { AcpPromptBlock, AcpStopReason, AcpTurnDriver } from "./driver.js";
import { PANEL_ACTION_CODES, runPanelAction } from "./panel-action.js";

/** One MCP server a client passes in `session/new.mcpServers` (ACP `McpServer`). */
export type AcpMcpServer = { readonly name: string; readonly [key: string]: unknown };

/** What a session factory receives: where the session runs and the wiring its host session must use. */
export interface AcpSessionBinding {
  /** The ACP session id. */
  readonly sessionId: string;
  /** The session's working folder, from `session/new.cwd` (absolute). */
  readonly cwd: string;
  /** What the client advertised in `initialize`. */
  readonly features: AcpClientFeatures;
  /** Pass as `openHostSession({ approve })`: remembered `*_always` answers, else `session/request_permission`. */
  readonly approve: (request: ApprovalRequest, view: ApprovalView) => Promise<boolean>;
  /** Pass as `openHostSession({ interactionAdapter })`; `undefined` means interactions end `interaction_unavailable`. */
  readonly interactionAdapter: InteractionAdapter | undefined;
}

/** A mounted MCP server of a session: closed with the session. */
export interface AcpMcpMount {
  close(): Promise<void> | void;
}

/** Options of `createAcpAgent` and `serveAcpAgent`. */
export interface AcpAgentOptions {
  /**
   * Opens the host session of one ACP session: call `openHostSession` with `binding.approve` and
   * `binding.interactionAdapter` (and the binding's `cwd`), so approval and interactions reach this client.
   */
  readonly session: (binding: AcpSessionBinding) => HostSession | Promise<HostSession>;
  /** Answers each `session/prompt` (default: `commandModeDriver`). */
  readonly driver?: AcpTurnDriver | undefined;
  /**
   * Mounts one MCP server of `session/new.mcpServers` into the session's registry as `mcp/<server>/<tool>` (under the
   * session's rules), for example with `mountMcpServer` of `@raw/mcp`. Without it, `session/new` with MCP servers
   * fails with `mcp_servers_unsupported`.
   */
  readonly mountMcpServer?:
    | ((registry: ToolRegistry, server: AcpMcpServer, cwd: string) => Promise<AcpMcpMount>)
    | undefined;
  /**
   * How long a permission request may stay unanswered before it is withdrawn and the call ends `approval_denied`
   * (ms; default `ACP_APPROVAL_TIMEOUT_MS`, 30 minutes; at most `MAX_ACP_APPROVAL_TIMEOUT_MS`).
   */
  readonly approvalTimeoutMs?: number | undefined;
  /** `agentInfo` of `initialize` (default `{ name: "raw", version: "0.1.0" }`). */
  readonly name?: string | undefined;
  readonly version?: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON-RPC error with a stable Raw code in its data. */
function invalid(code: string, message: string): RequestError {
  return new RequestError(-32602, `${code}: ${message}`, { code });
}

/**
 * Builds an ACP agent (protocol 1) that binds host sessions to ACP sessions (amendment A12): `initialize` reads the
 * client's `elicitation.form` and `_meta.raw` extensions, `session/new` opens a host session through the factory
 * (mounting `mcpServers`), `session/prompt` runs the turn driver, `session/cancel` aborts the turn. Connect it to a
 * stream (`serveAcpAgent`) or to a `ClientApp` in-process. One app serves one connection (its client features and
 * sessions are that connection's); `serveAcpAgent` builds one per connection.
 */
export function createAcpAgent(options: AcpAgentOptions): AgentApp {
  const driver = options.driver ?? commandModeDriver;
  const approvalTimeoutMs = approvalTimeoutOf(options.approvalTimeoutMs);
  const app = agent({ name: options.name ?? "raw" });
  let features: AcpClientFeatures = NO_CLIENT_FEATURES;
  const sessions = new Map<
    string,
    { state: AcpSessionState; mounts: AcpMcpMount[]; clientTools: ClientTools }
  >();
  let port: AcpClientPort | undefined;

  app.onConnect((connection: AgentConnection) => {
    port = connection.client as unknown as AcpClientPort;
    connection.closed.then(
      () => closeAll(),
      () => closeAll(),
    );
  });

  async function closeAll(): Promise<void> {
    const all = [...sessions.values()];
    sessions.clear();
    await Promise.allSettled(
      all.map(async ({ state, mounts, clientTools }) => {
        if (state.host) clientTools.unregisterAll(state.host.registry);
        await state.close();
        await Promise.allSettled(mounts.map((mount) => mount.close()));
      }),
    );
  }

  app.onRequest("initialize", (ctx) => {
    features = clientFeaturesOf(ctx.params.clientCapabilities);
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
        mcpCapabilities: { http: options.mountMcpServer !== undefined, sse: false },
        _meta: { raw: { panels: true, interactions: true, tools: true } },
      },
      agentInfo: { name: options.name ?? "raw", version: options.version ?? "0.1.0" },
      authMethods: [],
    };
  });

  app.onRequest("session/new", async (ctx) => {
    const { cwd, mcpServers } = ctx.params;
    if (typeof cwd !== "string" || !cwd.startsWith("/")) {
      throw invalid("invalid_cwd", "session/new: cwd must be an absolute path");
    }
    if (sessions.size >= MAX_SESSIONS_PER_CONNECTION) {
      throw invalid(
        "session_limit",
        `session/new: at most ${MAX_SESSIONS_PER_CONNECTION} sessions per connection`,
      );
    }
    const servers = Array.isArray(mcpServers) ? mcpServers : [];
    if (servers.length > 0 && options.mountMcpServer === undefined) {
      throw invalid("mcp_servers_unsupported", "session/new: mcpServers are not supported by this agent");
    }
    const sessionId = randomUUID();
    const client = port ?? (ctx.client as unknown as AcpClientPort);
    const state = new AcpSessionState(sessionId, cwd, features, client, approvalTimeoutMs);
    const host = await options.session({
      sessionId,
      cwd,
      features,
      approve: state.wiring.approve,
      interactionAdapter: state.wiring.interactionAdapter,
    });
    const mounts: AcpMcpMount[] = [];
    try {
      for (const server of servers) {
        if (!isRecord(server) || typeof server.name !== "string") {
          throw invalid("invalid_mcp_server", "session/new: mcpServers[] needs a name");
        }
        mounts.push(
          await (options.mountMcpServer as NonNullable<AcpAgentOptions["mountMcpServer"]>)(
            host.registry,
            server as AcpMcpServer,
            cwd,
          ),
        );
      }
    } catch (error) {
      await Promise.allSettled(mounts.map((mount) => mount.close()));
      await host.close();
      throw error instanceof RequestError
        ? error
        : invalid("mcp_mount_failed", `session/new: ${String((error as Error)?.message ?? error)}`);
    }
    state.attach(host);
    sessions.set(sessionId, {
      state,
      mounts,
      clientTools: new ClientTools(sessionId, client, features.panels),
    });
    return { sessionId };
  });

  app.onRequest("session/prompt", async (ctx) => {
    const entry = sessions.get(ctx.params.sessionId);
    if (entry === undefined) throw invalid("unknown_session", "session/prompt: no such sessionId");
    const { state } = entry;
    const turn = state.beginTurn(ctx.signal);
    let stopReason: AcpStopReason = "end_turn";
    try {
      const returned = await driver({
        sessionId: state.sessionId,
        prompt: (Array.isArray(ctx.params.prompt) ? ctx.params.prompt : []) as AcpPromptBlock[],
        signal: turn.signal,
        session: state.host as HostSession,
        call: (name, args) => state.call(name, args, turn.signal),
        say: (text) =>
          state.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } }),
        think: (text) =>
          state.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text } }),
      });
      if (returned) stopReason = returned;
    } catch (error) {
      if (!turn.signal.aborted) {
        await state.update({
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: `driver_error: ${String((error as Error)?.message ?? error)}` },
        });
      }
    } finally {
      state.endTurn(turn);
    }
    return { stopReason: turn.signal.aborted ? "cancelled" : stopReason };
  });

  app.onRequest(
    "_raw/tool/register",
    (params: unknown) => params,
    async (ctx) => {
      const params = ctx.params;
      if (!features.tools) {
        throw invalid(
          CLIENT_TOOL_CODES.unsupported,
          "_raw/tool/register: advertise clientCapabilities._meta.raw.tools in initialize first",
        );
      }
      const entry =
        isRecord(params) && typeof params.sessionId === "string" ? sessions.get(params.sessionId) : undefined;
      if (entry === undefined || entry.state.host === undefined) {
        throw invalid("unknown_session", "_raw/tool/register: no such sessionId");
      }
      const tools = (params as Record<string, unknown>).tools;
      if (!Array.isArray(tools) || tools.length > MAX_CLIENT_TOOLS) {
        throw invalid(
          CLIENT_TOOL_CODES.invalidRequest,
          `_raw/tool/register: tools must be an array of at most ${MAX_CLIENT_TOOLS} tools`,
        );
      }
      return entry.clientTools.register(entry.state.host.registry, tools);
    },
  );

  app.onRequest(
    "_raw/panel/action",
    (params: unknown) => params,
    (ctx) => {
      const params = ctx.params;
      if (!features.panels) {
        throw invalid(
          PANEL_ACTION_CODES.unsupported,
          "_raw/panel/action: advertise clientCapabilities._meta.raw.panels in initialize first",
        );
      }
      const entry =
        isRecord(params) && typeof params.sessionId === "string" ? sessions.get(params.sessionId) : undefined;
      if (entry === undefined || entry.state.host === undefined) {
        throw invalid("unknown_session", "_raw/panel/action: no such sessionId");
      }
      return runPanelAction(entry.state, params as Record<string, unknown>);
    },
  );

  app.onNotification("session/cancel", (ctx) => {
    sessions.get(ctx.params.sessionId)?.state.cancel();
  });

  return app;
}

/** Options of `serveAcpAgent`: the agent's options and where it talks. */
export interface ServeAcpAgentOptions extends AcpAgentOptions {
  /** The connection: an ACP stream (`ndJsonStream`, `stdioStream()`) or a `ClientApp` in the same process. */
  readonly connection: Stream | ClientApp;
}

/** Serves an ACP agent over a stream or to an in-process `ClientApp` (see `createAcpAgent`); resolves nothing, returns the connection. */
export function serveAcpAgent(options: ServeAcpAgentOptions): AgentConnection {
  const app = createAcpAgent(options);
  return app.connect(options.connection as Stream);
}
