import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  type ToolAnnotations,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { MAX_PANELS_PER_TOOL } from "@raw/panel";
import { escapeDisplayText, isContractError, thrownMessage } from "@raw/schema";
import type {
  HandlerResult,
  ToolHandlerContext,
  ToolPanelDeclaration,
  ToolRegistration,
  ToolRegistry,
} from "@raw/tool-api";
import { z } from "zod";
import { checkCallToolResult } from "./call-tool-result.js";
import { coalesce } from "./coalesce.js";
import { MCP_CODES, mcpError } from "./codes.js";
import {
  MAX_MCP_LIST_PAGES,
  MAX_MCP_TOOL_LIST_BYTES,
  MAX_MCP_TOOL_SCHEMA_BYTES,
  MAX_MCP_TOOLS,
  MCP_CALL_TIMEOUT_MS,
  MCP_CONNECT_TIMEOUT_MS,
} from "./limits.js";
import { isValidMcpServerName, isValidMcpToolName, mcpIdentity, serverNameOf } from "./names.js";
import { ProcessTransport, type ProcessTransportOptions, transportFailureCode } from "./process-transport.js";
import { routeCheckedMessages } from "./protocol-routing.js";
import { mapMcpResult } from "./result-mapping.js";
import { createSchemaBudgetChecker, type SchemaBudgetChecker } from "./schema-budget.js";
import { type BoundedToolList, isOversizedTool, ToolListCollector } from "./tool-list-bounds.js";
import {
  askUpstreamQuestion,
  MAX_MCP_UPSTREAM_INPUT_REQUESTS,
  MAX_MCP_UPSTREAM_INPUT_ROUNDS,
  MAX_MCP_UPSTREAM_STATE_CHARS,
  MCP_UPSTREAM_MODERN_REVISION,
  UPSTREAM_QUESTION_DECLARATION,
} from "./upstream-input.js";

/** Where and how to reach one MCP server, and how its tools are named in the registry. */
export interface MountMcpServerOptions {
  /**
   * The server's name in canonical identities `mcp/<name>/<tool>` (letters, digits, `.`, `_`, `-`; no `/`).
   * Default: the server's own `serverInfo.name` from `initialize`, made valid by `serverNameOf`.
   */
  name?: string | undefined;
  /** A stdio server: the executable to start (no shell). Exactly one of `command` and `url`. */
  command?: string | undefined;
  /** The stdio server's arguments. */
  args?: readonly string[] | undefined;
  /** The stdio server's environment (default: this process's environment). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The stdio server's working directory. */
  cwd?: string | undefined;
  /** The stdio server's stderr: inherited (default), ignored, or handed to a callback. */
  stderr?: ProcessTransportOptions["stderr"];
  /** A Streamable HTTP server: its URL. */
  url?: string | URL | undefined;
  /** Extra HTTP headers for a Streamable HTTP server (for example `Authorization`). */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Panels declared for the server's tools outside the server (a proxy config, amendment A11), by MCP tool name: a
   * tool listed here registers with those declarations and without implicit panels, so an update to an id it does
   * not declare is rejected (`panel_undeclared`); other tools keep implicit panels.
   */
  panels?: ReadonlyMap<string, readonly ToolPanelDeclaration[]> | undefined;
  /** The model-facing name of a tool (default `mcp__<server>__<tool>`); rules always match the identity. */
  toolName?: ((tool: string, server: string) => string) | undefined;
  /** Deadline of starting, `initialize` and each `tools/list` (default `MCP_CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs?: number | undefined;
  /** Deadline of one `tools/call` (default `MCP_CALL_TIMEOUT_MS`); a call past it is cancelled. */
  callTimeoutMs?: number | undefined;
  /** Largest message read from a stdio server (default `MCP_MAX_MESSAGE_BYTES`). */
  maxMessageBytes?: number | undefined;
  /** Called with every warning (a skipped tool, a failed refresh); exceptions are ignored. */
  onWarning?: ((warning: McpMountWarning) => void) | undefined;
  /** Called after every refresh of the tool list (`tools/list_changed`); exceptions are ignored. */
  onToolsChanged?: ((mount: McpMount) => void) | undefined;
  /** Observer of every JSON-RPC message of a stdio server (tracing, tests). */
  observe?: ((direction: "send" | "receive", message: JSONRPCMessage) => void) | undefined;
}

