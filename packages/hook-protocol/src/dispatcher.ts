import { bindPredicate, matchPredicate } from "@raw/predicate";
import { ContractError } from "@raw/schema";
import { type HookEvent, isGateEvent, isToolEvent } from "./events.js";
import { HOOK_PROTOCOL_VERSION } from "./limits.js";
import type { LoadedHook } from "./load-hook-folder.js";
import { type CompiledSubscription, compileSubscription } from "./manifest.js";
import { buildHookPayload, type HookPayloadFields, type HookToolFields } from "./payload.js";
import type { HookPayload } from "./payload-schema.js";
import { hookErrorResponse } from "./response.js";
import {
  type HookHurry,
  type HookReceipt,
  type HookRunResult,
  type RunHookOptions,
  runHook,
} from "./runner.js";

/** A visible tool as the dispatcher binds it (the registration fields of tool-api.md §6.1). */
export interface HookToolView {
  /** The model-facing name (used in binding messages). */
  readonly name: string;
  /** The canonical identity; defaults to `name`. */
  readonly identity?: string | undefined;
  /** The input schema. */
  readonly inputSchema?: unknown;
  /** The effects schema, when the tool has one. */
  readonly effectsSchema?: unknown;
  /** The condition sources; default `["arguments"]`. */
  readonly conditionSources?: readonly string[] | undefined;
}

/** Per-dispatch options: the turn's abort signal, a hurry request and a shared deadline (hooks.md §11.3–11.4). */
export interface HookDispatchOptions {
  /** Aborting stops the chain (a gate blocks with `hook aborted`) and kills a running hook (`aborted`). */
  signal?: AbortSignal | undefined;
  /** When its signal fires, the remaining hooks share the deadline `min(deadline, now + graceMs)`. */
  hurry?: HookHurry | undefined;
  /** An absolute deadline (`Date.now()` milliseconds) shared by every hook of this event. */
  deadline?: number | undefined;
}

/** What a dispatch returns: a gate's block, if any, and the receipts of the hooks that ran. */
export interface HookDispatchResult {
  /** `denied` or `error` when a gate hook blocked. */
  blocked?: "denied" | "error";
  /** The block's reason. */
  reason?: string;
  /** One receipt per executed hook, in order. */
  receipts: HookReceipt[];
}

/**
 * What the dispatcher's gate accepts: the request of tool-api's `PreToolUseGate` port (tool-api.md §7.7), read
 * structurally. The port types are defined once, in `@raw/tool-api`; this package does not depend on it (it sits
 * below tool-api), so it states only what it reads, and a type-level test of the CLI proves that
 * `HookDispatcher["preToolUse"]` and `["notify"]` are assignable to tool-api's `PreToolUseGate` and `ToolNotification`.
 */
