import type { HookReceipt } from "@raw/hook-protocol";
import { type PanelDeclaration, renderPanelText } from "@raw/panel";
import { type PanelReceipt, renderReceiptLine } from "@raw/panel/host";
import { escapeDisplayText } from "@raw/schema";
import type { DispatchStepEvent, ToolResult } from "@raw/tool-api";
import type { HostCall, HostDispatchOptions, HostSession } from "./host-session.js";
import { blockText, compactJson, effectLines, type StepName, type TraceStep } from "./trace-text.js";

export type { StepName, TraceStep } from "./trace-text.js";

/** The rule a policy step names: as written, where it starts, and how a trace labels it. */
export interface TracedRule {
  readonly rule: unknown;
  /** `<file>:<line>:<col>` (or `(default rules):<n>:1`); `null` when unknown. */
  readonly location: string | null;
  /** `default rule 0`, `rule 2`. */
  readonly label: string;
  /** Index among the default rules or in the user's rules. */
  readonly index: number;
  readonly defaultRule: boolean;
}

/** The label of the session's default rules in a trace (`default rule 0 at (default rules):1:1: ...`). */
export const DEFAULT_RULES_LABEL = "(default rules)";

/** How a trace names things only its host knows. */
export interface TraceOptions {
  /** Who answers approvals, as the trace says it (`--approve yes`, `the terminal`, `the web page`). */
  readonly approverLabel?: string | undefined;
  /**
   * The rule at `index` of the session's rules (`HostSession.rules`), for the policy step. Default: the rule as the
   * session holds it, labelled `default rule <i>` or `rule <j>` (counted in the user's rules), with no file position.
   */
  readonly describeRule?: ((index: number) => TracedRule | undefined) | undefined;
  /** The text of an `approval_required` step (what a person can do about it). */
  readonly approvalRequiredText?: string | undefined;
  /** Called with each step as soon as it is known. */
  readonly onStep?: ((step: TraceStep) => void) | undefined;
}

/** Options of `traceCall`: those of `HostSession.dispatch` (its `onStep` aside) and of the trace. */
export interface TraceCallOptions extends Omit<HostDispatchOptions, "onStep">, TraceOptions {}

/** Everything one call did, as `traceCall` records it. */
export interface CallTrace {
  tool: string;
  identity: string | null;
  toolCallId: string;
  arguments: unknown;
  effects: unknown;
  steps: TraceStep[];
  hooks: HookReceipt[];
  /** Each panel receipt with its receipt line and, when the panel is known, its text. */
  panels: Array<{ receipt: PanelReceipt; line: string; text: string | null }>;
  result: ToolResult;
  modelLines: string[];
}

/** The trace status of an approval that ended the call, by its code. */
const APPROVAL_STATUS: Readonly<Record<string, string>> = {
  approval_denied: "denied",
  approval_error: "error",
  approval_required: "required",
};

function line(text: string): string {
  return escapeDisplayText(text);
}

function block(text: string): string {
  return escapeDisplayText(text, { multiline: true });
}

function indent(text: string, spaces: number): string {
  const pad = " ".repeat(spaces);
  return text
    .split("\n")
    .map((l) => (l === "" ? l : pad + l))
    .join("\n");
}

/**
 * The text of one hook receipt: `<Event> <hook id>[ <code>][ — <message>] (<n> ms)` as one screen line, then its
 * stderr tail as a block (amendment A1: both escaped).
 */
export function hookReceiptText(receipt: HookReceipt): string {
  const code = receipt.code ? ` ${line(receipt.code)}` : "";
  const message = receipt.message ? ` — ${line(receipt.message)}` : "";
  const stderr = receipt.stderr ? `\nstderr: ${block(receipt.stderr).trimEnd()}` : "";
  return `${receipt.event} ${line(receipt.id)}${code}${message} (${receipt.durationMs} ms)${stderr}`;
}

/** The default `describeRule` of a session: the rule as held, labelled by where it sits, with no file position. */
function sessionRule(session: HostSession, index: number): TracedRule | undefined {
  const { rules, defaults } = session.rules;
  if (index < 0 || index >= rules.length) return undefined;
  const defaultRule = index < defaults;
  const own = defaultRule ? index : index - defaults;
  return {
    rule: rules[index],
    location: defaultRule ? `${DEFAULT_RULES_LABEL}:${index + 1}:1` : null,
    label: defaultRule ? `default rule ${index}` : `rule ${own}`,
    index: own,
    defaultRule,
  };
}

