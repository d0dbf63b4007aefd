import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  type Tool,
  type ToolAnnotations,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describeApproval } from "@raw/host";
import type { PanelHost } from "@raw/panel/host";
import { prepareForm, validateFormAnswers } from "@raw/panel/host";
import { ContractError } from "@raw/schema";
import type {
  ApprovalCallback,
  DispatchContext,
  ToolInteractionsContext,
  ToolRegistry,
  ToolResult,
} from "@raw/tool-api";
import { checkCallToolResult } from "./call-tool-result.js";
import { elicitationSchema, formOf } from "./form-elicitation.js";
import { toMcpResult } from "./result-mapping.js";

/** The URI scheme of panels exposed as MCP resources: `raw-panel:///<encoded full id>`. */
export const PANEL_RESOURCE_PREFIX = "raw-panel:///";

/**
 * The panel host a server exposes as resources (what `createPanelHost` returns, or any object with these). When
 * it also has `beginCall` (a whole `PanelHost`), every call runs in a panel call of its own (`context.panels`),
 * settled after dispatch; wire the same host's `sink` as the registry's `panelSink`.
 */
export type McpPanelSource = Pick<PanelHost, "list" | "get" | "subscribe"> &
  Partial<Pick<PanelHost, "beginCall">>;

/** Options of `createMcpServer`. */
export interface CreateMcpServerOptions {
  /** Absolute session working directory of every dispatch. */
  cwd: string;
  /** The server's name and version in `initialize` (default `raw`, `0.1.0`). */
  name?: string | undefined;
  version?: string | undefined;
  /** Model-facing names exposed; others are neither listed nor callable. */
  whitelist?: readonly string[] | undefined;
  /**
   * The annotations of a tool that come from somewhere that declares them (for example a mounted MCP server's own
   * annotations, via `McpMount.tools`). Tools without them get no read-only or non-destructive claim.
   */
  annotations?: ((name: string) => ToolAnnotations | undefined) | undefined;
  /** Panels to expose as resources, with `notifications/resources/updated` on every committed change. */
  panels?: McpPanelSource | undefined;
  /** Deadline of an approval elicitation (ms); none by default. */
  approvalTimeoutMs?: number | undefined;
  /** Output budget of each call (registry default otherwise). */
  maxOutputBytes?: number | undefined;
  /** Instructions sent in `initialize`. */
  instructions?: string | undefined;
}

/** A Raw registry served over MCP: one SDK server per connection. */
export interface RawMcpServer {
  /** Serves one connection (stdio, or one Streamable HTTP session) on `transport`; resolves once it is connected. */
  connect(transport: Transport): Promise<Server>;
  /** Tells every connected client that the tool list changed (`notifications/tools/list_changed`). */
  notifyToolsChanged(): Promise<void>;
  /** The connections currently served. */
  readonly connections: ReadonlySet<Server>;
  /** Closes every connection. */
  close(): Promise<void>;
}

/** Annotations stated for a tool that declares nothing: the MCP defaults (not read-only, possibly destructive). */
const UNDECLARED: ToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  openWorldHint: true,
});

function panelUri(fullId: string): string {
  return `${PANEL_RESOURCE_PREFIX}${encodeURIComponent(fullId)}`;
}

/**
 * The base registration of request handlers (the SDK's `Protocol`): it parses each request with its schema once.
 * `Server`'s own registration of `tools/call` wraps it to parse the request a second time and the result with the
 * whole `CallToolResultSchema`; the `tools/call` handler below is registered here and checks its result itself
 * (`checkedResult`), with the same outcome and error as that wrapper.
 */
const setBaseRequestHandler = Protocol.prototype.setRequestHandler as Server["setRequestHandler"];

/**
 * What `Server`'s `tools/call` wrapper does with a handler's result: the result as `CallToolResultSchema` outputs
 * it, or an `InvalidParams` error with the SDK's message. (Its task branch is unreachable here: the server declares
 * no task support, so the SDK refuses a task-augmented call before any handler runs.)
 */
function checkedResult(result: CallToolResult): CallToolResult {
  const checked = checkCallToolResult(result);
  if (!checked.ok)
    throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
  return checked.result;
}

/** Dispatch's call id from an MCP request id, unique per connection. */
let connectionCounter = 0;

/**
 * Serves a Raw registry over MCP (stdio or Streamable HTTP through `connect`). `tools/list` lists exactly what the
 * registry exposes (hidden tools never appear); `tools/call` dispatches with `source: "model"` through the whole
 * pipeline. An `ask` decision becomes an elicitation (intended effects first, then arguments) when the client
 * supports elicitation, and `approval_required` otherwise — never an implicit yes. `ask_user` forms become
 * elicitations when they fit, else `interaction_unavailable`. Panels are resources with update notifications.
 */
