import { normalizePath, prepareEffects } from "@raw/effects";
import { deepFreeze, formatValidationIssues, type ObjectValidator, thrownMessage } from "@raw/schema";
import { runApproval } from "./approval.js";
import { frozenClone } from "./clone.js";
import { DEFAULT_MAX_OUTPUT_BYTES, HANDLER_ABORT_GRACE_MS } from "./limits.js";
import { evaluatePlan, type IdentityPlan } from "./policy.js";
import { capInto, errorResult, type SplitResult, setField, splitHandlerResult } from "./results.js";
import type {
  ApprovalCallback,
  ApprovalRequest,
  CallSource,
  ConditionSource,
  DescribeEffects,
  DispatchContext,
  DispatchObservation,
  PanelResultBlock,
  PanelSink,
  PreToolUseGate,
  PreToolUseRequest,
  ToolCall,
  ToolHandler,
  ToolHandlerContext,
  ToolNotification,
  ToolNotificationRequest,
  ToolPanelDeclaration,
  ToolResult,
  ValidateArgs,
} from "./types.js";

/** A registration as the registry keeps it: fields read once, validators compiled once, policy plan computed once. */
export interface RegisteredTool {
  readonly name: string;
  readonly identity: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly validator: ObjectValidator;
  readonly handler: ToolHandler;
  readonly validateArgs: ValidateArgs | undefined;
  readonly conditionSources: readonly ConditionSource[];
  readonly effectsSchema: Record<string, unknown> | undefined;
  readonly effectsValidator: ObjectValidator | undefined;
  readonly describeEffects: DescribeEffects | undefined;
  readonly panels: readonly ToolPanelDeclaration[] | undefined;
  readonly implicitPanels: boolean | undefined;
  readonly outputLimit: number | undefined;
  readonly plan: IdentityPlan;
}

/** The registry-level settings dispatch reads. */
export interface DispatchSettings {
  readonly preToolUse?: PreToolUseGate | undefined;
  readonly notify?: ToolNotification | undefined;
  readonly panelSink?: PanelSink | undefined;
  readonly approve?: ApprovalCallback | undefined;
  readonly autoApprove?: boolean | undefined;
  readonly approvalTimeoutMs?: number | undefined;
  readonly maxOutputBytes?: number | undefined;
  readonly handlerAbortGraceMs?: number | undefined;
}

/** Code of the error result for an unexpected internal failure of dispatch (never a contract failure). */
export const DISPATCH_ERROR = "dispatch_error";

const ABORTED_MESSAGE = "tool call aborted";

function noop(): void {}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== "object" || value === null) && typeof value !== "function") return false;
  return typeof (value as { then?: unknown }).then === "function";
}

