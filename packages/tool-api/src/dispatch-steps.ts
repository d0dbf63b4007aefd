import { normalizePath, prepareEffects } from "@raw/effects";
import { deepFreeze, formatValidationIssues, type ObjectValidator, thrownMessage } from "@raw/schema";
import { runApproval } from "./approval.js";
import { frozenClone } from "./clone.js";
import { DEFAULT_MAX_OUTPUT_BYTES, HANDLER_ABORT_GRACE_MS } from "./limits.js";
import { evaluatePlan, type IdentityPlan, matchConditional } from "./policy.js";
import { capInto, errorResult, type SplitResult, setField, splitHandlerResult } from "./results.js";
import type { RuleEffect } from "./rules.js";
import type {
  ApprovalCallback,
  ApprovalRequest,
  CallSource,
  ConditionSource,
  DescribeEffects,
  DispatchContext,
  DispatchObservation,
  DispatchStepEvent,
  DispatchStepName,
  DispatchStepStatus,
  PanelResultBlock,
  PanelSink,
  PreToolUseGate,
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
  /** Typed for any argument type: dispatch hands it the snapshot the input schema accepted. */
  readonly handler: ToolHandler<never>;
  readonly validateArgs: ValidateArgs<never> | undefined;
  readonly conditionSources: readonly ConditionSource[];
  readonly effectsSchema: Record<string, unknown> | undefined;
  readonly effectsValidator: ObjectValidator | undefined;
  readonly describeEffects: DescribeEffects<never> | undefined;
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

const ABORTED_MESSAGE = "tool call aborted";

/** Longest delay `setTimeout` honours; longer graces are clamped to it. */
const MAX_TIMER_MS = 2_147_483_647;

/** Marks "no snapshot": the arguments could not be cloned (step 5 fails). */
const NO_SNAPSHOT: unique symbol = Symbol("no snapshot");

/** What a handler that outlived the abort grace resolves to. */
const ABANDONED: unique symbol = Symbol("abandoned");

/** The outcome of step 11, as steps 12–14 read it. */
interface Settled {
  isError: boolean;
  content: ToolResult["content"];
  code?: string | undefined;
  fields?: Readonly<Record<string, unknown>> | undefined;
  jsonTexts?: Array<string | undefined> | undefined;
}

/** `T` with its fields writable, to build a readonly request field by field. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A step's result: `undefined` continues the pipeline, a result ends the call with it. */
export type StepOutcome = ToolResult | undefined;

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

/** The call's effective `maxOutputBytes`: its override, else the registry default, else 65536. */
export function effectiveBudget(context: DispatchContext, settings: DispatchSettings): number {
  if (validBudget(context.maxOutputBytes)) return context.maxOutputBytes;
  return validBudget(settings.maxOutputBytes) ? settings.maxOutputBytes : DEFAULT_MAX_OUTPUT_BYTES;
}

/** The call's effective `handlerAbortGraceMs` (A5): its override, else the registry default, else 1500. */
function abortGrace(context: DispatchContext, settings: DispatchSettings): number {
  if (validDelay(context.handlerAbortGraceMs)) return context.handlerAbortGraceMs;
  return validDelay(settings.handlerAbortGraceMs) ? settings.handlerAbortGraceMs : HANDLER_ABORT_GRACE_MS;
}

/** The call's effective approval deadline, or undefined for none. */
function approvalTimeout(context: DispatchContext, settings: DispatchSettings): number | undefined {
  if (validDelay(context.approvalTimeoutMs)) return context.approvalTimeoutMs;
  return validDelay(settings.approvalTimeoutMs) ? settings.approvalTimeoutMs : undefined;
}

function inWhitelist(whitelist: readonly string[] | ReadonlySet<string>, name: string): boolean {
  return Array.isArray(whitelist)
    ? (whitelist as readonly string[]).includes(name)
    : (whitelist as ReadonlySet<string>).has(name);
}

/** Calls a host observer; its exceptions are ignored (it cannot change the call). */
function notifyObserver<T>(observer: ((value: T) => void) | undefined, value: T): void {
  if (observer === undefined) return;
  try {
    observer(value);
  } catch {
    // Host observers cannot change the call.
  }
}

/** Builds and sends one `onStep` event (callers check `onStep` first, so unobserved calls build nothing). */
function emit(
  onStep: (event: DispatchStepEvent) => void,
  step: DispatchStepName,
  number: number,
  status: DispatchStepStatus,
  fields?: Omit<DispatchStepEvent, "step" | "number" | "status">,
): void {
  const event: DispatchStepEvent =
    fields === undefined ? { step, number, status } : { step, number, status, ...fields };
  notifyObserver(onStep, Object.freeze(event));
}

/** Attaches the call's effects to a dispatch result as the host-only, non-enumerable `effects` property. */
function withEffects(result: ToolResult, effects: unknown): ToolResult {
  if (effects !== undefined) Object.defineProperty(result, "effects", { value: effects, enumerable: false });
  return result;
}

/** One registry's last normalized cwd (a session keeps one cwd): owned by the registry, never module-global. */
export interface CwdMemo {
  cwd?: string | undefined;
  normalized?: string | undefined;
}

/** The state of one call, shared by the steps after exposure. Every field exists from the start (one shape). */
export class CallState {
  readonly signal: AbortSignal | undefined;
  readonly onStep: ((event: DispatchStepEvent) => void) | undefined;
  readonly source: CallSource;
  readonly toolCallId: string | undefined;
  /** The effective output budget: `max(maxOutputBytes, outputLimit)` (§8.3). */
  readonly cap: number;
  /** The deep-frozen argument snapshot (step 5), or `NO_SNAPSHOT`. */
  frozen: unknown = NO_SNAPSHOT;
  /** The frozen effects snapshot (step 6), when the tool has a descriptor. */
  effects: unknown = undefined;
  /** The conditional policy decision (step 7). */
  decision: RuleEffect = "allow";
  /** Filled in at step 11. */
  settled: Settled | undefined = undefined;
  panelBlocks: PanelResultBlock[] | undefined = undefined;
  private observation: DispatchObservation | undefined = undefined;
  private normalizedCwd: string | undefined = undefined;

  constructor(
    readonly tool: RegisteredTool,
    readonly call: ToolCall,
    readonly context: DispatchContext,
    readonly settings: DispatchSettings,
    budget: number,
    private readonly cwdMemo: CwdMemo,
  ) {
    this.signal = context.signal;
    this.onStep = context.onStep;
    this.source = call.source === "user_action" ? "user_action" : "model";
    this.toolCallId = typeof call.toolCallId === "string" ? call.toolCallId : undefined;
    this.cap = tool.outputLimit !== undefined && tool.outputLimit > budget ? tool.outputLimit : budget;
  }

  /** The absolute, lexically normalized cwd of the call, computed once; throws for a relative or missing cwd. */
  cwd(): string {
    if (this.normalizedCwd === undefined) {
      const memo = this.cwdMemo;
      const cwd = this.context.cwd;
      if (memo.cwd !== cwd || memo.normalized === undefined) {
        memo.normalized = normalizePath(cwd, ".");
        memo.cwd = cwd;
      }
      this.normalizedCwd = memo.normalized;
    }
    return this.normalizedCwd;
  }

  /** The frozen `{ identity, name, source, toolCallId? }` given to observers and the panel sink. */
  observed(): DispatchObservation {
    if (this.observation === undefined) {
      const { identity, name } = this.tool;
      this.observation = Object.freeze(
        this.toolCallId === undefined
          ? { identity, name, source: this.source }
          : { identity, name, source: this.source, toolCallId: this.toolCallId },
      );
    }
    return this.observation;
  }

  /** The `{ identity, name, source, arguments, effects?, toolCallId? }` shared by the gate and notifications. */
  request(): { identity: string; name: string; source: CallSource; arguments: unknown } & Record<
    string,
    unknown
  > {
    const out: { identity: string; name: string; source: CallSource; arguments: unknown } & Record<
      string,
      unknown
    > = { identity: this.tool.identity, name: this.tool.name, source: this.source, arguments: this.frozen };
    if (this.effects !== undefined) out.effects = this.effects;
    if (this.toolCallId !== undefined) out.toolCallId = this.toolCallId;
    return out;
  }
}

/** Ends the call at `step` with a capped error result (carrying the effects, when prepared) and reports it. */
function stop(
  s: CallState,
  step: DispatchStepName,
  number: number,
  code: string,
  message: string,
  fields?: Omit<DispatchStepEvent, "step" | "number" | "status" | "code" | "message">,
): ToolResult {
  if (s.onStep !== undefined) emit(s.onStep, step, number, "failed", { code, message, ...fields });
  return withEffects(capInto(errorResult(code, message), s.cap, true), s.effects);
}

/** Step 1 — exposure: the registration by model-facing name, in the whitelist when one is set. */
export function exposure(
  tools: ReadonlyMap<string, RegisteredTool>,
  call: ToolCall,
  context: DispatchContext,
  budget: number,
): RegisteredTool | ToolResult {
  const name: unknown = typeof call === "object" && call !== null ? call.name : undefined;
  const tool = typeof name === "string" ? tools.get(name) : undefined;
  const whitelist = context.whitelist;
  if (tool === undefined || (whitelist !== undefined && !inWhitelist(whitelist, tool.name))) {
    const message = `tool unavailable: ${String(name)}`;
    if (context.onStep !== undefined)
      emit(context.onStep, "exposure", 1, "failed", { code: "tool_not_exposed", message });
    return capInto(errorResult("tool_not_exposed", message), budget, true);
  }
  if (context.onStep !== undefined) emit(context.onStep, "exposure", 1, "ok", { identity: tool.identity });
  return tool;
}

/** Step 2 — visibility: the unconditional rules only (§9.3). */
export function visibility(s: CallState): StepOutcome {
  const plan = s.tool.plan;
  const ruleIndex = plan.baseIndex >= 0 ? plan.baseIndex : null;
  if (plan.hidden) {
    return stop(s, "visibility", 2, "tool_denied", `tool denied: ${s.tool.identity}`, {
      decision: "deny",
      ruleIndex,
      hidden: true,
    });
  }
  if (s.onStep !== undefined)
    emit(s.onStep, "visibility", 2, "ok", { decision: plan.baseEffect, ruleIndex, hidden: false });
  return undefined;
}

/**
 * Step 5, taken first (amendment A6): the argument snapshot is read before the schema runs, so the schema,
 * `validateArgs` and every later consumer see that one frozen value. A failure is reported at step 5. Runs after
 * visibility, so the arguments of a hidden tool are never read.
 */
export function takeSnapshot(s: CallState): undefined {
  try {
    s.frozen = frozenClone(s.call.arguments);
  } catch {
    s.frozen = NO_SNAPSHOT;
  }
  return undefined;
}

/** §4.2: the message of a rejected `validateArgs` outcome, or undefined when the arguments are valid. */
function runValidateArgs(validateArgs: ValidateArgs<never>, args: unknown): string | undefined {
  let outcome: unknown;
  try {
    outcome = validateArgs(args as never);
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

/**
 * Step 3 — input validation: the schema, then `validateArgs` on schema-valid input, both on the snapshot (A6). A
 * value without a snapshot is checked by the schema as given and never reaches `validateArgs` (step 5 fails).
 */
export function validation(s: CallState): StepOutcome {
  const hasSnapshot = s.frozen !== NO_SNAPSHOT;
  const issues = s.tool.validator.validate(hasSnapshot ? s.frozen : s.call.arguments);
  if (issues.length > 0) return stop(s, "validation", 3, "invalid_arguments", formatValidationIssues(issues));
  if (s.tool.validateArgs !== undefined && hasSnapshot) {
    const rejected = runValidateArgs(s.tool.validateArgs, s.frozen);
    if (rejected !== undefined) return stop(s, "validation", 3, "invalid_arguments", rejected);
  }
  if (s.onStep !== undefined) emit(s.onStep, "validation", 3, "ok");
  return undefined;
}

/** Steps 4 and 8 — abort checks. */
export function abortCheck(s: CallState, number: 4 | 8): StepOutcome {
  if (s.signal?.aborted) return stop(s, "abort_check", number, "aborted", ABORTED_MESSAGE);
  if (s.onStep !== undefined) emit(s.onStep, "abort_check", number, "ok");
  return undefined;
}

/** Step 5 — the argument snapshot (taken before step 3) must exist. */
export function snapshot(s: CallState): StepOutcome {
  if (s.frozen === NO_SNAPSHOT)
    return stop(s, "snapshot", 5, "invalid_arguments", "arguments must be plain JSON data");
  if (s.onStep !== undefined) emit(s.onStep, "snapshot", 5, "ok");
  return undefined;
}

/** Step 6 — effects, prepared exactly once, only for tools with a descriptor. */
export function effects(s: CallState): StepOutcome {
  const { describeEffects, effectsValidator } = s.tool;
  if (describeEffects === undefined || effectsValidator === undefined) {
    if (s.onStep !== undefined) emit(s.onStep, "effects", 6, "skipped");
    return undefined;
  }
  const prepared = prepareEffects({
    toolName: s.tool.name,
    describeEffects: describeEffects as DescribeEffects,
    arguments: s.frozen,
    cwd: s.cwd(),
    validate: effectsValidator,
  });
  if (!prepared.ok) return stop(s, "effects", 6, prepared.code, prepared.message);
  s.effects = prepared.effects;
  if (s.onStep !== undefined) emit(s.onStep, "effects", 6, "ok", { effects: s.effects });
  return undefined;
}

/** Step 7 — conditional policy, computed only. Observed calls also learn the deciding rule (§9.5). */
export function policy(s: CallState): void {
  const plan = s.tool.plan;
  if (s.onStep === undefined) {
    s.decision = evaluatePlan(plan, s.frozen, s.effects);
    return;
  }
  const k = matchConditional(plan, s.frozen, s.effects);
  s.decision = k >= 0 ? "ask" : plan.baseEffect;
  const ruleIndex = k >= 0 ? (plan.conditionalIndex[k] ?? null) : plan.baseIndex >= 0 ? plan.baseIndex : null;
  emit(s.onStep, "policy", 7, "ok", { decision: s.decision, ruleIndex, hidden: false });
}

/** Step 9 — the PreToolUse gate: awaited, then abort is checked first, then the gate's answer. */
export function preToolUse(s: CallState): StepOutcome | Promise<StepOutcome> {
  const gate = s.settings.preToolUse;
  if (gate === undefined) {
    if (s.onStep !== undefined) emit(s.onStep, "pre_tool_use", 9, "skipped");
    return undefined;
  }
  const request = s.request();
  if (s.signal !== undefined) request.signal = s.signal;
  return askGate(s, gate, Object.freeze(request));
}

async function askGate(s: CallState, gate: PreToolUseGate, request: Parameters<PreToolUseGate>[0]) {
  let answer: unknown;
  let failure: { error: unknown } | undefined;
  try {
    answer = await gate(request);
  } catch (error) {
    failure = { error };
  }
  if (s.signal?.aborted) return stop(s, "pre_tool_use", 9, "aborted", ABORTED_MESSAGE);
  if (failure !== undefined)
    return stop(s, "pre_tool_use", 9, "hook_error", `hook error: ${thrownMessage(failure.error)}`);
  const blocked =
    typeof answer === "object" && answer !== null ? (answer as { blocked?: unknown }).blocked : undefined;
  if (blocked === undefined) {
    if (s.onStep !== undefined) emit(s.onStep, "pre_tool_use", 9, "ok");
    return undefined;
  }
  const reason = (answer as { reason?: unknown }).reason;
  const given = typeof reason === "string" && reason !== "" ? reason : undefined;
  const fields = given === undefined ? {} : { reason: given };
  if (blocked === "denied")
    return stop(s, "pre_tool_use", 9, "hook_denied", given ?? "hook denied", {
      blocked: "denied",
      ...fields,
    });
  // "error" and any unknown block value fail closed.
  return stop(s, "pre_tool_use", 9, "hook_error", given ?? "hook error", { blocked: "error", ...fields });
}

/** Step 10 — approval, when policy gave `ask` or `autoApprove` is `false` (§7.5). */
export function approval(s: CallState): StepOutcome | Promise<StepOutcome> {
  const autoApprove = s.context.autoApprove ?? s.settings.autoApprove ?? true;
  if (s.decision !== "ask" && autoApprove !== false) {
    if (s.onStep !== undefined) emit(s.onStep, "approval", 10, "skipped");
    return undefined;
  }
  const name = s.tool.name;
  const approve = s.context.approve ?? s.settings.approve;
  if (approve === undefined)
    return stop(s, "approval", 10, "approval_required", `approval required for ${name}`);
  const request: Mutable<ApprovalRequest> = { identity: s.tool.identity, name, arguments: s.frozen };
  if (s.effects !== undefined) request.effects = s.effects;
  if (s.toolCallId !== undefined) request.toolCallId = s.toolCallId;
  if (s.signal !== undefined) request.signal = s.signal;
  const outcome = runApproval(
    approve,
    Object.freeze(request),
    s.signal,
    approvalTimeout(s.context, s.settings),
  );
  return outcome instanceof Promise
    ? outcome.then((o) => approvalOutcome(s, o))
    : approvalOutcome(s, outcome);
}

function approvalOutcome(s: CallState, outcome: Awaited<ReturnType<typeof runApproval>>): StepOutcome {
  const name = s.tool.name;
  switch (outcome.kind) {
    case "approved":
      if (s.onStep !== undefined) emit(s.onStep, "approval", 10, "ok");
      return undefined;
    case "denied":
      return stop(s, "approval", 10, "approval_denied", `approval denied for ${name}`);
    case "aborted":
      return stop(s, "approval", 10, "aborted", ABORTED_MESSAGE);
    case "expired":
      return stop(s, "approval", 10, "approval_expired", `approval expired for ${name}`);
    case "error":
      return stop(s, "approval", 10, "approval_error", `approval failed: ${outcome.message}`);
  }
}

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

/** The handler context of §4.4: never a host callback. */
function handlerContext(s: CallState): ToolHandlerContext {
  const context: Mutable<ToolHandlerContext> = {
    cwd: s.cwd(),
    maxOutputBytes: s.cap,
  };
  if (s.signal !== undefined) context.signal = s.signal;
  if (s.toolCallId !== undefined) context.toolCallId = s.toolCallId;
  if (s.effects !== undefined) context.effects = s.effects;
  if (s.context.panels !== undefined) context.panels = s.context.panels;
  if (s.context.interactions !== undefined) context.interactions = s.context.interactions;
  return context;
}

/**
 * Step 11 — the handler: abort check, `onStart`, abort check, then the call. Its outcome (a result, a throw, an
 * invalid value, or abandonment after the abort grace) is kept in `s.settled` for steps 12–14.
 */
export function handler(s: CallState): StepOutcome | Promise<StepOutcome> {
  if (s.signal?.aborted) return stop(s, "handler", 11, "aborted", ABORTED_MESSAGE);
  if (s.context.onStart !== undefined) notifyObserver(s.context.onStart, s.observed());
  if (s.signal?.aborted) return stop(s, "handler", 11, "aborted", ABORTED_MESSAGE);
  const started = s.onStep === undefined ? 0 : performance.now();
  if (s.onStep !== undefined) emit(s.onStep, "handler", 11, "started", { maxOutputBytes: s.cap });
  let returned: unknown;
  let thenable: boolean;
  try {
    returned = s.tool.handler(s.frozen as never, handlerContext(s));
    thenable = isThenable(returned);
  } catch (error) {
    return settleHandler(s, undefined, { error }, started);
  }
  if (!thenable) return settleHandler(s, returned, undefined, started);
  return awaitHandler(returned as PromiseLike<unknown>, s.signal, abortGrace(s.context, s.settings)).then(
    (value) => settleHandler(s, value, undefined, started),
    (error: unknown) => settleHandler(s, undefined, { error }, started),
  );
}

function settleHandler(
  s: CallState,
  returned: unknown,
  thrown: { error: unknown } | undefined,
  started: number,
): undefined {
  const name = s.tool.name;
  if (thrown !== undefined) {
    s.settled = errorResult("tool_error", `${name} failed: ${thrownMessage(thrown.error)}`);
  } else if (returned === ABANDONED) {
    s.settled = errorResult("aborted", ABORTED_MESSAGE);
  } else {
    let split: SplitResult | undefined;
    try {
      split = splitHandlerResult(returned);
    } catch {
      // A result whose fields cannot be read (a throwing getter or proxy trap) is not a result object.
      split = undefined;
    }
    if (split === undefined) {
      s.settled = errorResult("tool_error", `${name} returned an invalid result`);
    } else {
      s.settled = {
        isError: split.isError,
        content: split.content,
        fields: split.fields,
        jsonTexts: split.jsonTexts,
      };
      s.panelBlocks = split.panelBlocks;
    }
  }
  if (s.onStep !== undefined) {
    const durationMs = Math.round(performance.now() - started);
    const own = s.settled.fields === undefined;
    if (own) {
      const code = s.settled.code as string;
      const message = (s.settled.content[0] as { text: string }).text;
      emit(s.onStep, "handler", 11, "failed", { code, message, durationMs });
    } else {
      emit(s.onStep, "handler", 11, "ok", { durationMs });
    }
  }
  return undefined;
}

/** Step 12 — settle: `onHandlerSettled`, then the panel blocks to the panel sink (exceptions ignored). */
export function settle(s: CallState): void {
  if (s.context.onHandlerSettled !== undefined) notifyObserver(s.context.onHandlerSettled, s.observed());
  const sink = s.settings.panelSink;
  const blocks = s.panelBlocks;
  const count = sink !== undefined && blocks !== undefined ? blocks.length : 0;
  if (sink !== undefined && blocks !== undefined && count > 0) {
    try {
      const sunk: unknown = sink(blocks, s.observed());
      if (isThenable(sunk)) Reflect.apply(sunk.then, sunk, [undefined, noop]);
    } catch {
      // The sink cannot change the result.
    }
  }
  if (s.onStep !== undefined) emit(s.onStep, "settle", 12, "ok", { panelBlocks: count });
}

/** A deep-frozen copy of the settled result for post notifications, so they can never change the result. */
function notificationResult(result: ToolResult): ToolResult {
  try {
    return deepFreeze(structuredClone(result));
  } catch {
    return Object.freeze({ ...result, content: Object.freeze([...result.content]) as ToolResult["content"] });
  }
}

/** Step 13 — the post notification, with the result after panel extraction and before capping. */
export function notify(s: CallState): Promise<void> | undefined {
  const port = s.settings.notify;
  if (port === undefined) {
    if (s.onStep !== undefined) emit(s.onStep, "notify", 13, "skipped");
    return undefined;
  }
  return sendNotification(s, port);
}

async function sendNotification(s: CallState, port: ToolNotification): Promise<void> {
  const settled = s.settled as Settled;
  const event = settled.isError ? "PostToolUseFailure" : "PostToolUse";
  try {
    const copy: Record<string, unknown> = {};
    if (settled.fields !== undefined) {
      for (const key of Object.keys(settled.fields))
        if (key !== "content") setField(copy, key, settled.fields[key]);
    } else {
      copy.isError = settled.isError;
      if (settled.code !== undefined) copy.code = settled.code;
    }
    copy.isError = settled.isError;
    copy.content = settled.content;
    const request: ToolNotificationRequest = {
      ...s.request(),
      result: notificationResult(copy as ToolResult),
    };
    await port(event, request);
  } catch {
    // Notifications cannot change the result.
  }
  if (s.onStep !== undefined) emit(s.onStep, "notify", 13, "ok", { notification: event });
}

/** Step 14 — cap and return (§8.3, amendment A4). */
export function cap(s: CallState): ToolResult {
  const settled = s.settled as Settled;
  const result = withEffects(capInto(settled, s.cap, true), s.effects);
  if (s.onStep !== undefined) {
    const replaced = result.code === "image_too_large" || result.code === "output_budget_too_small";
    const fields: Omit<DispatchStepEvent, "step" | "number" | "status"> =
      result.code === undefined
        ? { truncated: result.truncated === true }
        : { code: result.code, truncated: result.truncated === true };
    const own = settled.fields === undefined ? settled.code : settled.fields.code;
    emit(s.onStep, "cap", 14, replaced && own !== result.code ? "failed" : "ok", fields);
  }
  return result;
}