export function createMcpServer(registry: ToolRegistry, options: CreateMcpServerOptions): RawMcpServer {
  const connections = new Set<Server>();
  const subscriptions = new Map<Server, Set<string>>();
  const known = new Set<string>();
  let unsubscribe: (() => void) | undefined;

  if (options.panels !== undefined) {
    for (const state of options.panels.list()) known.add(state.fullId);
    unsubscribe = options.panels.subscribe((frame) => {
      if (frame.type !== "update" || frame.live || frame.view !== undefined) return;
      const uri = panelUri(frame.fullId);
      const added = !known.has(frame.fullId);
      known.add(frame.fullId);
      for (const server of connections) {
        if (added) void server.sendResourceListChanged().catch(() => undefined);
        if (subscriptions.get(server)?.has(uri))
          void server.sendResourceUpdated({ uri }).catch(() => undefined);
      }
    });
  }

  const listTools = (): Tool[] =>
    registry.definitions(options.whitelist).map((definition) => ({
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema as Tool["inputSchema"],
      annotations: options.annotations?.(definition.name) ?? UNDECLARED,
    }));

  const build = (): Server => {
    const server = new Server(
      { name: options.name ?? "raw", version: options.version ?? "0.1.0" },
      {
        capabilities: {
          tools: { listChanged: true },
          ...(options.panels === undefined ? {} : { resources: { subscribe: true, listChanged: true } }),
        },
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      },
    );
    const connectionId = ++connectionCounter;
    // Form elicitation (an empty `elicitation: {}` of older clients means form too); URL-only clients cannot answer.
    const canElicit = (): boolean => server.getClientCapabilities()?.elicitation?.form !== undefined;

    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }));

    setBaseRequestHandler.call(
      server,
      CallToolRequestSchema,
      async (request, extra): Promise<CallToolResult> => {
        const signal = extra.signal;
        const approve: ApprovalCallback | undefined = canElicit()
          ? async (approval) => {
              const answer = await server.elicitInput(
                {
                  mode: "form",
                  message: describeApproval(approval, { cwd: options.cwd }).text,
                  requestedSchema: {
                    type: "object",
                    properties: {
                      approve: { type: "boolean", title: "Approve", description: "Run this call" },
                    },
                    required: ["approve"],
                  },
                },
                { signal: approval.signal ?? signal },
              );
              return answer.action === "accept" && answer.content?.approve === true;
            }
          : undefined;
        const interactions: ToolInteractionsContext = {
          request: async (input) => {
            const form = formOf(input.document);
            if (form === undefined || !canElicit()) {
              throw new ContractError(
                "interaction_unavailable",
                form === undefined
                  ? "interaction_unavailable: this form does not fit an MCP elicitation"
                  : "interaction_unavailable: the MCP client does not support elicitation",
              );
            }
            const prepared = prepareForm(form.fields, options.maxOutputBytes ?? 65_536);
            const answer = await server.elicitInput(
              { mode: "form", message: form.message, requestedSchema: elicitationSchema(prepared.fields) },
              { signal },
            );
            if (answer.action !== "accept") return { status: "cancelled" };
            const checked = validateFormAnswers(prepared, answer.content ?? {});
            if (!checked.ok) {
              throw new ContractError(
                checked.issues[0]?.code ?? "interaction_invalid",
                checked.issues[0]?.message ?? "",
              );
            }
            return { status: "answered", answers: checked.answers };
          },
        };
        const context: DispatchContext = {
          cwd: options.cwd,
          signal,
          ...(options.whitelist === undefined ? {} : { whitelist: options.whitelist }),
          ...(approve === undefined ? {} : { approve }),
          ...(options.approvalTimeoutMs === undefined
            ? {}
            : { approvalTimeoutMs: options.approvalTimeoutMs }),
          ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
          interactions,
        };
        const toolCallId = `mcp-${connectionId}-${String(extra.requestId)}`;
        // The inspection (a copy of the tool's schemas) only when a panel call needs it.
        const inspection =
          options.panels?.beginCall === undefined
            ? undefined
            : registry.inspectionDefinition(request.params.name);
        const panelCall =
          options.panels?.beginCall !== undefined && inspection !== undefined
            ? options.panels.beginCall({
                owner: inspection.identity,
                declarations: inspection.panels ?? [],
                toolCallId,
                source: "model",
                ...(inspection.implicitPanels === true ? { implicitPanels: true } : {}),
              })
            : undefined;
        if (panelCall !== undefined) context.panels = panelCall.context;
        let result: ToolResult;
        try {
          result = await registry.dispatch(
            {
              name: request.params.name,
              arguments: request.params.arguments ?? {},
              toolCallId,
              source: "model",
            },
            context,
          );
        } catch (error) {
          panelCall?.abandon();
          throw error;
        }
        panelCall?.settle({ hasOtherContent: result.content.length > 0 });
        return checkedResult(toMcpResult(result));
      },
    );

    if (options.panels !== undefined) {
      const panels = options.panels;
      server.setRequestHandler(ListResourcesRequestSchema, () => ({
        resources: panels.list().map((state) => ({
          uri: panelUri(state.fullId),
          name: state.fullId,
          title: String(state.declaration.title ?? state.id),
          mimeType: "application/json",
        })),
      }));
      server.setRequestHandler(ReadResourceRequestSchema, (request) => {
        const uri = request.params.uri;
        const state = uri.startsWith(PANEL_RESOURCE_PREFIX)
          ? panels.get(decodeURIComponent(uri.slice(PANEL_RESOURCE_PREFIX.length)))
          : undefined;
        if (state === undefined) throw new Error(`unknown resource: ${uri}`);
        return {
          contents: [
            {
              uri,
              mimeType: "application/json",
              text: JSON.stringify({
                revision: state.revision,
                closed: state.closed,
                document: state.document,
              }),
            },
          ],
        };
      });
      server.setRequestHandler(SubscribeRequestSchema, (request) => {
        subscriptions.get(server)?.add(request.params.uri);
        return {};
      });
      server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
        subscriptions.get(server)?.delete(request.params.uri);
        return {};
      });
    }
    server.onclose = () => {
      connections.delete(server);
      subscriptions.delete(server);
    };
    return server;
  };

  return {
    connections,
    async connect(transport: Transport): Promise<Server> {
      const server = build();
      connections.add(server);
      subscriptions.set(server, new Set());
      await server.connect(transport);
      return server;
    },
    async notifyToolsChanged(): Promise<void> {
      await Promise.all(
        [...connections].map((server) => server.sendToolListChanged().catch(() => undefined)),
      );
    },
    async close(): Promise<void> {
      unsubscribe?.();
      await Promise.all([...connections].map((server) => server.close().catch(() => undefined)));
      connections.clear();
    },
  };
}