/** A tool of the server that is registered. */
export interface McpMountedTool {
  /** Model-facing name in the registry. */
  readonly name: string;
  /** Canonical identity `mcp/<server>/<tool>`. */
  readonly identity: string;
  /** The tool's name on the server. */
  readonly tool: string;
  /** The server's annotations of the tool (hints; never trusted for policy). */
  readonly annotations?: ToolAnnotations | undefined;
  /** The server's title of the tool. */
  readonly title?: string | undefined;
}

/** A tool of the server that is not registered, with the reason's stable code. */
export interface McpSkippedTool {
  /** The tool's name on the server (or `#<index>` when it has none). */
  readonly tool: string;
  /** Its canonical identity, when the name is valid. */
  readonly identity?: string | undefined;
  readonly code: string;
  readonly message: string;
}

/** A warning of a mount: `message` names the tool or the server. */
export interface McpMountWarning {
  readonly code: string;
  readonly message: string;
  readonly tool?: string | undefined;
}

/** A mounted MCP server. */
export interface McpMount {
  /** The server name of the identities. */
  readonly server: string;
  /** The registered tools, in the server's order. */
  readonly tools: readonly McpMountedTool[];
  /** The listed tools that were skipped, each with a code. */
  readonly skipped: readonly McpSkippedTool[];
  /** The server's `serverInfo` from `initialize`. */
  readonly serverInfo: { readonly name: string; readonly version: string } | undefined;
  /** The stdio server's pid while it runs. */
  readonly pid: number | undefined;
  /** Lists the tools again and updates the registry (what `tools/list_changed` triggers). */
  refresh(): Promise<void>;
  /** Unregisters every tool, closes the connection and ends every process of a stdio server. Idempotent. */
  close(): Promise<void>;
}

const ToolListPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** What `tools/call` asks the SDK to check: nothing; `checkCallToolResult` checks the result once, the SDK's way. */
const AnyResult = z.unknown();

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function defaultToolName(tool: string, server: string): string {
  return `mcp__${server}__${tool}`;
}

function errorResult(code: string, message: string): HandlerResult {
  return { isError: true, code, content: [{ type: "text", text: `${code}: ${message}` }] };
}

/** What Raw itself saw of a failed request: its connection closed, or its own deadline passed. */
interface Observed {
  readonly closed: boolean;
  readonly timedOut: boolean;
}

const NOTHING_OBSERVED: Observed = { closed: false, timedOut: false };

/**
 * The stable code of a failed request, from what Raw observed: a server's JSON-RPC error is `mcp_server_error`
 * whatever its `code` and `data` say (a peer never picks a Raw code: not `data.rawCode`, not the SDK's own
 * connection-closed or timeout error codes); `mcp_connection_closed` and `mcp_timeout` only when the connection did
 * close or the deadline did pass; the transport's own failures (oversized or malformed messages) carry their code.
 */
function classify(
  error: unknown,
  signal: AbortSignal | undefined,
  observed: Observed = NOTHING_OBSERVED,
): { code: string; message: string } {
  if (signal?.aborted) return { code: "aborted", message: "tool call aborted" };
  if (error instanceof McpError) {
    const own = transportFailureCode(error.data);
    if (own !== undefined) return { code: own, message: error.message };
    if (error.code === ErrorCode.ConnectionClosed && observed.closed)
      return { code: MCP_CODES.connectionClosed, message: error.message };
    if (error.code === ErrorCode.RequestTimeout && observed.timedOut)
      return { code: MCP_CODES.timeout, message: error.message };
    return { code: MCP_CODES.serverError, message: error.message };
  }
  // A schema failure of the SDK's result parsing (a zod error: it carries `issues`).
  if (error instanceof z.ZodError || (isRecord(error) && Array.isArray(error.issues))) {
    return { code: MCP_CODES.invalidResult, message: "the server's result is not a valid CallToolResult" };
  }
  const code = isRecord(error) && typeof error.code === "string" ? error.code : undefined;
  if (code !== undefined && /^mcp_[a-z_]+$/.test(code)) return { code, message: thrownMessage(error) };
  return { code: MCP_CODES.serverError, message: thrownMessage(error) };
}

