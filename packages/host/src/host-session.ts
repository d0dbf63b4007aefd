import { AsyncLocalStorage } from "node:async_hooks";
import {
  createHookDispatcher,
  type HookDispatchResult,
  type HookEvent,
  type HookPayload,
  type HookPayloadFields,
  type HookReceipt,
  type LoadedHook,
} from "@raw/hook-protocol";
import {
  type AsyncInteractionService,
  type BoundInteractionContext,
  bindInteractionContext,
  createInteractionService,
  createPanelHost,
  type InteractionAdapter,
  type InteractionContext,
  type InteractionService,
  type InteractionStore,
  type PanelFrame,
  type PanelHost,
  type PanelSettlement,
  type PanelState,
  type SyncInteractionStore,
} from "@raw/panel/host";
import {
  type AnyToolRegistration,
  type ApprovalRequest,
  type CallSource,
  createPolicy,
  createToolRegistry,
  DEFAULT_MAX_OUTPUT_BYTES,
  type DispatchStepEvent,
  type PolicyExplanation,
  type ToolDefinition,
  type ToolRegistry,
  type ToolResult,
  type ToolRule,
  type ToolRuleJson,
} from "@raw/tool-api";
import { type ApprovalView, describeApproval } from "./approval-view.js";
import { sessionRules } from "./default-rules.js";

/** A tool a session loads: a loaded tool folder (`loadToolFolders`) or a registration built in code. */
export type HostTool = { readonly registration: AnyToolRegistration } | AnyToolRegistration;

/** The approval callback of a host session: the request and the one approval view (A10) of it. */
export type HostApprove = (request: ApprovalRequest, view: ApprovalView) => unknown;

/** Options of `openHostSession`. */
export interface HostSessionOptions {
  /** The session's working folder (absolute): calls run there and the approval view marks paths outside it. */
  readonly cwd: string;
  /** The tools: loaded tool folders (`bundledToolFolders()` loaded with `loadToolFolders`) or registrations. */
  readonly tools: readonly HostTool[];
  /**
   * The user's rules (parsed or JSON). The session runs `DEFAULT_RULES` and an `ask` per tool that declares an
   * effects schema before them (A10, `sessionRules`), so a user rule that applies always decides.
   */
  readonly rules?: readonly (ToolRule | ToolRuleJson)[] | undefined;
  /** Loaded hooks (`loadHookFolder`): their `PreToolUse` gate and notifications are wired as the registry's ports. */
  readonly hooks?: readonly LoadedHook[] | undefined;
  /** The environment of hook processes (default: this process's). */
  readonly hookEnv?: NodeJS.ProcessEnv | undefined;
  /** Decides an `ask`; without it a call that needs approval ends `approval_required`. */
  readonly approve?: HostApprove | undefined;
  /** Asks the user for interaction requests; without it (and without `interactive`) they fail `interaction_unavailable`. */
  readonly interactionAdapter?: InteractionAdapter | undefined;
  /** Answers arrive only through `session.interactions.submit` (a web page). */
  readonly interactive?: boolean | undefined;
  /**
   * Where interaction requests live: any `InteractionStore` — in memory (default), SQLite
   * (`openSqliteInteractionStore`, synchronous) or PostgreSQL (`await openPostgresInteractionStore(...)`,
   * asynchronous: the session's `interactions.submit`/`get` then return promises).
   */
  readonly store?: InteractionStore | undefined;
  /** The session the interaction requests belong to in the store (a store shared by hosts keeps them apart). */
  readonly sessionId?: string | undefined;
  /** Observes the panel host's live frames. */
  readonly onPanelFrame?: ((frame: PanelFrame) => void) | undefined;
  /** Committed sidebar panels to start from (a restart). */
  readonly restorePanels?: readonly PanelState[] | undefined;
  /** The default output budget of a call in bytes (default `DEFAULT_MAX_OUTPUT_BYTES`). */
  readonly maxOutputBytes?: number | undefined;
}

/** One event of a session: a dispatch step (in the order of `tool-api.md` §7.2) or a hook receipt, by call. */
export type HostStepEvent =
  | { readonly type: "step"; readonly toolCallId: string; readonly step: DispatchStepEvent }
  | { readonly type: "hook"; readonly toolCallId: string; readonly receipt: HookReceipt };

