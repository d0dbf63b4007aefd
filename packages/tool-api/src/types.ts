import type { PanelDeclaration } from "@raw/panel";
import type { InteractionContext, PanelContext } from "@raw/panel/host";
import type { RuleEffect } from "./rules.js";

/** A predicate source a tool may declare in `condition_sources` / `conditionSources`. */
export type ConditionSource = "arguments" | "effects";

/** Where a call comes from: the model, or a user running a panel action (tool-api.md §7.1). */
export type CallSource = "model" | "user_action";

/** A `text` content block (tool-api.md §8.1). */
export interface TextBlock {
  type: "text";
  text: string;
  channel?: "stdout" | "stderr" | undefined;
}

/** A `json` content block (tool-api.md §8.1). */
export interface JsonBlock {
  type: "json";
  value: unknown;
}

/** An `image` content block: base64 PNG or JPEG data (tool-api.md §8.1). */
export interface ImageBlock {
  type: "image";
  mimeType: "image/png" | "image/jpeg";
  data: string;
  path?: string | undefined;
  byteSize?: number | undefined;
}

/** A `panel` result block (`panels.md` §6.2); only handlers return it, and dispatch removes it at step 12. */
export interface PanelResultBlock {
  type: "panel";
  [key: string]: unknown;
}

/** A content block of a result returned by dispatch. */
export type ContentBlock = TextBlock | JsonBlock | ImageBlock;

/** A content block a handler may return: the dispatch blocks plus panel result blocks. */
export type HandlerContentBlock = ContentBlock | PanelResultBlock;

/** Optional fields shared by handler results and dispatch results (tool-api.md §8.2). */
interface ResultFields {
  /** Stable snake_case code; SHOULD be present whenever `isError` is true. */
  code?: string | undefined;
  truncated?: boolean | undefined;
  retainedBytes?: number | undefined;
  observedBytes?: number | undefined;
  exitCode?: number | null | undefined;
  signal?: string | null | undefined;
  timedOut?: boolean | undefined;
}

/** What a handler returns (tool-api.md §8.2): a boolean `isError` and an array of blocks. */
export interface HandlerResult extends ResultFields {
  isError: boolean;
  content: HandlerContentBlock[];
  [key: string]: unknown;
}

/**
 * What `dispatch` resolves to (tool-api.md §8.2), after panel extraction and capping. When the call prepared
 * intended effects, they are reported as the non-enumerable host-only property `effects` (never in `content`).
 */
export interface ToolResult extends ResultFields {
  isError: boolean;
  content: ContentBlock[];
  /** The call's frozen intended effects (host-only, non-enumerable), when step 6 produced them. */
  readonly effects?: unknown;
  [key: string]: unknown;
}

/** The panel context a host passes through to handlers: `@raw/panel`'s `PanelContext` (`panels.md` §6.1). */
export type ToolPanelsContext = PanelContext;

/** The interaction context a host passes through to handlers: `@raw/panel`'s `InteractionContext` (§13.1). */
export type ToolInteractionsContext = InteractionContext;

/**
 * The handler context (tool-api.md §4.4). It never holds the approval callback, the whitelist, `autoApprove`, the
 * hook ports, the panel sink or any other host callback.
 */
export interface ToolHandlerContext {
  /** Absolute, lexically normalized session working directory. */
  readonly cwd: string;
  /** The effective output cap of this call (§8.3). */
  readonly maxOutputBytes: number;
  /** The call's abort signal, when it has one. */
  readonly signal?: AbortSignal;
  /** The call's id, when known. */
  readonly toolCallId?: string;
  /** The frozen effects snapshot, when the tool has a descriptor. */
  readonly effects?: unknown;
  /** The panel context, when the host supports panels. */
  readonly panels?: ToolPanelsContext;
  /** The interaction context, when the host supports interactions for this tool. */
  readonly interactions?: ToolInteractionsContext;
}

/**
 * A tool handler (tool-api.md §4.1): receives the frozen arguments and the handler context. `Args` is the type the
 * input schema guarantees (default `unknown`: the handler checks what it reads).
 */
export type ToolHandler<Args = unknown> = (
  args: Args,
  context: ToolHandlerContext,
) => HandlerResult | Promise<HandlerResult>;

/** `validateArgs` (tool-api.md §4.2): `undefined` when valid, a string to reject. Synchronous. */
export type ValidateArgs<Args = unknown> = (args: Args) => string | undefined;

/** `describeEffects(args, { cwd })` (effects.md §3): synchronous, bounded, lexical. */
export type DescribeEffects<Args = unknown> = (args: Args, context: Readonly<{ cwd: string }>) => unknown;