function validBudget(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function validDelay(value: unknown): value is number {
  return typeof value === "number" && value >= 0 && !Number.isNaN(value);
}

/** Longest delay `setTimeout` honours; longer graces are clamped to it. */
const MAX_TIMER_MS = 2_147_483_647;

/** The call's effective `handlerAbortGraceMs` (A5): its override, else the registry default, else 1500. */
function abortGrace(context: DispatchContext, settings: DispatchSettings): number {
  if (validDelay(context.handlerAbortGraceMs)) return context.handlerAbortGraceMs;
  return validDelay(settings.handlerAbortGraceMs) ? settings.handlerAbortGraceMs : HANDLER_ABORT_GRACE_MS;
}

/** The call's effective `maxOutputBytes`: its override, else the registry default, else 65536. */
function effectiveBudget(context: DispatchContext, settings: DispatchSettings): number {
  const own = context.maxOutputBytes;
  if (validBudget(own)) return own;
  const fallback = settings.maxOutputBytes;
  return validBudget(fallback) ? fallback : DEFAULT_MAX_OUTPUT_BYTES;
}

let lastCwd: string | undefined;
let lastNormalizedCwd = "/";

/** The absolute, lexically normalized cwd (one-entry cache); throws for a relative or missing cwd. */
function normalizedCwd(cwd: string): string {
  if (cwd === lastCwd) return lastNormalizedCwd;
  const normalized = normalizePath(cwd, ".");
  lastCwd = cwd;
  lastNormalizedCwd = normalized;
  return normalized;
}

function inWhitelist(whitelist: readonly string[] | ReadonlySet<string>, name: string): boolean {
  return Array.isArray(whitelist)
    ? (whitelist as readonly string[]).includes(name)
    : (whitelist as ReadonlySet<string>).has(name);
}

/** §4.2: the message of a rejected `validateArgs` outcome, or undefined when the arguments are valid. */
function runValidateArgs(validateArgs: ValidateArgs, args: unknown): string | undefined {
  let outcome: unknown;
  try {
    outcome = validateArgs(args);
  } catch (error) {
    return `validateArgs failed: ${thrownMessage(error)}`;
  }
  if (outcome === undefined) return undefined;
  if (typeof outcome === "string") return outcome === "" ? "arguments rejected by validateArgs" : outcome;
  try {
    if (isThenable(outcome)) Reflect.apply(outcome.then, outcome, [undefined, noop]);
  } catch {
    // A throwing `then` changes nothing: the result is already a rejection.
  }
  return "validateArgs returned a non-string result";
}

const ABANDONED: unique symbol = Symbol("abandoned");

/**
 * Awaits a handler's thenable. Once `signal` aborts, the handler gets `graceMs` more to settle (`0`: none);
 * after that the call gives up on it (`ABANDONED`). A late settlement is observed and ignored.
 */
function awaitHandler(
  value: PromiseLike<unknown>,
  signal: AbortSignal | undefined,
  graceMs: number,
): Promise<unknown> {
  const settled = Promise.resolve(value);
  if (signal === undefined) return settled;
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      if (graceMs === 0) resolve(ABANDONED);
      else timer = setTimeout(() => resolve(ABANDONED), Math.min(graceMs, MAX_TIMER_MS));
    };
    const done = (): void => {
      signal.removeEventListener("abort", onAbort);
      if (timer !== undefined) clearTimeout(timer);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    settled.then(
      (result) => {
        done();
        resolve(result);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

/** Adds the optional request fields that are present (no spread, no intermediate objects). */
function withOptional<T extends object>(
  target: T,
  effects: unknown,
  toolCallId: string | undefined,
  signal: AbortSignal | undefined,
): T {
  const out = target as Record<string, unknown>;
  if (effects !== undefined) out.effects = effects;
  if (toolCallId !== undefined) out.toolCallId = toolCallId;
  if (signal !== undefined) out.signal = signal;
  return target;
}

/** Attaches the call's effects to a dispatch result as the host-only, non-enumerable `effects` property. */
function withEffects(result: ToolResult, effects: unknown): ToolResult {
  if (effects !== undefined) Object.defineProperty(result, "effects", { value: effects, enumerable: false });
  return result;
}

/** A deep-frozen copy of the settled result for post notifications, so they can never change the result. */
function notificationResult(result: ToolResult): ToolResult {
  try {
    return deepFreeze(structuredClone(result));
  } catch {
    return Object.freeze({ ...result, content: Object.freeze([...result.content]) as ToolResult["content"] });
  }
}

/** The frozen `{ identity, name, source, toolCallId? }` given to observers and the panel sink. */
function observe(
  tool: RegisteredTool,
  source: CallSource,
  toolCallId: string | undefined,
): DispatchObservation {
  return Object.freeze(
    withOptional({ identity: tool.identity, name: tool.name, source }, undefined, toolCallId, undefined),
  );
}

/** A capped error result of dispatch. */
function failWith(cap: number, code: string, message: string): ToolResult {
  return capInto(errorResult(code, message), cap, true);
}

/** A capped error result of dispatch after step 6, carrying the call's effects. */
function endWith(cap: number, effects: unknown, code: string, message: string): ToolResult {
  return withEffects(capInto(errorResult(code, message), cap, true), effects);
}

/**
 * Runs one call through the pipeline of tool-api.md §7.2 (steps 1–14, in order). Never throws: an unexpected
 * internal failure becomes a capped `dispatch_error` result.
 */
export async function dispatchCall(
  tools: ReadonlyMap<string, RegisteredTool>,
  settings: DispatchSettings,
  call: ToolCall,
  context: DispatchContext,
): Promise<ToolResult> {
  let cap = DEFAULT_MAX_OUTPUT_BYTES;
  try {
    const ctx: DispatchContext =
      typeof context === "object" && context !== null ? context : ({} as DispatchContext);
    cap = effectiveBudget(ctx, settings);
    const hasCall = typeof call === "object" && call !== null;
    const name: unknown = hasCall ? call.name : undefined;

    // 1. Exposure.
    const tool = typeof name === "string" ? tools.get(name) : undefined;
    const whitelist = ctx.whitelist;
    if (tool === undefined || (whitelist !== undefined && !inWhitelist(whitelist, tool.name))) {
      return capInto(errorResult("tool_not_exposed", `tool unavailable: ${String(name)}`), cap, true);
    }
    if (tool.outputLimit !== undefined && tool.outputLimit > cap) cap = tool.outputLimit;

    // 2. Visibility: unconditional rules only.
    const plan = tool.plan;
    if (plan.hidden) return failWith(cap, "tool_denied", `tool denied: ${tool.identity}`);

    // 5 (taken first). The argument snapshot is read before the schema runs, and the schema validates it, so the
    // value every later consumer receives is the one the schema accepted (an accessor or proxy cannot answer the
    // validator and the copy differently). For plain data the order is unobservable; a value that cannot be
    // cloned is validated as given and fails at step 5, as the spec orders it.
    const args: unknown = call.arguments;
    let frozenArgs: unknown;
    let cloneable = true;
    try {
      frozenArgs = frozenClone(args);
    } catch {
      cloneable = false;
    }

    // 3. Input validation: the schema, then validateArgs on schema-valid input; both see the frozen snapshot (A6).
    // A value without a snapshot is checked by the schema as given and never reaches validateArgs (step 5 fails).
    const schemaIssues = tool.validator.validate(cloneable ? frozenArgs : args);
    if (schemaIssues.length > 0)
      return failWith(cap, "invalid_arguments", formatValidationIssues(schemaIssues));
    if (tool.validateArgs !== undefined && cloneable) {
      const rejected = runValidateArgs(tool.validateArgs, frozenArgs);
      if (rejected !== undefined) return failWith(cap, "invalid_arguments", rejected);
    }

    // 4. Abort check.
    const signal = ctx.signal;
    if (signal?.aborted) return failWith(cap, "aborted", ABORTED_MESSAGE);

    // 5. Argument snapshot (taken above).
    if (!cloneable) return failWith(cap, "invalid_arguments", "arguments must be plain JSON data");

    // 6. Effects, prepared exactly once, only for tools with a descriptor.
    let effects: unknown;
    if (tool.describeEffects !== undefined && tool.effectsValidator !== undefined) {
      const prepared = prepareEffects({
        toolName: tool.name,
        describeEffects: tool.describeEffects,
        arguments: frozenArgs,
        cwd: normalizedCwd(ctx.cwd),
        validate: tool.effectsValidator,
      });
      if (!prepared.ok) return failWith(cap, prepared.code, prepared.message);
      effects = prepared.effects;
    }

    // 7. Conditional policy (computed only).
    const decision = evaluatePlan(plan, frozenArgs, effects);

    // 8. Abort check.
    if (signal?.aborted) return endWith(cap, effects, "aborted", ABORTED_MESSAGE);

    const source: CallSource = hasCall && call.source === "user_action" ? "user_action" : "model";
    const toolCallId = typeof call.toolCallId === "string" ? call.toolCallId : undefined;

    // 9. PreToolUse gate.
    const gate = settings.preToolUse;
    if (gate !== undefined) {
      const request: PreToolUseRequest = withOptional(
        { identity: tool.identity, name: tool.name, source, arguments: frozenArgs },
        effects,
        toolCallId,
        signal,
      );
      let answer: unknown;
      let failure: { error: unknown } | undefined;
      try {
        answer = await gate(Object.freeze(request));
      } catch (error) {
        failure = { error };
      }
      if (signal?.aborted) return endWith(cap, effects, "aborted", ABORTED_MESSAGE);
      if (failure !== undefined)
        return endWith(cap, effects, "hook_error", `hook error: ${thrownMessage(failure.error)}`);
      const blocked =
        typeof answer === "object" && answer !== null ? (answer as { blocked?: unknown }).blocked : undefined;
      if (blocked !== undefined) {
        const reason = (answer as { reason?: unknown }).reason;
        const given = typeof reason === "string" && reason !== "" ? reason : undefined;
        if (blocked === "denied") return endWith(cap, effects, "hook_denied", given ?? "hook denied");
        // "error" and any unknown block value fail closed.
        return endWith(cap, effects, "hook_error", given ?? "hook error");
      }
    }

    // 10. Approval.
    const autoApprove = ctx.autoApprove ?? settings.autoApprove ?? true;
    if (decision === "ask" || autoApprove === false) {
      const approve = ctx.approve ?? settings.approve;
      if (approve === undefined)
        return endWith(cap, effects, "approval_required", `approval required for ${tool.name}`);
      const request: ApprovalRequest = Object.freeze(
        withOptional(
          { identity: tool.identity, name: tool.name, arguments: frozenArgs },
          effects,
          toolCallId,
          signal,
        ),
      );
      const timeout = validDelay(ctx.approvalTimeoutMs)
        ? ctx.approvalTimeoutMs
        : validDelay(settings.approvalTimeoutMs)
          ? settings.approvalTimeoutMs
          : undefined;
      let outcome = runApproval(approve, request, signal, timeout);
      if (outcome instanceof Promise) outcome = await outcome;
      switch (outcome.kind) {
        case "approved":
          break;
        case "denied":
          return endWith(cap, effects, "approval_denied", `approval denied for ${tool.name}`);
        case "aborted":
          return endWith(cap, effects, "aborted", ABORTED_MESSAGE);
        case "expired":
          return endWith(cap, effects, "approval_expired", `approval expired for ${tool.name}`);
        case "error":
          return endWith(cap, effects, "approval_error", `approval failed: ${outcome.message}`);
      }
    }

    // 11. Handler.
    if (signal?.aborted) return endWith(cap, effects, "aborted", ABORTED_MESSAGE);
    const observation =
      ctx.onStart !== undefined || ctx.onHandlerSettled !== undefined || settings.panelSink !== undefined
        ? observe(tool, source, toolCallId)
        : (undefined as unknown as DispatchObservation);
    if (ctx.onStart !== undefined) {
      try {
        ctx.onStart(observation);
      } catch {
        // Host observers cannot change the call.
      }
    }
    if (signal?.aborted) return endWith(cap, effects, "aborted", ABORTED_MESSAGE);
    const handlerFields: Record<string, unknown> = { cwd: normalizedCwd(ctx.cwd), maxOutputBytes: cap };
    if (signal !== undefined) handlerFields.signal = signal;
    if (toolCallId !== undefined) handlerFields.toolCallId = toolCallId;
    if (effects !== undefined) handlerFields.effects = effects;
    if (ctx.panels !== undefined) handlerFields.panels = ctx.panels;
    if (ctx.interactions !== undefined) handlerFields.interactions = ctx.interactions;
    const handlerContext = handlerFields as unknown as ToolHandlerContext;
    let returned: unknown;
    let thrown: { error: unknown } | undefined;
    try {
      returned = tool.handler(frozenArgs, handlerContext);
      if (isThenable(returned)) returned = await awaitHandler(returned, signal, abortGrace(ctx, settings));
    } catch (error) {
      thrown = { error };
    }
    let settled: {
      isError: boolean;
      content: ToolResult["content"];
      fields?: Readonly<Record<string, unknown>>;
      jsonTexts?: Array<string | undefined>;
    };
    let panelBlocks: PanelResultBlock[] = [];
    if (thrown !== undefined) {
      settled = errorResult("tool_error", `${tool.name} failed: ${thrownMessage(thrown.error)}`);
    } else if (returned === ABANDONED) {
      settled = errorResult("aborted", ABORTED_MESSAGE);
    } else {
      let split: SplitResult | undefined;
      try {
        split = splitHandlerResult(returned);
      } catch {
        // A result whose fields cannot be read (a throwing getter or proxy trap) is not a result object.
        split = undefined;
      }
      if (split === undefined) {
        settled = errorResult("tool_error", `${tool.name} returned an invalid result`);
      } else {
        settled = {
          isError: split.isError,
          content: split.content,
          fields: split.fields,
          jsonTexts: split.jsonTexts,
        };
        panelBlocks = split.panelBlocks;
      }
    }

    // 12. Settle: the observer, then the panel blocks to the sink.
    if (ctx.onHandlerSettled !== undefined) {
      try {
        ctx.onHandlerSettled(observation);
      } catch {
        // Host observers cannot change the call.
      }
    }
    const sink = settings.panelSink;
    if (sink !== undefined && panelBlocks.length > 0) {
      try {
        const sunk: unknown = sink(panelBlocks, observation);
        if (isThenable(sunk)) Reflect.apply(sunk.then, sunk, [undefined, noop]);
      } catch {
        // The sink cannot change the result.
      }
    }

    // 13. Post notification, with the result after panel extraction and before capping.
    const notify = settings.notify;
    if (notify !== undefined) {
      try {
        const fields = settled.fields ?? (settled as Record<string, unknown>);
        const copy: Record<string, unknown> = {};
        for (const key of Object.keys(fields)) if (key !== "content") setField(copy, key, fields[key]);
        copy.isError = settled.isError;
        copy.content = settled.content;
        const request = withOptional(
          { identity: tool.identity, name: tool.name, source, arguments: frozenArgs },
          effects,
          toolCallId,
          undefined,
        ) as ToolNotificationRequest & { result?: ToolResult };
        request.result = notificationResult(copy as ToolResult);
        await notify(settled.isError ? "PostToolUseFailure" : "PostToolUse", request);
      } catch {
        // Notifications cannot change the result.
      }
    }

    // 14. Cap and return.
    return withEffects(capInto(settled, cap, true), effects);
  } catch (error) {
    return failWith(cap, DISPATCH_ERROR, `tool dispatch failed: ${thrownMessage(error)}`);
  }
}