/** A call handed to `HostSession.dispatch`. */
export interface HostCall {
  /** The model-facing tool name. */
  readonly name: string;
  readonly arguments: unknown;
  /** Default: `call-<n>`, counted per session. */
  readonly toolCallId?: string | undefined;
}

/** Options of one dispatch. */
export interface HostDispatchOptions {
  readonly signal?: AbortSignal | undefined;
  /** `"model"` (default) or `"user_action"` (a panel action). */
  readonly source?: CallSource | undefined;
  /** Observes this call's events (besides the session's subscribers). */
  readonly onStep?: ((event: HostStepEvent) => void) | undefined;
  /**
   * Decides this call's `ask` instead of the session's `approve` (an approval bridged from another process, such as
   * an AI SDK chat's approval response); it is given the same approval view.
   */
  readonly approve?: HostApprove | undefined;
}

/** What one dispatch did: the result, and what the panel host committed for it. */
export interface HostDispatch {
  readonly toolCallId: string;
  /** The canonical identity, or `null` for a tool the session does not have. */
  readonly identity: string | null;
  readonly result: ToolResult;
  /** The panel receipts and the lines a model reads (`panels.md` §7). */
  readonly panels: PanelSettlement;
  /** The hook receipts of this call, in order. */
  readonly hooks: readonly HookReceipt[];
}

/** What `HostSession.previewEffects` found: the intended effects, or the result that ended the call before them. */
export type HostEffectsPreview =
  | { readonly ok: true; readonly identity: string; readonly effects: unknown }
  | { readonly ok: false; readonly identity: string | null; readonly result: ToolResult };

/** The reason of the gate that stops every preview before approval and the handler. */
export const PREVIEW_STOP_REASON = "a preview stops every call at the PreToolUse gate";

/** Options of `openHostSession` over a synchronous store (memory, SQLite): `interactions` answers at once. */
export interface SyncHostSessionOptions extends HostSessionOptions {
  readonly store?: SyncInteractionStore | undefined;
}

/**
 * A host session (amendment A10): one composition of registry, rules, hooks, panels, interactions and approval.
 * `Interactions` is `InteractionService` over a synchronous store and `AsyncInteractionService` over an
 * asynchronous one (PostgreSQL).
 */
export interface HostSession<
  Interactions extends InteractionService | AsyncInteractionService =
    | InteractionService
    | AsyncInteractionService,
> {
  readonly cwd: string;
  readonly registry: ToolRegistry;
  /** The rules the session runs: the defaults, then the user's (`defaults` counts the former). */
  readonly rules: { readonly rules: readonly (ToolRule | ToolRuleJson)[]; readonly defaults: number };
  readonly panels: PanelHost;
  readonly interactions: Interactions;
  /** Runs one call through the whole pipeline; never throws for a contract failure. */
  dispatch(call: HostCall, options?: HostDispatchOptions): Promise<HostDispatch>;
  /** What the model sees (`tool-api.md` §6.3). */
  definitions(whitelist?: readonly string[]): ToolDefinition[];
  /** Which rule decides a call of `identity` (`tool-api.md` §9.5), with the session's rules. */
  explain(identity: string, args?: unknown, effects?: unknown): PolicyExplanation;
  /**
   * Runs the session's hooks subscribed to an event outside a tool call (`Stop`, `SessionStart`, or any event for a
   * hook tested alone): the payload is a request built by `buildHookPayload` or its fields (the session's `cwd` is
   * the envelope). Without hooks it resolves to no receipts. The hooks' processes end with the session.
   */
  runHooks(
    event: HookEvent,
    payload: HookPayload | HookPayloadFields,
    options?: { readonly signal?: AbortSignal | undefined },
  ): Promise<HookDispatchResult>;
  /**
   * The intended effects of a call, computed by the real pipeline (exposure, visibility, validation, effects
   * preparation) with the session's rules, and stopped at the PreToolUse gate: nothing is approved, no hook or
   * handler runs. `effects` is `undefined` for a tool that declares none.
   */
  previewEffects(
    call: HostCall,
    options?: { readonly signal?: AbortSignal | undefined },
  ): Promise<HostEffectsPreview>;
  /** Adds an observer of every call's events; returns the function that removes it. */
  subscribe(listener: (event: HostStepEvent) => void): () => void;
  /** Ends pending interactions and the hooks' processes; later dispatches end `aborted`. */
  close(): Promise<void>;
}

function noop(): void {}