/** A normalized panel declaration (`panels.md` §2): `@raw/panel`'s `PanelDeclaration`; the registry does not inspect it. */
export type ToolPanelDeclaration = PanelDeclaration;

/**
 * The in-memory record a registry holds for one tool (tool-api.md §6.1). `Args` types the arguments `handler`,
 * `validateArgs` and `describeEffects` receive (default `unknown`).
 */
export interface ToolRegistration<Args = unknown> {
  /** Model-facing name, unique in the registry. */
  name: string;
  /** Canonical identity; defaults to `name`. */
  identity?: string | undefined;
  /** Sent to the model. */
  description: string;
  /** Object schema of the arguments (§3). */
  inputSchema: Record<string, unknown>;
  /** The handler (§4.1). */
  handler: ToolHandler<Args>;
  /** Optional argument check run after the schema (§4.2). */
  validateArgs?: ValidateArgs<Args> | undefined;
  /** Predicate sources; default `["arguments"]`. */
  conditionSources?: readonly ConditionSource[] | undefined;
  /** Object schema of the intended effects; present together with `describeEffects`. */
  effectsSchema?: Record<string, unknown> | undefined;
  /** The effects descriptor (effects.md §3). */
  describeEffects?: DescribeEffects<Args> | undefined;
  /** Normalized panel declarations. */
  panels?: readonly ToolPanelDeclaration[] | undefined;
  /** True for owners that may write panels they never declared (MCP and ACP tools). */
  implicitPanels?: boolean | undefined;
  /** Positive integer raising this tool's output cap (§8.3). For host tools only. */
  outputLimit?: number | undefined;
  /**
   * How `inputSchema` is compiled: `"strict"` (default, §3) or `"foreign"` for schemas the host cannot fix (MCP
   * tools; `@raw/schema`'s `SchemaProfile`). The effects schema is always strict.
   */
  schemaProfile?: "strict" | "foreign" | undefined;
}

/** What the model sees of one tool (tool-api.md §6.3). */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What a host reads about one registered tool (tool-api.md §6.3); never sent to the model. */
export interface ToolInspection extends ToolDefinition {
  identity: string;
  conditionSources: ConditionSource[];
  effectsSchema?: Record<string, unknown>;
  panels?: ToolPanelDeclaration[];
  implicitPanels?: boolean;
  outputLimit?: number;
  hasValidateArgs: boolean;
  hasDescribeEffects: boolean;
}

/** The approval request (tool-api.md §7.5); `arguments` and `effects` are the frozen snapshots. */
export interface ApprovalRequest {
  readonly identity: string;
  readonly name: string;
  readonly arguments: unknown;
  readonly effects?: unknown;
  readonly toolCallId?: string;
  readonly signal?: AbortSignal;
}

/** The approval callback (tool-api.md §7.5): truthy approves, falsy denies. */
export type ApprovalCallback = (request: ApprovalRequest) => unknown;

/** The request of the `PreToolUseGate` port (tool-api.md §7.7). */
export interface PreToolUseRequest {
  readonly identity: string;
  readonly name: string;
  readonly source: CallSource;
  readonly arguments: unknown;
  readonly effects?: unknown;
  readonly toolCallId?: string;
  readonly signal?: AbortSignal;
}

/** The answer of the `PreToolUseGate` port: an empty object means continue. */
export interface PreToolUseAnswer {
  blocked?: "denied" | "error" | undefined;
  reason?: string | undefined;
}

/** Port called at dispatch step 9, after conditional policy and before approval (tool-api.md §7.7). */
export type PreToolUseGate = (request: PreToolUseRequest) => Promise<PreToolUseAnswer> | PreToolUseAnswer;

/** The post notification events (tool-api.md §7.7). */
export type ToolNotificationEvent = "PostToolUse" | "PostToolUseFailure";

/** The request of the `ToolNotification` port: `result` is taken after panel extraction and before capping. */
export interface ToolNotificationRequest {
  readonly identity: string;
  readonly name: string;
  readonly source: CallSource;
  readonly arguments: unknown;
  readonly effects?: unknown;
  readonly toolCallId?: string;
  readonly result: ToolResult;
}

/** Port called at dispatch step 13, only when the handler was invoked; it cannot change the result (§7.7). */
export type ToolNotification = (
  event: ToolNotificationEvent,
  request: ToolNotificationRequest,
) => Promise<void> | void;

/** Which call a panel sink's blocks belong to (an addition to the `(blocks) → void` port of §7.8). */
export interface PanelSinkCall {
  readonly identity: string;
  readonly name: string;
  readonly source: CallSource;
  readonly toolCallId?: string;
}

