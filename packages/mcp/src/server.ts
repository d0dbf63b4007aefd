import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  type Tool,
  type ToolAnnotations,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { type HostDispatch, type HostSession, type HostSessionOptions, openHostSession } from "@raw/host";
import type { FormField } from "@raw/panel";
import type { InteractionRecord, InteractionRetry, InteractionSubmission, PanelHost } from "@raw/panel/host";
import { escapeDisplayText } from "@raw/schema";
import type { ApprovalRequest, ToolResult } from "@raw/tool-api";
import { z } from "zod";
import { checkCallToolResult } from "./call-tool-result.js";
import { elicitationSchema, formOf } from "./form-elicitation.js";
import { routeCheckedMessages } from "./protocol-routing.js";
import {
  createRequestStateKeeper,
  type RequestStateChain,
  type RequestStateClaims,
} from "./request-state.js";
import { toMcpResult } from "./result-mapping.js";
import { ServerStdioTransport } from "./server-stdio-transport.js";

/** The URI scheme of panels exposed as MCP resources: `raw-panel:///<encoded full id>`. */
export const PANEL_RESOURCE_PREFIX = "raw-panel:///";

/** How many times one form is asked again after an answer the interaction service refused; then it is cancelled. */
export const MAX_MCP_FORM_RETRIES = 3;

/**
 * Options of `createMcpServer`: the host session's (amendment A10: tools, rules, hooks, store, output budget; the
 * session's approval and interaction ports are the MCP client's) and the server's own.
 */
export interface CreateMcpServerOptions
  extends Omit<HostSessionOptions, "approve" | "interactionAdapter" | "interactive"> {
  /** The server's name (or a function giving it per connection) and version (default `raw`, `0.1.0`). */
  name?: string | (() => string) | undefined;
  version?: string | undefined;
  /**
   * The annotations of a tool that come from somewhere that declares them (for example a mounted MCP server's own
   * annotations, via `McpMount.tools`). Tools without them get no read-only or non-destructive claim.
   */
  annotations?: ((name: string) => ToolAnnotations | undefined) | undefined;
  /**
   * The display title of a tool that comes from somewhere that declares one (a mounted MCP server's own `title`, via
   * `McpMount.tools`), listed as it came (bounded like every listed string); tools without one are listed untitled.
   */
  title?: ((name: string) => string | undefined) | undefined;
  /** Exposes the session's panels as resources, with `notifications/resources/updated` (default true). */
  exposePanels?: boolean | undefined;
  /** Instructions sent in `initialize`. */
  instructions?: string | undefined;
  /** How long a 2026-07-28 approval state stays valid, in ms (default `MCP_REQUEST_STATE_TTL_MS`). */
  requestStateTtlMs?: number | undefined;
}

/** `tools/call` with the 2026-07-28 retry channel (`inputResponses`, `requestState`) kept, not stripped. */
const RetryableCallToolRequestSchema = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({
    inputResponses: z.unknown().optional(),
    requestState: z.unknown().optional(),
  }),
});

/** `server/discover` (2026-07-28): asked instead of `initialize`. */
const DiscoverRequestSchema = z.object({
  method: z.literal("server/discover"),
  params: z.looseObject({}).optional(),
});

/** The revision whose requests carry their envelope in `_meta` and get `input_required` results (amendment A11). */
export const MCP_MODERN_REVISION = "2026-07-28";

/** The `_meta` keys of a 2026-07-28 request envelope. */
const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/** The key of Raw's one approval question in an `input_required` result. */
export const MCP_APPROVAL_INPUT_KEY = "raw_approval";

/** The key of a tool's form (`context.interactions`) in an `input_required` result. */
export const MCP_FORM_INPUT_KEY = "raw_form";