/**
 * The trace of one call: a view of the registry's own step events and of the hook receipts, turned into lines as
 * they arrive. Nothing is inferred from the result. Untrusted strings are escaped where each line is built (A1).
 */
class CallTracer {
  readonly steps: TraceStep[] = [];
  readonly receipts: HookReceipt[] = [];
  effects: unknown;
  private gateReceipts = 0;

  constructor(
    readonly name: string,
    private readonly options: TraceOptions,
    private readonly describeRule: (index: number) => TracedRule | undefined,
  ) {}

  emit(step: StepName, status: string, text: string, data?: Record<string, unknown>): void {
    const entry: TraceStep = data === undefined ? { step, status, text } : { step, status, text, data };
    this.steps.push(entry);
    this.options.onStep?.(entry);
  }

  private policyLine(event: DispatchStepEvent): void {
    const index = event.ruleIndex ?? null;
    const rule = index === null ? undefined : this.describeRule(index);
    const where = rule?.location ? ` at ${line(rule.location)}` : "";
    const by =
      index === null
        ? "no rule applies (the default is allow)"
        : `${event.hidden ? "hidden by " : ""}${rule?.label ?? `rule ${index}`}${rule ? `${where}: ${compactJson(rule.rule)}` : ""}`;
    this.emit("policy", event.decision ?? "allow", by, {
      decision: event.decision ?? "allow",
      ruleIndex: rule?.index ?? index,
      defaultRule: rule?.defaultRule ?? false,
      hidden: event.hidden === true,
      rule: rule?.rule ?? null,
      location: rule?.location ?? null,
    });
  }

  hookReceipt(receipt: HookReceipt): void {
    this.receipts.push(receipt);
    if (receipt.event === "PreToolUse") this.gateReceipts++;
    this.emit("hook", receipt.outcome, hookReceiptText(receipt), { receipt });
  }

  step(event: DispatchStepEvent): void {
    const failed = event.status === "failed";
    const message = event.message ?? "";
    switch (event.step) {
      case "exposure":
        if (failed) this.emit("exposure", "failed", line(message));
        else
          this.emit("exposure", "ok", `${line(this.name)} → ${line(String(event.identity))}`, {
            identity: event.identity,
          });
        return;
      case "visibility":
        if (failed) this.policyLine(event);
        return;
      case "validation":
      case "snapshot":
        if (failed) this.emit("validation", "failed", block(message));
        else if (event.step === "validation")
          this.emit("validation", "ok", "the arguments match the input schema");
        return;
      case "effects":
        if (failed) this.emit("effects", "failed", `${event.code}: ${line(message)}`);
        else if (event.status === "skipped")
          this.emit("effects", "none", "the tool declares no intended effects");
        else {
          this.effects = event.effects;
          this.emit("effects", "ok", effectLines(event.effects).join("\n"), { effects: event.effects });
        }
        return;
      case "policy":
        this.policyLine(event);
        return;
      case "pre_tool_use":
        this.gateStep(event);
        return;
      case "approval":
        this.approvalStep(event);
        return;
      case "handler":
        if (event.status !== "started" && event.durationMs !== undefined)
          this.emit("handler", "ran", `${event.durationMs} ms`, { durationMs: event.durationMs });
        return;
      default:
      // abort checks, settle, notify and cap: the result line says how the call ended.
    }
  }

  private gateStep(event: DispatchStepEvent): void {
    if (event.status === "skipped") this.emit("hook", "none", "no hooks selected");
    else if (event.status === "ok") {
      if (this.gateReceipts === 0)
        this.emit("hook", "none", "PreToolUse: no selected hook matched this call");
    } else if (event.code !== "aborted" && this.gateReceipts === 0) {
      // With a receipt, its line already shows the hook that blocked and the result its reason: said once.
      const blocked = event.blocked ?? "error";
      const why = event.reason ?? event.blocked ?? event.message ?? "";
      this.emit("hook", blocked, `PreToolUse blocked the call: ${line(why)}`, {
        blocked,
        reason: event.reason ?? null,
      });
    }
  }