/** Port receiving the panel blocks removed at dispatch step 12, in their original order (tool-api.md §7.8). */
export type PanelSink = (blocks: readonly PanelResultBlock[], call: PanelSinkCall) => void;

/** What `onStart` and `onHandlerSettled` observers receive. */
export interface DispatchObservation {
  readonly identity: string;
  readonly name: string;
  readonly source: CallSource;
  readonly toolCallId?: string;
}

/** One tool call: `toolCallId` and `source` travel with the call (tool-api.md §7.1). */
export interface ToolCall {
  name: string;
  arguments: unknown;
  toolCallId?: string | undefined;
  source?: CallSource | undefined;
}

/** Per-call dispatch context (tool-api.md §7.1); the settings override the registry defaults. */
export interface DispatchContext {
  /** Absolute session working directory (required). */
  cwd: string;
  signal?: AbortSignal | undefined;
  /** Model-facing names exposed in this session; names outside it are not exposed. */
  whitelist?: readonly string[] | ReadonlySet<string> | undefined;
  panels?: ToolPanelsContext | undefined;
  interactions?: ToolInteractionsContext | undefined;
  approve?: ApprovalCallback | undefined;
  autoApprove?: boolean | undefined;
  approvalTimeoutMs?: number | undefined;
  maxOutputBytes?: number | undefined;
  /** How long a running handler may still settle once the signal aborted (A5); overrides the registry default. */
  handlerAbortGraceMs?: number | undefined;
  /** Host observer called in step 11 before the handler; exceptions ignored. */
  onStart?: ((info: DispatchObservation) => void) | undefined;
  /** Host observer called in step 12 once the handler settled; exceptions ignored. */
  onHandlerSettled?: ((info: DispatchObservation) => void) | undefined;
  /**
   * Host observer of the pipeline: called with each step of tool-api.md §7.2 as it happens (`DispatchStepEvent`);
   * exceptions ignored; it cannot change the call. Dispatch builds no event when it is absent.
   */
  onStep?: ((event: DispatchStepEvent) => void) | undefined;
}

/** The steps of tool-api.md §7.2, by name; `abort_check` is steps 4 and 8 (the event's `number` tells which). */
export type DispatchStepName =
  | "exposure"
  | "visibility"
  | "validation"
  | "abort_check"
  | "snapshot"
  | "effects"
  | "policy"
  | "pre_tool_use"
  | "approval"
  | "handler"
  | "settle"
  | "notify"
  | "cap";

/**
 * How a step went: `ok` (passed; for `approval`, approved), `failed` (it ended the call with `code`), `skipped`
 * (nothing to do: no descriptor, no gate, approval not needed, no notification port), `started` (the handler was
 * invoked; its `ok`/`failed` event follows once it settled).
 */
export type DispatchStepStatus = "ok" | "failed" | "skipped" | "started";

/** One step of a dispatch as it happens (`DispatchContext.onStep`); frozen. */
export interface DispatchStepEvent {
  readonly step: DispatchStepName;
  /** The step's number in tool-api.md §7.2 (1–14). */
  readonly number: number;
  readonly status: DispatchStepStatus;
  /** The result code, when the step ended the call (and on `cap`, the final result's code). */
  readonly code?: string;
  /** The result message, when the step ended the call. */
  readonly message?: string;
  /** `exposure`: the canonical identity of the tool. */
  readonly identity?: string;
  /** `visibility`, `policy`: the decision of the rules (`deny` when hidden; `allow` or `ask` at step 7). */
  readonly decision?: RuleEffect;
  /** `visibility`, `policy`: the index of the deciding rule, or `null` when no rule applied (tool-api.md §9.5). */
  readonly ruleIndex?: number | null;
  /** `visibility`, `policy`: whether the tool is hidden (§9.3). */
  readonly hidden?: boolean;
  /** `effects`: the frozen effects snapshot. */
  readonly effects?: unknown;
  /** `pre_tool_use`: the gate's block, when it answered with one. */
  readonly blocked?: "denied" | "error";
  /** `pre_tool_use`: the gate's reason, when it gave one. */
  readonly reason?: string;
  /** `handler` (started): the call's effective output cap, as the handler receives it (§8.3). */
  readonly maxOutputBytes?: number;
  /** `handler` (settled): milliseconds from invocation to settlement. */
  readonly durationMs?: number;
  /** `settle`: how many panel blocks went to the panel sink. */
  readonly panelBlocks?: number;
  /** `notify`: the post notification that was sent. */
  readonly notification?: ToolNotificationEvent;
  /** `cap`: whether the returned result is truncated. */
  readonly truncated?: boolean;
}