export interface ToolGateRequest {
  readonly identity: string;
  readonly name: string;
  readonly source?: "model" | "user_action" | undefined;
  /** The frozen arguments (a JSON object; anything else makes the payload invalid and the gate fail closed). */
  readonly arguments: unknown;
  /** The frozen effects snapshot, when the tool has a descriptor. */
  readonly effects?: unknown;
  readonly toolCallId?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** What the dispatcher's notification accepts: the request of tool-api's `ToolNotification` port, read structurally. */
export interface HookNotificationRequest extends Omit<ToolGateRequest, "signal"> {
  readonly result: { readonly isError: boolean; readonly content: readonly unknown[] } & Record<
    string,
    unknown
  >;
}

/** The dispatcher's gate: satisfies tool-api's `PreToolUseGate` port (§7.7); an empty object means continue. */
export type HookGatePort = (
  request: ToolGateRequest,
) => Promise<{ blocked?: "denied" | "error"; reason?: string }>;

/** The dispatcher's post notification: satisfies tool-api's `ToolNotification` port (§7.7). */
export type HookNotifyPort = (
  event: "PostToolUse" | "PostToolUseFailure",
  request: HookNotificationRequest,
) => Promise<void>;

/** @deprecated The port is `@raw/tool-api`'s `PreToolUseGate`; this name is kept for `HookGatePort`. */
export type PreToolUseGate = HookGatePort;

/** @deprecated The port is `@raw/tool-api`'s `ToolNotification`; this name is kept for `HookNotifyPort`. */
export type ToolNotification = HookNotifyPort;

/** @deprecated The request is `@raw/tool-api`'s `ToolNotificationRequest`; kept for `HookNotificationRequest`. */
export type ToolNotificationRequest = HookNotificationRequest;

/** The envelope fields the port adapters put in every request. */
export type HookEnvelopeFields = Pick<
  HookPayloadFields,
  "cwd" | "agent_id" | "session_id" | "turn_id" | "agentId" | "sessionId" | "turnId"
>;

/** Runs one hook; `runHook` unless replaced (for example by a test double). */
export type HookRunner = (
  hook: LoadedHook,
  payload: HookPayload,
  options: RunHookOptions,
) => Promise<HookRunResult>;

/** Options of `createHookDispatcher`. */
export interface HookDispatcherOptions {
  /** The visible tools at construction; bound at once (a binding failure throws). */
  tools?: readonly HookToolView[] | undefined;
  /** The environment every hook gets (default: the host process environment). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Called with each receipt as soon as its hook finished; exceptions are ignored. */
  onReceipt?: ((receipt: HookReceipt) => void) | undefined;
  /** The envelope used by `preToolUse` and `notify` (a function is called per request; default `{ cwd: process.cwd() }`). */
  envelope?: HookEnvelopeFields | (() => HookEnvelopeFields) | undefined;
  /** Replaces `runHook`. */
  runner?: HookRunner | undefined;
}

/** Runs selected hooks for events (hooks.md §11). */
export interface HookDispatcher {
  /** The hooks, in execution order. */
  readonly hooks: readonly LoadedHook[];
  /** The tool view in force. */
  readonly view: readonly HookToolView[];
  /** Binds every `when` to the visible tools; throws `ContractError` (`predicate_unbound`) and keeps the old view. */
  bindToolView(tools: readonly HookToolView[]): void;
  /**
   * Runs the hooks subscribed to `event` with `payload`: a request built by `buildHookPayload`, or the fields to
   * build one from (anything without `protocol_version`).
   */
  run(
    event: HookEvent,
    payload: HookPayload | HookPayloadFields,
    options?: HookDispatchOptions,
  ): Promise<HookDispatchResult>;
  /** Implements tool-api's `PreToolUseGate` port (pass it as the registry's `preToolUse`). */
  readonly preToolUse: HookGatePort;
  /** Implements tool-api's `ToolNotification` port (pass it as the registry's `notify`). */
  readonly notify: HookNotifyPort;
}

interface Plan {
  readonly hook: LoadedHook;
  readonly byEvent: ReadonlyMap<string, readonly CompiledSubscription[]>;
}

function plan(hook: LoadedHook): Plan {
  const byEvent = new Map<string, CompiledSubscription[]>();
  for (const subscription of hook.manifest.events) {
    const compiled = compileSubscription(subscription);
    const list = byEvent.get(compiled.name);
    if (list) list.push(compiled);
    else byEvent.set(compiled.name, [compiled]);
  }
  return { hook, byEvent };
}

function bindView(plans: readonly Plan[], tools: readonly HookToolView[]): readonly HookToolView[] {
  const view = Object.freeze([...tools]);
  for (const tool of view) {
    const identity = tool.identity ?? tool.name;
    const options = {
      toolName: tool.name,
      conditionSources: tool.conditionSources,
      schemas: { arguments: tool.inputSchema, effects: tool.effectsSchema },
    };
    for (const { byEvent } of plans) {
      for (const subscriptions of byEvent.values()) {
        for (const subscription of subscriptions) {
          if (!subscription.predicate) continue;
          if (subscription.glob && !subscription.glob.test(identity)) continue;
          bindPredicate(subscription.predicate, options);
        }
      }
    }
  }
  return view;
}

const EMPTY: readonly CompiledSubscription[] = [];

/** The request of `event`: `value` itself when it is one, else the request built from `value` as fields. */
function toPayload(event: HookEvent, value: HookPayload | HookPayloadFields): HookPayload {
  const version = (value as { protocol_version?: unknown } | undefined)?.protocol_version;
  if (version === undefined) return buildHookPayload(event, value as HookPayloadFields);
  if (version !== HOOK_PROTOCOL_VERSION) {
    throw new ContractError("hook_protocol_version_unsupported", `hook request requires protocol_version 2`);
  }
  if ((value as HookPayload).event !== event) throw new TypeError(`hook payload event must be ${event}`);
  return value as HookPayload;
}

/**
 * Creates the dispatcher of hooks.md §11 over `hooks` in selection order. Subscriptions are compiled once here
 * (already at manifest load for parsed manifests); `options.tools` is bound at once. Throws `ContractError` for a
 * duplicate hook ID (`hook_selection_duplicate`) or a tool view that does not bind (`predicate_unbound`).
 */
export function createHookDispatcher(
  hooks: readonly LoadedHook[],
  options: HookDispatcherOptions = {},
): HookDispatcher {
  const seen = new Set<string>();
  for (const hook of hooks) {
    if (seen.has(hook.id)) {
      throw new ContractError("hook_selection_duplicate", `duplicate selected hook: ${hook.id}`);
    }
    seen.add(hook.id);
  }
  const plans = hooks.map(plan);
  const runner: HookRunner = options.runner ?? runHook;
  const { env, onReceipt } = options;
  let view = bindView(plans, options.tools ?? []);
  const subscribed = (event: string) => plans.some((p) => p.byEvent.has(event));

  const run = async (
    event: HookEvent,
    request: HookPayload | HookPayloadFields,
    dispatch: HookDispatchOptions = {},
  ): Promise<HookDispatchResult> => {
    const payload = toPayload(event, request);
    const gate = isGateEvent(event);
    const tool = isToolEvent(event) ? (payload as { tool?: Record<string, unknown> }).tool : undefined;
    const identity = tool?.identity as string | undefined;
    const input = tool ? { arguments: tool.arguments, effects: tool.effects } : undefined;
    const effectsMissing = gate && tool !== undefined && tool.effects === undefined;
    const { signal, hurry } = dispatch;
    let deadline = dispatch.deadline;
    let hurried = false;
    const receipts: HookReceipt[] = [];

    const matches = (s: CompiledSubscription): boolean => {
      if (s.glob && (identity === undefined || !s.glob.test(identity))) return false;
      if (s.predicate && (input?.arguments === undefined || !matchPredicate(s.predicate, input)))
        return false;
      return true;
    };

    for (const { hook, byEvent } of plans) {
      const subscriptions = byEvent.get(event) ?? EMPTY;
      if (subscriptions.length === 0) continue;
      if (effectsMissing) {
        for (const s of subscriptions) {
          if (s.predicate?.source !== "effects") continue;
          if (s.glob && (identity === undefined || !s.glob.test(identity))) continue;
          return { blocked: "error", reason: `hook ${hook.id}: effects inspection unavailable`, receipts };
        }
      }
      if (!subscriptions.some(matches)) continue;
      if (signal?.aborted)
        return gate ? { blocked: "error", reason: "hook aborted", receipts } : { receipts };
      if (hurry?.signal.aborted && !hurried) {
        hurried = true;
        deadline = Math.min(deadline ?? Number.POSITIVE_INFINITY, Date.now() + hurry.graceMs);
      }
      const now = Date.now();
      if (deadline !== undefined && now >= deadline) return { receipts };

      const runOptions: RunHookOptions = { cwd: payload.cwd, env, signal, hurry };
      if (deadline !== undefined) runOptions.timeoutMs = Math.max(1, deadline - now);
      let result: HookRunResult;
      const started = performance.now();
      try {
        result = await runner(hook, payload, runOptions);
      } catch {
        const durationMs = Math.round(performance.now() - started);
        const receipt: HookReceipt = {
          id: hook.id,
          event,
          outcome: "error",
          durationMs,
          code: "hook_callback",
        };
        result = { ...hookErrorResponse(hook.id, "hook_callback"), receipt };
      }
      receipts.push(result.receipt);
      if (onReceipt) {
        try {
          onReceipt(result.receipt);
        } catch {
          // Receipts are diagnostics; an observer cannot change the dispatch.
        }
      }
      if (gate && result.outcome !== "continued") {
        return {
          blocked: result.outcome === "denied" ? "denied" : "error",
          reason: result.reason as string,
          receipts,
        };
      }
    }
    return { receipts };
  };

  const envelope = (): HookEnvelopeFields => {
    const value = options.envelope;
    return (typeof value === "function" ? value() : value) ?? { cwd: process.cwd() };
  };

  const preToolUse: HookGatePort = async (request) => {
    if (!subscribed("PreToolUse")) return {};
    const payload = buildHookPayload("PreToolUse", {
      ...envelope(),
      tool: {
        identity: request.identity,
        name: request.name,
        source: request.source,
        arguments: request.arguments as HookToolFields["arguments"],
        effects: request.effects as HookToolFields["effects"],
        toolCallId: request.toolCallId,
      },
    });
    const result = await run("PreToolUse", payload, { signal: request.signal });
    if (!result.blocked) return {};
    return result.reason === undefined
      ? { blocked: result.blocked }
      : { blocked: result.blocked, reason: result.reason };
  };

  const notify: HookNotifyPort = async (event, request) => {
    if (!subscribed(event)) return;
    const payload = buildHookPayload(event, {
      ...envelope(),
      tool: {
        identity: request.identity,
        name: request.name,
        source: request.source,
        arguments: request.arguments as HookToolFields["arguments"],
        effects: request.effects as HookToolFields["effects"],
        toolCallId: request.toolCallId,
        result: request.result as HookToolFields["result"],
      },
    });
    await run(event, payload);
  };

  return Object.freeze({
    hooks: Object.freeze([...hooks]),
    get view() {
      return view;
    },
    bindToolView(tools: readonly HookToolView[]): void {
      view = bindView(plans, tools);
    },
    run,
    preToolUse,
    notify,
  });
}