/** A result as its request's revision wants it: a 2026-07-28 result states `resultType: "complete"`. */
function completed<T extends object>(params: unknown, result: T): T {
  const meta = recordOf(recordOf(params)?._meta);
  return meta?.[META_VERSION] === MCP_MODERN_REVISION ? { ...result, resultType: "complete" } : result;
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** What one MCP request lends the host session while its call runs: the client that approves and answers. */
interface CallPorts {
  approve(request: ApprovalRequest, text: string): Promise<boolean>;
  ask(
    record: InteractionRecord,
    signal: AbortSignal,
    retry?: InteractionRetry,
  ): Promise<InteractionSubmission>;
}

/** A host session served over MCP: one SDK server per connection. */
export interface RawMcpServer {
  /** The host session every call runs in (`@raw/host`); mount MCP servers into its `registry`. */
  readonly session: HostSession;
  /** Serves one connection (stdio, or one Streamable HTTP session) on `transport`; resolves once it is connected. */
  connect(transport: Transport): Promise<Server>;
  /** Tells every connected client that the tool list changed (`notifications/tools/list_changed`). */
  notifyToolsChanged(): Promise<void>;
  /** The connections currently served. */
  readonly connections: ReadonlySet<Server>;
  /** Closes every connection, then the host session. */
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

/**
 * A result with the call's panel lines (`panels.md` §9.3: one confirmation per accepted panel, one rejection line
 * per refused update, such as `panel_undeclared`) after its content, as one text block, as any host shows them.
 */
function withPanelLines(result: ToolResult, lines: readonly string[]): ToolResult {
  if (lines.length === 0) return result;
  return { ...result, content: [...result.content, { type: "text", text: lines.join("\n") }] };
}

/** Dispatch's call id from an MCP request id, unique per connection. */
let connectionCounter = 0;

/** The suffix of a call id whose request id is already running on its connection. */
let duplicateCounter = 0;

/** The approval form: one boolean to confirm, shown under the approval view. */
export const APPROVAL_SCHEMA = Object.freeze({
  type: "object" as const,
  properties: { approve: { type: "boolean" as const, title: "Approve", description: "Run this call" } },
  required: ["approve"],
});

/**
 * Serves a host session (`@raw/host`, opened here from `options`) over MCP (stdio or Streamable HTTP through
 * `connect`). `tools/list` lists exactly what the session exposes (hidden tools never appear); `tools/call`
 * dispatches with `source: "model"` through the whole pipeline. An `ask` decision becomes an elicitation showing
 * the one approval view (`describeApproval`) when the client supports elicitation, and `approval_required`
 * otherwise — never an implicit yes. Interaction forms go through the session's interaction service (an invalid
 * answer stays pending and is asked again), shown as elicitations. Panels are resources with update notifications.
 */
export function createMcpServer(options: CreateMcpServerOptions): RawMcpServer {
  const connections = new Set<Server>();
  const subscriptions = new Map<Server, Set<string>>();
  const known = new Set<string>();
  /**
   * The ports of each running call, by its dispatch call id (the interaction record names it): a map, not an
   * `AsyncLocalStorage`, whose promise hooks would tax every promise of the process.
   */
  const calls = new Map<string, CallPorts>();
  const {
    name: serverName,
    version,
    annotations,
    title,
    exposePanels,
    instructions,
    requestStateTtlMs,
    ...sessionOptions
  } = options;
  const states = createRequestStateKeeper({ ttlMs: requestStateTtlMs });
  const session = openHostSession({
    ...sessionOptions,
    // Each call approves through its own client (the per-dispatch `approve` below); nothing else is approved.
    approve: () => false,
    interactionAdapter: (record, signal, retry) => {
      const toolCallId = record.identity.toolCallId;
      const ports = toolCallId === undefined ? undefined : calls.get(toolCallId);
      if (ports === undefined) throw new Error("interaction_unavailable: no MCP call is running");
      return ports.ask(record, signal, retry);
    },
  });
  const registry = session.registry;
  const panels: PanelHost | undefined = exposePanels === false ? undefined : session.panels;
  let unsubscribe: (() => void) | undefined;

  if (panels !== undefined) {
    for (const state of panels.list()) known.add(state.fullId);
    unsubscribe = panels.subscribe((frame) => {
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

  const titleOf = (name: string): { title?: string } => {
    const text = title?.(name);
    return typeof text === "string" ? { title: text } : {};
  };
  const listTools = (): Tool[] =>
    registry.definitions().map((definition) => ({
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema as Tool["inputSchema"],
      annotations: annotations?.(definition.name) ?? UNDECLARED,
      ...titleOf(definition.name),
    }));

  const build = (): Server => {
    const server = new Server(
      {
        name: (typeof serverName === "function" ? serverName() : serverName) ?? "raw",
        version: version ?? "0.1.0",
      },
      {
        capabilities: {
          tools: { listChanged: true },
          ...(panels === undefined ? {} : { resources: { subscribe: true, listChanged: true } }),
        },
        ...(instructions === undefined ? {} : { instructions }),
      },
    );
    const connectionId = ++connectionCounter;
    // Form elicitation (an empty `elicitation: {}` of older clients means form too); URL-only clients cannot answer.
    const canElicit = (): boolean => server.getClientCapabilities()?.elicitation?.form !== undefined;

    server.setRequestHandler(ListToolsRequestSchema, (request) =>
      completed(request.params, { tools: listTools() }),
    );
    // 2026-07-28 negotiation (no handshake): the revisions served and what this server offers.
    setBaseRequestHandler.call(server, DiscoverRequestSchema, () => ({
      supportedVersions: [MCP_MODERN_REVISION, LATEST_PROTOCOL_VERSION],
      capabilities: {
        tools: { listChanged: true },
        ...(panels === undefined ? {} : { resources: { subscribe: true, listChanged: true } }),
      },
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      ...(instructions === undefined ? {} : { instructions }),
    }));

    setBaseRequestHandler.call(
      server,
      RetryableCallToolRequestSchema,
      async (request, extra): Promise<CallToolResult> => {
        const params = request.params as Record<string, unknown>;
        const meta = recordOf(params._meta);
        const modern = meta?.[META_VERSION] === MCP_MODERN_REVISION;
        const args = params.arguments ?? {};
        const deny = (code: string, message: string): CallToolResult => {
          const text = `approval denied for ${request.params.name}: ${code}: ${message}`;
          return completed(
            params,
            checkedResult(
              toMcpResult({ isError: true, code: "approval_denied", content: [{ type: "text", text }] }),
            ),
          );
        };
        /** The retry's state (2026-07-28): authentic, unexpired, for this tool and arguments, then used up. */
        let claims: RequestStateClaims | undefined;
        if (modern && params.requestState !== undefined) {
          const opened = states.open(params.requestState);
          if (!opened.ok) return deny(opened.code, opened.message);
          const bound = states.check(opened.claims, { tool: request.params.name, arguments: args });
          if (!bound.ok) return deny(bound.code, bound.message);
          // Single use from here, whatever the round does with it.
          const consumed = states.consume(opened.claims);
          if (!consumed.ok) return deny(consumed.code, consumed.message);
          claims = opened.claims;
        }
        const responses = recordOf(params.inputResponses);
        const canAskModern = recordOf(recordOf(meta?.[META_CAPABILITIES])?.elicitation) !== undefined;
        /**
         * A 2026-07-28 round's own end: aborted when the client cancels the request, and when the call stops so its
         * result becomes the question (a listener on the request's signal, removed when the call ends:
         * `AbortSignal.any` costs every call weak references and finalizers). A 2025-11-25 call has no such round
         * and runs on the request's signal itself.
         */
        const round = modern ? new AbortController() : undefined;
        const signal = round?.signal ?? extra.signal;
        const cancelled = (): void => round?.abort(extra.signal.reason);
        if (round !== undefined) {
          if (extra.signal.aborted) cancelled();
          else extra.signal.addEventListener("abort", cancelled, { once: true });
        }
        /** Where this round's chain stands: what the next state carries. */
        let chain: { identity: string; rule: string; approved: boolean } = {
          identity: claims?.identity ?? "",
          rule: claims?.rule ?? "",
          approved: claims?.approved ?? false,
        };
        /** A 2026-07-28 question to return instead of the call's result. */
        let question:
          | { key: string; message: string; schema: Record<string, unknown>; chain: RequestStateChain }
          | undefined;
        let refusal: { code: string; message: string } | undefined;
        const approveModern = (approval: ApprovalRequest, text: string): boolean => {
          const explained = session.explain(approval.identity, approval.arguments, approval.effects);
          const rule = `rule:${String(explained.ruleIndex)}`;
          if (claims !== undefined) {
            const bound = states.check(claims, {
              identity: approval.identity,
              rule: claims.rule === "" && !claims.approved && claims.asked === "form" ? undefined : rule,
            });
            if (!bound.ok) {
              refusal = bound;
              return false;
            }
            let approved = claims.approved;
            if (!approved && claims.asked === "approval") {
              const answer = recordOf(responses?.[MCP_APPROVAL_INPUT_KEY]);
              approved = answer?.action === "accept" && recordOf(answer.content)?.approve === true;
            } else if (!approved) {
              // A state issued for a form before any approval cannot carry one: the rule asks now, it did not then.
              refusal = {
                code: "request_state_rule_mismatch",
                message: "requestState was issued under another rule",
              };
              return false;
            }
            if (approved) chain = { identity: approval.identity, rule, approved: true };
            return approved;
          }
          if (!canAskModern) {
            unanswerable = true;
            return false;
          }
          question = {
            key: MCP_APPROVAL_INPUT_KEY,
            message: text,
            schema: APPROVAL_SCHEMA,
            chain: { asked: "approval", approved: false, answers: [], tries: 0 },
          };
          chain = { identity: approval.identity, rule, approved: false };
          return false;
        };
        /** 2026-07-28 forms: earlier answers replayed from the state, the pending one read, else a question. */
        const accepted: unknown[] = [...(claims?.answers ?? [])];
        let formIndex = -1;
        let pendingRead = false;
        const askModern = (
          record: InteractionRecord,
          form: { fields: FormField[]; message: string },
          retry: InteractionRetry | undefined,
        ): InteractionSubmission => {
          if (retry === undefined) formIndex += 1;
          const index = formIndex;
          const submit = (answers: unknown): InteractionSubmission => {
            accepted[index] = answers;
            return {
              requestId: record.identity.requestId,
              expectedRevision: record.revision,
              idempotencyKey: randomUUID(),
              response: "submit",
              answers: recordOf(answers) ?? {},
            };
          };
          const pending = claims?.asked === "form" && index === (claims?.answers.length ?? 0);
          let tries = pending ? (claims?.tries ?? 0) : 0;
          if (retry === undefined) {
            if (index < (claims?.answers.length ?? 0)) return submit(claims?.answers[index]);
            if (pending && !pendingRead) {
              pendingRead = true;
              const answer = recordOf(responses?.[MCP_FORM_INPUT_KEY]);
              if (answer?.action === "accept") return submit(answer.content);
              return {
                requestId: record.identity.requestId,
                expectedRevision: record.revision,
                idempotencyKey: randomUUID(),
                response: "cancel",
              };
            }
          } else {
            tries += 1;
            if (tries > MAX_MCP_FORM_RETRIES)
              throw new Error("interaction_invalid: too many invalid answers");
          }
          const message =
            retry === undefined
              ? form.message
              : `${escapeDisplayText(`${retry.error.code}: ${retry.error.message}`, { maxBytes: 512 })}\n\n${form.message}`;
          question = {
            key: MCP_FORM_INPUT_KEY,
            message,
            schema: elicitationSchema(form.fields) as Record<string, unknown>,
            chain: { asked: "form", approved: chain.approved, answers: accepted.slice(0, index), tries },
          };
          round?.abort();
          throw new Error("interaction_pending: asked the 2026-07-28 client by input_required");
        };
        const ports: CallPorts = {
          approve: async (approval, text) => {
            if (modern) return approveModern(approval, text);
            if (!canElicit()) {
              unanswerable = true;
              return false;
            }
            const answer = await server.elicitInput(
              { mode: "form", message: text, requestedSchema: APPROVAL_SCHEMA },
              { signal },
            );
            return answer.action === "accept" && answer.content?.approve === true;
          },
          ask: async (record, askSignal, retry) => {
            const form = formOf(record.document);
            if (form === undefined || (modern ? !canAskModern : !canElicit())) {
              // A rejection cancels the request (the handler reads `cancelled`).
              throw new Error(
                form === undefined
                  ? "interaction_unavailable: this form does not fit an MCP elicitation"
                  : "interaction_unavailable: the MCP client does not support elicitation",
              );
            }
            if (modern) return askModern(record, form, retry);
            retries = retry === undefined ? 0 : retries + 1;
            if (retries > MAX_MCP_FORM_RETRIES)
              throw new Error("interaction_invalid: too many invalid answers");
            const message =
              retry === undefined
                ? form.message
                : `${escapeDisplayText(`${retry.error.code}: ${retry.error.message}`, { maxBytes: 512 })}\n\n${form.message}`;
            const answer = await server.elicitInput(
              { mode: "form", message, requestedSchema: elicitationSchema(record.form.fields) },
              { signal: AbortSignal.any([signal, askSignal]) },
            );
            return {
              requestId: record.identity.requestId,
              expectedRevision: record.revision,
              idempotencyKey: randomUUID(),
              response: answer.action === "accept" ? "submit" : "cancel",
              ...(answer.action === "accept" ? { answers: answer.content ?? {} } : {}),
            };
          },
        };
        let retries = 0;
        // An `ask` this client cannot be shown ends `approval_required`, as with no approver at all.
        let unanswerable = false;
        // Unique among the running calls even when a client reuses a request id while the first is in flight.
        let toolCallId = `mcp-${connectionId}-${String(extra.requestId)}`;
        if (calls.has(toolCallId)) toolCallId = `${toolCallId}-${++duplicateCounter}`;
        calls.set(toolCallId, ports);
        let dispatched: HostDispatch;
        try {
          dispatched = await session.dispatch(
            { name: request.params.name, arguments: args, toolCallId },
            { signal, source: "model", approve: (approval, view) => ports.approve(approval, view.text) },
          );
        } finally {
          calls.delete(toolCallId);
          if (round !== undefined) extra.signal.removeEventListener("abort", cancelled);
        }
        if (question !== undefined && !extra.signal.aborted) {
          const asked: {
            key: string;
            message: string;
            schema: Record<string, unknown>;
            chain: RequestStateChain;
          } = question;
          const state = states.issue(
            { tool: request.params.name, identity: chain.identity, arguments: args, rule: chain.rule },
            asked.chain,
          );
          if (state !== undefined) {
            // One question per round (A11): Raw's approval view or the tool's form, and the signed state.
            return {
              resultType: "input_required",
              inputRequests: {
                [asked.key]: {
                  method: "elicitation/create",
                  params: { mode: "form", message: asked.message, requestedSchema: asked.schema },
                },
              },
              requestState: state,
            } as unknown as CallToolResult;
          }
          if (asked.key === MCP_APPROVAL_INPUT_KEY) unanswerable = true;
        }
        const denied = dispatched.result.code === "approval_denied";
        if (denied && refusal !== undefined) return deny(refusal.code, refusal.message);
        const result: ToolResult =
          unanswerable && denied
            ? {
                isError: true,
                code: "approval_required",
                content: [{ type: "text", text: `approval required for ${request.params.name}` }],
              }
            : withPanelLines(dispatched.result, dispatched.panels.modelLines);
        return completed(params, checkedResult(toMcpResult(result)));
      },
    );

    if (panels !== undefined) {
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
    session,
    connections,
    async connect(transport: Transport): Promise<Server> {
      const server = build();
      connections.add(server);
      subscriptions.set(server, new Set());
      await server.connect(transport);
      if (transport instanceof ServerStdioTransport) routeCheckedMessages(server, transport);
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
      await session.close();
    },
  };
}