  private approvalStep(event: DispatchStepEvent): void {
    const label = this.options.approverLabel ?? "the approval callback";
    if (event.status === "skipped")
      this.emit("approval", "skipped", "not needed: the policy decision is allow");
    else if (event.status === "ok") this.emit("approval", "approved", `by ${label}`);
    else {
      const code = event.code ?? "";
      const text =
        code === "approval_denied"
          ? `by ${label}`
          : code === "approval_error"
            ? `the approval callback failed (${label})`
            : code === "approval_required"
              ? (this.options.approvalRequiredText ?? "no way to ask: the session has no approval callback")
              : line(event.message ?? "");
      this.emit("approval", APPROVAL_STATUS[code] ?? "failed", text);
    }
  }
}

/**
 * Runs one call through `session.dispatch` and records its trace: one `TraceStep` per pipeline step as it happens
 * (exposure, validation, effects, policy with the deciding rule, hooks with their receipts, approval, handler), then
 * one per panel receipt and the result with the lines a model reads. What `raw call` prints and `raw serve` streams;
 * any host can log or show it. Never throws for a contract failure.
 */
export async function traceCall(
  session: HostSession,
  call: HostCall,
  options: TraceCallOptions = {},
): Promise<CallTrace> {
  const tracer = new CallTracer(
    call.name,
    options,
    options.describeRule ?? ((index) => sessionRule(session, index)),
  );
  const dispatched = await session.dispatch(call, {
    signal: options.signal,
    source: options.source,
    approve: options.approve,
    onStep: (event) => {
      if (event.type === "step") tracer.step(event.step);
      else tracer.hookReceipt(event.receipt);
    },
  });
  const { result, panels: settlement } = dispatched;
  const host = session.panels;
  const panels = settlement.receipts.map((receipt) => {
    const state =
      receipt.view !== undefined ? host.getView(receipt.view) : host.get(`${receipt.owner}#${receipt.panel}`);
    let text: string | null = null;
    if (state !== undefined && receipt.error === undefined) {
      text = renderPanelText((state.declaration as PanelDeclaration).title, state.document);
      if (state.closed) text = `${text}\n(closed)`;
    }
    return { receipt, line: renderReceiptLine(receipt), text };
  });
  for (const panel of panels) {
    const body = panel.text === null ? panel.line.trim() : `${panel.line.trim()}\n${indent(panel.text, 2)}`;
    tracer.emit("panel", panel.receipt.error ? "rejected" : "updated", body);
  }
  const head = [result.code ?? "", result.truncated ? "(truncated to the output budget)" : ""]
    .filter(Boolean)
    .join(" ");
  const content = result.content.map(blockText).join("\n");
  const modelLines =
    settlement.modelLines.length > 0
      ? `\nmodel-visible lines:\n${indent(settlement.modelLines.map(line).join("\n"), 2)}`
      : "";
  tracer.emit(
    "result",
    result.isError ? "error" : "ok",
    `${[head, content].filter(Boolean).join("\n")}${modelLines}`,
    {
      isError: result.isError,
      code: result.code ?? null,
    },
  );
  return {
    tool: call.name,
    identity: dispatched.identity,
    toolCallId: dispatched.toolCallId,
    arguments: call.arguments,
    effects: result.effects ?? tracer.effects ?? null,
    steps: tracer.steps,
    hooks: tracer.receipts,
    panels,
    result,
    modelLines: settlement.modelLines,
  };
}

/** A call trace as JSON data (the `--format json` shape of `raw call`): the panels without their receipt lines. */
export function traceJson(trace: CallTrace): Record<string, unknown> {
  return {
    tool: trace.tool,
    identity: trace.identity,
    toolCallId: trace.toolCallId,
    arguments: trace.arguments,
    effects: trace.effects ?? null,
    steps: trace.steps,
    hooks: trace.hooks,
    panels: trace.panels.map((panel) => ({ receipt: panel.receipt, text: panel.text })),
    result: { ...trace.result },
    modelLines: trace.modelLines,
  };
}