/** Hands `event` to one observer: observers watch; they cannot change a dispatch. */
function notify(observer: (event: HostStepEvent) => void, event: HostStepEvent): void {
  try {
    observer(event);
  } catch {
    // Observers watch; they cannot change a dispatch.
  }
}

function registrationOf(tool: HostTool): AnyToolRegistration {
  return "registration" in tool ? tool.registration : tool;
}

/**
 * Opens a host session: a real registry with the session's rules (the A10 defaults before the user's), the hook
 * dispatcher's gate and notifications as its ports, a panel host as its panel sink and each call's `context.panels`,
 * an interaction service bound to each call as `context.interactions` (its budget the handler's own), and the
 * approval callback given the one approval view. Every surface runs this, so none re-wires the packages.
 *
 * Opening does no I/O: a store that needs it (PostgreSQL) is opened first (`await openPostgresInteractionStore`)
 * and handed in; the session never closes a store it did not open.
 */
export function openHostSession(options: SyncHostSessionOptions): HostSession<InteractionService>;
export function openHostSession(options: HostSessionOptions): HostSession<AsyncInteractionService>;
export function openHostSession(options: HostSessionOptions): HostSession {
  const cwd = options.cwd;
  const registrations = options.tools.map(registrationOf);
  const rules = sessionRules(
    options.rules,
    registrations.map((r) => ({ identity: r.identity ?? r.name, effectsSchema: r.effectsSchema })),
  );
  const listeners = new Set<(event: HostStepEvent) => void>();
  const current = new AsyncLocalStorage<{ toolCallId: string; emit: (event: HostStepEvent) => void }>();
  const hooks =
    options.hooks && options.hooks.length > 0
      ? createHookDispatcher(options.hooks, {
          tools: registrations,
          envelope: () => ({ cwd }),
          onReceipt: (receipt) => {
            const call = current.getStore();
            if (call) call.emit({ type: "hook", toolCallId: call.toolCallId, receipt });
          },
          env: options.hookEnv,
        })
      : undefined;
  const panels = createPanelHost({
    ...(options.onPanelFrame ? { onFrame: options.onPanelFrame } : {}),
    ...(options.restorePanels ? { restore: options.restorePanels } : {}),
  });
  const serviceOptions = {
    ...(options.interactionAdapter
      ? { adapter: options.interactionAdapter }
      : options.interactive
        ? { interactive: true }
        : {}),
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  };
  const interactions: InteractionService | AsyncInteractionService = options.store
    ? createInteractionService({ ...serviceOptions, store: options.store })
    : createInteractionService(serviceOptions);
  const approve = options.approve;
  const registry = createToolRegistry({
    rules: rules.rules,
    preToolUse: hooks?.preToolUse,
    notify: hooks?.notify,
    panelSink: panels.sink,
    approve: approve ? (request) => approve(request, describeApproval(request, { cwd })) : undefined,
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
  });
  registry.register(registrations);
  const policy = createPolicy(rules.rules);
  const closing = new AbortController();
  /** The controllers of the running calls that have a signal of their own: `close()` aborts them. */
  const running = new Set<AbortController>();
  /**
   * A call's signal: the session's own when the caller gives none, else one that aborts with the caller's or when
   * the session closes (what `AbortSignal.any` does, without its weak references and finalizers on the session's
   * long-lived signal, which cost every call and grow with the calls made). `release` ends the link.
   */
  const callSignal = (given: AbortSignal | undefined): { signal: AbortSignal; release: () => void } => {
    if (given === undefined) return { signal: closing.signal, release: noop };
    const controller = new AbortController();
    if (given.aborted) controller.abort(given.reason);
    else if (closing.signal.aborted) controller.abort(closing.signal.reason);
    if (controller.signal.aborted) return { signal: controller.signal, release: noop };
    const forward = (): void => controller.abort(given.reason);
    given.addEventListener("abort", forward, { once: true });
    running.add(controller);
    return {
      signal: controller.signal,
      release: () => {
        given.removeEventListener("abort", forward);
        running.delete(controller);
      },
    };
  };
  let calls = 0;
  let preview: ToolRegistry | undefined;
  let previewRegistered = false;

  async function dispatch(call: HostCall, dispatchOptions: HostDispatchOptions = {}): Promise<HostDispatch> {
    const toolCallId = call.toolCallId ?? `call-${++calls}`;
    const source = dispatchOptions.source ?? "model";
    const callApprove = dispatchOptions.approve;
    const inspection = registry.inspectionDefinition(call.name);
    const receipts: HookReceipt[] = [];
    const onStep = dispatchOptions.onStep;
    const emit = (event: HostStepEvent): void => {
      if (event.type === "hook") receipts.push(event.receipt);
      if (onStep !== undefined) notify(onStep, event);
      if (listeners.size === 0) return;
      for (const observer of [...listeners]) notify(observer, event);
    };
    const { signal, release } = callSignal(dispatchOptions.signal);
    const panelCall = panels.beginCall({
      owner: inspection?.identity ?? call.name,
      declarations: inspection?.panels ?? [],
      toolCallId,
      source,
      // A tool that declares no panels may still send updates to implicit ones (a mounted MCP tool, `panels.md` §2.4).
      ...(inspection?.implicitPanels === true ? { implicitPanels: true } : {}),
    });
    // Interactions are fitted to the output cap dispatch gives the handler (raised by a tool's `outputLimit`): the
    // context is bound when the handler asks, after the `handler` step said its budget (A10: one interaction path).
    let budget = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    let bound: BoundInteractionContext | undefined;
    const context: InteractionContext = {
      request(input) {
        bound ??= bindInteractionContext(interactions, panelCall, { maxOutputBytes: budget, signal });
        return bound.request(input);
      },
    };
    const run = (): Promise<ToolResult> =>
      registry.dispatch(
        { name: call.name, arguments: call.arguments, toolCallId, source },
        {
          cwd,
          signal,
          panels: panelCall.context,
          interactions: context,
          onStep: (step) => {
            if (step.step === "handler" && step.status === "started" && step.maxOutputBytes !== undefined) {
              budget = step.maxOutputBytes;
            }
            // Built only for someone watching (a step event per step and status otherwise costs every call).
            if (onStep !== undefined || listeners.size > 0) emit({ type: "step", toolCallId, step });
          },
          onHandlerSettled: () => panelCall.closeContext(),
          ...(callApprove
            ? {
                approve: (request: ApprovalRequest) =>
                  callApprove(request, describeApproval(request, { cwd })),
              }
            : {}),
        },
      );
    // Hook receipts find their call through `current`; without hooks there are none, and no `AsyncLocalStorage`
    // runs (its promise hooks would tax every promise of the process).
    let result: ToolResult;
    try {
      result = await (hooks ? current.run({ toolCallId, emit }, run) : run());
    } finally {
      release();
    }
    bound?.cancelPending();
    const settlement = panelCall.settle({ hasOtherContent: result.content.length > 0 });
    return {
      toolCallId,
      identity: inspection?.identity ?? null,
      result,
      panels: settlement,
      hooks: receipts,
    };
  }

  return {
    cwd,
    registry,
    rules,
    panels,
    interactions,
    dispatch,
    definitions: (whitelist) => registry.definitions(whitelist),
    explain: (identity, args, effects) => policy.explain(identity, args, effects),
    async previewEffects(call, previewOptions = {}) {
      let reached: { effects: unknown } | undefined;
      preview ??= createToolRegistry({
        rules: rules.rules,
        preToolUse: (request) => {
          reached = { effects: request.effects };
          return { blocked: "denied", reason: PREVIEW_STOP_REASON };
        },
      });
      if (!previewRegistered) {
        preview.register(registrations);
        previewRegistered = true;
      }
      const signal = previewOptions.signal
        ? AbortSignal.any([previewOptions.signal, closing.signal])
        : closing.signal;
      const result = await preview.dispatch({ name: call.name, arguments: call.arguments }, { cwd, signal });
      const identity = preview.inspectionDefinition(call.name)?.identity ?? null;
      if (reached === undefined || identity === null) return { ok: false, identity, result };
      return { ok: true, identity, effects: reached.effects };
    },
    async runHooks(event, payload, runOptions = {}) {
      if (!hooks) return { receipts: [] };
      const signal = runOptions.signal
        ? AbortSignal.any([runOptions.signal, closing.signal])
        : closing.signal;
      return hooks.run(event, payload, { signal });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      // The service first: a question still waiting is kept as interrupted (panels.md §13.5), not cancelled.
      interactions.close();
      closing.abort();
      for (const controller of [...running]) controller.abort(closing.signal.reason);
    },
  };
}