/** What Raw saw of a request on `conn` that started at `started` (`performance.now()`) with deadline `timeoutMs`. */
function observedOf(conn: { closed: boolean }, started: number, timeoutMs: number): Observed {
  // A timer never fires before its delay; 2 ms covers the rounding of millisecond clocks.
  return { closed: conn.closed, timedOut: performance.now() - started >= timeoutMs - 2 };
}

interface Connection {
  readonly client: Client;
  readonly transport: Transport;
  closed: boolean;
  /** True for a 2026-07-28 upstream: no initialize, the envelope in every request's `_meta`. */
  modern?: boolean;
}

/** The `_meta` envelope of Raw's requests to a 2026-07-28 upstream. */
const UPSTREAM_ENVELOPE = Object.freeze({
  "io.modelcontextprotocol/protocolVersion": MCP_UPSTREAM_MODERN_REVISION,
  "io.modelcontextprotocol/clientInfo": { name: "raw-mcp", version: "0.1.0" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
});

/** `params` with the envelope of a 2026-07-28 upstream, or as they are. */
function enveloped(conn: Connection, params: Record<string, unknown>): Record<string, unknown> {
  return conn.modern === true ? { ...params, _meta: UPSTREAM_ENVELOPE } : params;
}

/**
 * Connects to an MCP server (a stdio command or a Streamable HTTP URL) with the SDK client, lists its tools and
 * registers each into `registry` as `mcp/<server>/<tool>` with the foreign schema profile, following
 * `tools/list_changed`. A tool that cannot be registered (invalid name or schema, remote `$ref`, a name collision,
 * an unbindable rule) is skipped and reported with its code; the others register. Calls go through the registry's
 * whole pipeline before `tools/call`; an abort sends MCP cancellation; results are mapped and capped like any
 * other. Throws a `ContractError` (`mcp_invalid_options`, `mcp_connect_failed`, `mcp_connect_timeout`) when the
 * server cannot be reached; nothing is registered then, and no process is left running.
 */
export async function mountMcpServer(
  registry: ToolRegistry,
  options: MountMcpServerOptions,
): Promise<McpMount> {
  let server = options.name ?? "server";
  if (typeof server !== "string" || !isValidMcpServerName(server)) {
    throw mcpError(MCP_CODES.invalidOptions, `invalid MCP server name: ${JSON.stringify(server)}`);
  }
  if ((options.command === undefined) === (options.url === undefined)) {
    throw mcpError(MCP_CODES.invalidOptions, `MCP server ${server}: give exactly one of command and url`);
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
  const callTimeoutMs = options.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS;
  const naming = options.toolName ?? defaultToolName;
  const warn = (warning: McpMountWarning): void => {
    try {
      options.onWarning?.(warning);
    } catch {
      // A host's observer never breaks the mount.
    }
  };

  let connection: Connection | undefined;
  let closing = false;
  let serverInfo: McpMount["serverInfo"];
  let mounted: McpMountedTool[] = [];
  let skipped: McpSkippedTool[] = [];
  /** Registered tool name → the listed tool it was built from (a digest of its JSON), to see what a refresh changed. */
  const registered = new Map<string, { tool: string; listed: string }>();

  const makeTransport = (): Transport => {
    if (options.command !== undefined) {
      return new ProcessTransport({
        command: options.command,
        args: options.args,
        env: options.env,
        cwd: options.cwd,
        stderr: options.stderr,
        maxMessageBytes: options.maxMessageBytes,
        observe: options.observe,
      });
    }
    const headers = options.headers === undefined ? undefined : { ...options.headers };
    return new StreamableHTTPClientTransport(new URL(String(options.url)), {
      requestInit: headers === undefined ? {} : { headers },
    });
  };

  const connect = async (): Promise<Connection> => {
    const client = new Client({ name: "raw-mcp", version: "0.1.0" }, { capabilities: {} });
    const transport = makeTransport();
    const conn: Connection = { client, transport, closed: false };
    client.onclose = () => {
      conn.closed = true;
    };
    client.onerror = () => {
      // Transport problems surface as coded call failures; the SDK's own reports carry nothing more.
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      // A notification before the mount exists (during initialize) is covered by the first listing.
      void mountRef?.refresh();
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            mcpError(
              MCP_CODES.connectTimeout,
              `MCP server ${server} did not start within ${connectTimeoutMs} ms`,
            ),
          ),
        connectTimeoutMs,
      );
    });
    try {
      await Promise.race([client.connect(transport, { timeout: connectTimeoutMs }), deadline]);
    } catch (error) {
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      if (isContractError(error)) throw error;
      // A 2026-07-28-only server refuses initialize naming the revisions it speaks: talk to it in that revision.
      if (
        error instanceof McpError &&
        JSON.stringify([error.message, error.data]).includes(MCP_UPSTREAM_MODERN_REVISION)
      ) {
        clearTimeout(timer);
        return connectModern();
      }
      const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
      throw mcpError(
        timedOut ? MCP_CODES.connectTimeout : MCP_CODES.connectFailed,
        `MCP server ${server} could not be started: ${thrownMessage(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
    if (transport instanceof ProcessTransport) routeCheckedMessages(client, transport);
    const info = client.getServerVersion();
    serverInfo = info === undefined ? undefined : { name: String(info.name), version: String(info.version) };
    return conn;
  };

  /** A 2026-07-28 connection: no initialize; `server/discover` must offer the revision. */
  const connectModern = async (): Promise<Connection> => {
    const client = new Client({ name: "raw-mcp", version: "0.1.0" }, { capabilities: {} });
    const transport = makeTransport();
    const conn: Connection = { client, transport, closed: false, modern: true };
    client.onclose = () => {
      conn.closed = true;
    };
    client.onerror = () => undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void mountRef?.refresh();
    });
    try {
      await (Protocol.prototype.connect as (this: Client, t: Transport) => Promise<void>).call(
        client,
        transport,
      );
      if (transport instanceof ProcessTransport) routeCheckedMessages(client, transport);
      const discovered = await client.request(
        { method: "server/discover", params: { _meta: UPSTREAM_ENVELOPE } },
        AnyResult,
        { timeout: connectTimeoutMs },
      );
      const result = isRecord(discovered) ? discovered : {};
      const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
      if (!versions.includes(MCP_UPSTREAM_MODERN_REVISION)) {
        throw new Error(`server/discover does not offer ${MCP_UPSTREAM_MODERN_REVISION}`);
      }
      const info = isRecord(result.serverInfo) ? result.serverInfo : undefined;
      serverInfo =
        info === undefined
          ? undefined
          : { name: String(info.name).slice(0, 200), version: String(info.version).slice(0, 200) };
    } catch (error) {
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      throw mcpError(
        MCP_CODES.connectFailed,
        `MCP server ${server} could not be started: ${escapeDisplayText(thrownMessage(error), { maxBytes: 512 })}`,
      );
    }
    return conn;
  };

  let reconnecting: Promise<Connection> | undefined;
  const live = async (): Promise<Connection> => {
    if (closing) throw mcpError(MCP_CODES.closed, `MCP server ${server} is closed`);
    if (connection !== undefined && !connection.closed) return connection;
    if (options.command === undefined && connection !== undefined) return connection;
    // A stdio server that exited (crash, oversized output) is started again for the next call.
    reconnecting ??= connect().finally(() => {
      reconnecting = undefined;
    });
    const fresh = await reconnecting;
    if (closing) {
      // Closed while the server was starting again: this connection must not outlive the mount.
      await fresh.client.close().catch(() => undefined);
      await fresh.transport.close().catch(() => undefined);
      throw mcpError(MCP_CODES.closed, `MCP server ${server} is closed`);
    }
    connection = fresh;
    return connection;
  };

  /** Every page of `tools/list`, bounded while it is read (`ToolListCollector`). */
  const listTools = async (conn: Connection): Promise<BoundedToolList> => {
    const collector = new ToolListCollector();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const started = performance.now();
      let result: z.infer<typeof ToolListPage>;
      try {
        result = await conn.client.request(
          { method: "tools/list", params: enveloped(conn, cursor === undefined ? {} : { cursor }) },
          ToolListPage,
          { timeout: connectTimeoutMs },
        );
      } catch (error) {
        // Classified here, where the deadline and the connection's state are known.
        const { code, message } = classify(error, undefined, observedOf(conn, started, connectTimeoutMs));
        throw Object.assign(new Error(message), { code });
      }
      pages++;
      collector.add(result.tools);
      cursor = result.nextCursor;
    } while (cursor !== undefined && !collector.full && pages < MAX_MCP_LIST_PAGES);
    return collector.finish(cursor !== undefined);
  };

  const handlerFor =
    (tool: string) =>
    async (args: unknown, context: ToolHandlerContext): Promise<HandlerResult> => {
      let conn: Connection;
      try {
        conn = await live();
      } catch (error) {
        const issue = isContractError(error) ? error.issues[0] : undefined;
        return errorResult(issue?.code ?? MCP_CODES.connectionClosed, issue?.message ?? thrownMessage(error));
      }
      const started = performance.now();
      // The SDK client keeps its abort listener after the response: the call's signal reaches the request only
      // while it is in flight, so a later abort (the client going away) sends no cancellation for an answered one.
      const inflight = new AbortController();
      const forward = () => inflight.abort(context.signal?.reason);
      if (context.signal?.aborted === true) forward();
      else context.signal?.addEventListener("abort", forward, { once: true });
      try {
        const call = (extra: Record<string, unknown>) =>
          conn.client.request(
            {
              method: "tools/call",
              params: enveloped(conn, { name: tool, arguments: args as Record<string, unknown>, ...extra }),
            },
            AnyResult,
            { signal: inflight.signal, timeout: callTimeoutMs, maxTotalTimeout: callTimeoutMs },
          );
        let result = await call({});
        // A 2026-07-28 upstream's own questions (A11): each relayed as that server's question, through the host's
        // interaction service, never as Raw's approval; at most MAX_MCP_UPSTREAM_INPUT_ROUNDS rounds.
        for (
          let round = 0;
          conn.modern === true && isRecord(result) && result.resultType === "input_required";
          round++
        ) {
          const requests = isRecord(result.inputRequests) ? Object.entries(result.inputRequests) : [];
          const state = result.requestState;
          if (round >= MAX_MCP_UPSTREAM_INPUT_ROUNDS) {
            return errorResult(
              MCP_CODES.serverError,
              `MCP server ${server} asked for input more than ${MAX_MCP_UPSTREAM_INPUT_ROUNDS} rounds in one call`,
            );
          }
          if (
            requests.length === 0 ||
            requests.length > MAX_MCP_UPSTREAM_INPUT_REQUESTS ||
            (state !== undefined &&
              (typeof state !== "string" || state.length > MAX_MCP_UPSTREAM_STATE_CHARS))
          ) {
            return errorResult(
              MCP_CODES.serverError,
              `MCP server ${server} answered input_required with 1 to ${MAX_MCP_UPSTREAM_INPUT_REQUESTS} input requests and a state of at most ${MAX_MCP_UPSTREAM_STATE_CHARS} characters, not this`,
            );
          }
          const responses: Record<string, unknown> = {};
          for (const [key, request] of requests) {
            responses[key] = await askUpstreamQuestion(server, request, context);
          }
          result = await call({
            inputResponses: responses,
            ...(state === undefined ? {} : { requestState: state }),
          });
        }
        const checked = checkCallToolResult(result);
        if (!checked.ok) {
          const { code, message } = classify(checked.error, context.signal);
          return errorResult(code, message);
        }
        return mapMcpResult(checked.result);
      } catch (error) {
        const { code, message } = classify(error, context.signal, observedOf(conn, started, callTimeoutMs));
        return errorResult(code, message);
      } finally {
        context.signal?.removeEventListener("abort", forward);
      }
    };

  /** The one `mcp_tools_truncated` warning of a listing that dropped tools (names shown escaped, A1). */
  const reportDropped = (listing: BoundedToolList, nextSkipped: McpSkippedTool[]): void => {
    if (listing.droppedCount === 0 && !listing.unread) return;
    const names = listing.dropped.slice(0, 10).map((name) => escapeDisplayText(name, { maxBytes: 80 }));
    const more = listing.droppedCount - names.length;
    const what =
      listing.droppedCount === 0
        ? "later pages not read"
        : `${listing.droppedCount} tools dropped: ${names.join(", ")}${more > 0 ? ` and ${more} more` : ""}${listing.unread ? "; later pages not read" : ""}`;
    const message =
      `MCP server ${server} lists more than ${MAX_MCP_TOOLS} tools, ${MAX_MCP_TOOL_LIST_BYTES} bytes of tool ` +
      `definitions or ${MAX_MCP_LIST_PAGES} pages: ${what}`;
    for (const tool of listing.dropped) nextSkipped.push({ tool, code: MCP_CODES.toolsTruncated, message });
    warn({ code: MCP_CODES.toolsTruncated, message });
  };

  /**
   * Registers what `listing` holds and unregisters what it no longer holds. A new or changed tool's schema is first
   * compiled in a worker under `MCP_SCHEMA_COMPILE_BUDGET_MS`; the event loop turns between tools.
   */
  const apply = async (listing: BoundedToolList): Promise<void> => {
    const nextMounted: McpMountedTool[] = [];
    const nextSkipped: McpSkippedTool[] = [];
    const seen = new Set<string>();
    const keep = new Set<string>();
    let checker: SchemaBudgetChecker | undefined;
    for (const warning of listing.warnings) warn(warning);
    try {
      for (let index = 0; index < listing.tools.length; index++) {
        if (closing) return;
        const entry = listing.tools[index];
        const rawName = isRecord(entry) ? entry.name : undefined;
        const label = typeof rawName === "string" ? rawName : `#${index}`;
        const skip = (code: string, message: string, identity?: string): void => {
          nextSkipped.push({ tool: label, identity, code, message });
          warn({ code, tool: label, message: `${message}; skipped` });
        };
        if (!isRecord(entry) || typeof rawName !== "string" || !isValidMcpToolName(rawName)) {
          skip(
            MCP_CODES.toolInvalid,
            `invalid tool in MCP server ${server}: ${JSON.stringify(label).slice(0, 200)}`,
          );
          continue;
        }
        const identity = mcpIdentity(server, rawName);
        if (seen.has(rawName)) {
          skip(MCP_CODES.toolDuplicate, `duplicate tool in MCP server ${server}: ${identity}`, identity);
          continue;
        }
        seen.add(rawName);
        if (isOversizedTool(entry)) {
          skip(
            MCP_CODES.toolTooLarge,
            `tool ${identity} has an inputSchema of ${entry.bytes} bytes, more than ${MAX_MCP_TOOL_SCHEMA_BYTES}`,
            identity,
          );
          continue;
        }
        if (!isRecord(entry.inputSchema)) {
          skip(MCP_CODES.toolInvalid, `tool ${identity} has no inputSchema object`, identity);
          continue;
        }
        let name: string;
        try {
          name = naming(rawName, server);
        } catch (error) {
          skip(
            MCP_CODES.invalidOptions,
            `toolName failed for ${identity}: ${thrownMessage(error)}`,
            identity,
          );
          continue;
        }
        const description =
          typeof entry.description === "string"
            ? entry.description
            : typeof entry.title === "string"
              ? entry.title
              : "";
        const listedDigest = createHash("sha256")
          .update(JSON.stringify([name, description, entry.inputSchema]))
          .digest("base64");
        const before = registered.get(name);
        const annotations = isRecord(entry.annotations) ? (entry.annotations as ToolAnnotations) : undefined;
        const title = typeof entry.title === "string" ? entry.title : undefined;
        if (before !== undefined && before.tool === rawName && before.listed === listedDigest) {
          keep.add(name);
          nextMounted.push({ name, identity, tool: rawName, annotations, title });
          continue;
        }
        checker ??= createSchemaBudgetChecker();
        const checked = await checker.check(entry.inputSchema, `arguments of ${name}`);
        if (closing) return;
        if (!checked.ok) {
          skip(checked.code, `tool ${identity} cannot be registered: ${checked.message}`, identity);
          continue;
        }
        const previous = registered.get(name);
        if (previous !== undefined) {
          registry.unregister(name);
          registered.delete(name);
        }
        const declared = options.panels?.get(rawName);
        // A 2026-07-28 upstream may ask its own questions: its tools declare the panel they are shown in.
        const questionPanels = (list: readonly ToolPanelDeclaration[] | undefined) => {
          const panels = [...(list ?? [])];
          if (connection?.modern === true && panels.length < MAX_PANELS_PER_TOOL)
            panels.push(UPSTREAM_QUESTION_DECLARATION);
          return panels.length === 0 ? undefined : { panels };
        };
        const registration: ToolRegistration = {
          name,
          identity,
          description,
          inputSchema: entry.inputSchema,
          handler: handlerFor(rawName),
          ...(declared === undefined ? { implicitPanels: true } : {}),
          ...(questionPanels(declared) ?? {}),
          schemaProfile: "foreign",
        };
        try {
          registry.register(registration);
        } catch (error) {
          const issue = isContractError(error) ? error.issues[0] : undefined;
          skip(
            issue?.code ?? "registration_invalid",
            `tool ${identity} cannot be registered: ${issue?.message ?? thrownMessage(error)}`,
            identity,
          );
          continue;
        }
        registered.set(name, { tool: rawName, listed: listedDigest });
        keep.add(name);
        nextMounted.push({ name, identity, tool: rawName, annotations, title });
        // A compile just ran on this thread: let pings and calls through before the next one.
        await nextTurn();
      }
    } finally {
      await checker?.close();
    }
    if (closing) return;
    reportDropped(listing, nextSkipped);
    for (const name of [...registered.keys()]) {
      if (!keep.has(name)) {
        registry.unregister(name);
        registered.delete(name);
      }
    }
    mounted = nextMounted;
    skipped = nextSkipped;
  };

  /** One re-list at a time and at most one queued, however many `tools/list_changed` the server sends. */
  const relist = coalesce(async () => {
    if (closing) return;
    try {
      await apply(await listTools(await live()));
    } catch (error) {
      const { code, message } = classify(error, undefined);
      warn({ code, message: `MCP server ${server}: tools/list failed: ${message}` });
      return;
    }
    if (closing) return;
    try {
      options.onToolsChanged?.(mount);
    } catch {
      // Observers never break the mount.
    }
  });
  let mountRef: McpMount | undefined;
  const mount: McpMount = {
    get server() {
      return server;
    },
    get tools() {
      return mounted;
    },
    get skipped() {
      return skipped;
    },
    get serverInfo() {
      return serverInfo;
    },
    get pid() {
      const transport = connection?.transport;
      return transport instanceof ProcessTransport ? transport.pid : undefined;
    },
    refresh(): Promise<void> {
      return relist();
    },
    async close(): Promise<void> {
      if (closing) return;
      closing = true;
      for (const name of registered.keys()) registry.unregister(name);
      registered.clear();
      mounted = [];
      const conn = connection;
      connection = undefined;
      if (conn !== undefined) {
        await conn.client.close().catch(() => undefined);
        await conn.transport.close().catch(() => undefined);
      }
    },
  };

  mountRef = mount;
  connection = await connect();
  if (options.name === undefined) server = serverNameOf(serverInfo?.name);
  let listed: BoundedToolList;
  try {
    listed = await listTools(connection);
  } catch (error) {
    await mount.close();
    const { code, message } = classify(error, undefined);
    throw mcpError(
      code === MCP_CODES.timeout ? MCP_CODES.connectTimeout : MCP_CODES.connectFailed,
      `MCP server ${server}: tools/list failed: ${message}`,
    );
  }
  await apply(listed);
  return mount;
}
