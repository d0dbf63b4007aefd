import type { HookReceipt } from "@raw/hook-protocol";
import type { DispatchStepEvent } from "@raw/tool-api";
import type { StepName, TraceStep } from "../serve/wire.js";
import { type RulesInput, ruleAt } from "./inputs.js";
import { compactJson, displayBlock, displayLine, effectLines } from "./present.js";

export type { StepName, TraceStep } from "../serve/wire.js";

/**
 * The text of one hook receipt: `<Event> <hook id>[ <code>][ — <message>] (<n> ms)` as one screen line, then its
 * stderr tail as a block (amendment A1: both escaped).
 */
function hookText(receipt: HookReceipt): string {
  const code = receipt.code ? ` ${displayLine(receipt.code)}` : "";
  const message = receipt.message ? ` — ${displayLine(receipt.message)}` : "";
  const stderr = receipt.stderr ? `\nstderr: ${displayBlock(receipt.stderr).trimEnd()}` : "";
  return `${receipt.event} ${displayLine(receipt.id)}${code}${message} (${receipt.durationMs} ms)${stderr}`;
}

/** The trace status of an approval that ended the call, by its code. */
const APPROVAL_STATUS: Readonly<Record<string, string>> = {
  approval_denied: "denied",
  approval_error: "error",
  approval_required: "required",
};

/**
 * The trace of one call: a view of the registry's own step events (`DispatchContext.onStep`) and of the hook
 * receipts, turned into lines as they arrive. Nothing is inferred from the result.
 */
export class CallView {
  readonly steps: TraceStep[] = [];
  readonly receipts: HookReceipt[] = [];
  effects: unknown;
  /** The output cap dispatch gave the handler (the `handler` step's `started` event). */
  handlerBudget: number | undefined;
  private gateReceipts = 0;

  constructor(
    readonly name: string,
    private readonly session: TraceSettings,
  ) {}

  // Untrusted strings (messages, hook reasons and stderr, effects paths, names) are escaped where each line is
  // built (amendment A1), so every view of the trace — terminal, JSON, the web page — shows the same safe text.
  /** Adds one trace step and hands it to the session's `onStep` at once. */
  emit(step: StepName, status: string, text: string, data?: Record<string, unknown>): void {
    const entry: TraceStep = data === undefined ? { step, status, text } : { step, status, text, data };
    this.steps.push(entry);
    this.session.onStep?.(entry);
  }

  private policyLine(event: DispatchStepEvent): void {
    const index = event.ruleIndex ?? null;
    const rule = index === null ? undefined : ruleAt(this.session.rules, index);
    const by =
      index === null
        ? "no rule applies (the default is allow)"
        : `${event.hidden ? "hidden by " : ""}${rule?.label ?? `rule ${index}`}${rule ? ` at ${displayLine(rule.location)}: ${compactJson(rule.rule)}` : ""}`;
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
    this.emit("hook", receipt.outcome, hookText(receipt), { receipt });
  }

  /** One dispatch step event, as trace lines (steps without a line of their own add none). */
  step(event: DispatchStepEvent): void {
    const failed = event.status === "failed";
    const message = event.message ?? "";
    switch (event.step) {
      case "exposure":
        if (failed) this.emit("exposure", "failed", displayLine(message));
        else
          this.emit("exposure", "ok", `${displayLine(this.name)} → ${displayLine(String(event.identity))}`, {
            identity: event.identity,
          });
        return;
      case "visibility":
        if (failed) this.policyLine(event);
        return;
      case "validation":
      case "snapshot":
        if (failed) this.emit("validation", "failed", displayBlock(message));
        else if (event.step === "validation")
          this.emit("validation", "ok", "the arguments match the input schema");
        return;
      case "effects":
        if (failed) {
          this.emit("effects", "failed", `${event.code}: ${displayLine(message)}`);
        } else if (event.status === "skipped") {
          this.emit("effects", "none", "the tool declares no intended effects");
        } else {
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
        if (event.status === "started") this.handlerBudget = event.maxOutputBytes;
        else if (event.durationMs !== undefined)
          this.emit("handler", "ran", `${event.durationMs} ms`, { durationMs: event.durationMs });
        return;
      default:
      // abort checks, settle, notify and cap: the result line says how the call ended.
    }
  }

  private gateStep(event: DispatchStepEvent): void {
    if (event.status === "skipped") {
      this.emit("hook", "none", "no hooks selected");
    } else if (event.status === "ok") {
      if (this.gateReceipts === 0)
        this.emit("hook", "none", "PreToolUse: no selected hook matched this call");
    } else if (event.code !== "aborted" && this.gateReceipts === 0) {
      // With a receipt, its line already shows the hook that blocked and the result its reason: said once.
      const blocked = event.blocked ?? "error";
      const why = event.reason ?? event.blocked ?? event.message ?? "";
      this.emit("hook", blocked, `PreToolUse blocked the call: ${displayLine(why)}`, {
        blocked,
        reason: event.reason ?? null,
      });
    }
  }

  private approvalStep(event: DispatchStepEvent): void {
    const label = this.session.approverLabel;
    if (event.status === "skipped") {
      this.emit("approval", "skipped", "not needed: the policy decision is allow");
    } else if (event.status === "ok") {
      this.emit("approval", "approved", `by ${label}`);
    } else {
      const code = event.code ?? "";
      const status = APPROVAL_STATUS[code] ?? "failed";
      const text =
        code === "approval_denied"
          ? `by ${label}`
          : code === "approval_error"
            ? `the approval callback failed (${label})`
            : code === "approval_required"
              ? "no way to ask (not a terminal): pass --approve yes or --approve no"
              : displayLine(event.message ?? "");
      this.emit("approval", status, text);
    }
  }
}

/** What a call's trace needs from its session: the rules (to show the deciding rule), who approves, the sink. */
export interface TraceSettings {
  rules: RulesInput | undefined;
  approverLabel: string;
  onStep: ((step: TraceStep) => void) | undefined;
}
