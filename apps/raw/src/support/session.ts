import {
  createHookDispatcher,
  type HookDispatcher,
  type HookReceipt,
  type LoadedHook,
} from "@raw/hook-protocol";
import {
  bindInteractionContext,
  createInteractionService,
  createPanelHost,
  type InteractionAdapter,
  type PanelDeclaration,
  type PanelReceipt,
  renderPanelText,
  renderReceiptLine,
} from "@raw/panel";
import {
  type ApprovalRequest,
  createPolicy,
  createToolRegistry,
  DEFAULT_MAX_OUTPUT_BYTES,
  type LoadedTool,
  type PreToolUseAnswer,
  type PreToolUseRequest,
  type ToolInspection,
  type ToolNotification,
  type ToolRegistry,
  type ToolResult,
} from "@raw/tool-api";
import { type RulesInput, ruleAt } from "./inputs.js";
import { blockText, compactJson, effectLines, indent } from "./present.js";

/** The steps of a call trace, in pipeline order (tool-api.md §7.2). */
export type StepName =
  | "exposure"
  | "validation"
  | "effects"
  | "policy"
  | "hook"
  | "approval"
  | "handler"
  | "panel"
  | "result";

/** One step of a call trace: a status word, a human-readable text, and machine-readable data. */
export interface TraceStep {
  step: StepName;
  status: string;
  text: string;
  data?: Record<string, unknown>;
}

/** Everything one call did. */
export interface CallTrace {
  tool: string;
  identity: string | null;
  toolCallId: string;
  arguments: unknown;
  effects: unknown;
  steps: TraceStep[];
  hooks: HookReceipt[];
  panels: Array<{ receipt: PanelReceipt; line: string; text: string | null }>;
  result: ToolResult;
  modelLines: string[];
}

/** How a session asks for approval: the answer, and how the trace names who answered. */
export interface Approver {
  approve(request: ApprovalRequest): boolean | Promise<boolean>;
  /** For example `--approve yes`, `the terminal`, `the demo script`. */
  label: string;
}

/** Options of `openSession`. */
export interface SessionOptions {
  /** Absolute session working directory. */
  cwd: string;
  /** The loaded tools (`loadTools`): the bundled ones as `builtin/<name>`, `--tool` folders as `local/<id>`. */
  tools: readonly LoadedTool[];
  rules?: RulesInput | undefined;
  hooks?: readonly LoadedHook[] | undefined;
  /** Without an approver, a call that needs approval ends `approval_required`. */
  approver?: Approver | undefined;
  /** Without an adapter, interaction requests fail at once with `interaction_unavailable`. */
  interactionAdapter?: InteractionAdapter | undefined;
  /** Called with each step as soon as it is known. */
  onStep?: ((step: TraceStep) => void) | undefined;
  /** The environment of hook processes (default: this process's). */
  env?: NodeJS.ProcessEnv | undefined;
}

/** A session: the bundled tools in a real registry, with hooks, panels and interactions wired. */
export interface Session {
  readonly registry: ToolRegistry;
  /** Runs one call and resolves to its trace; never throws for contract failures. */
  call(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<CallTrace>;
  /** The model-facing name of a bundled tool given by name or by identity (`builtin/bash`). */
  resolveName(tool: string): string;
  close(): void;
}

const EARLY_CODES: Readonly<Record<string, StepName>> = {
  tool_not_exposed: "exposure",
  tool_denied: "policy",
  invalid_arguments: "validation",
  invalid_effects: "effects",
  effects_error: "effects",
  hook_denied: "hook",
  hook_error: "hook",
  approval_required: "approval",
  approval_error: "approval",
  approval_expired: "approval",
  approval_denied: "approval",
};

function messageOf(result: ToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

/** The text of one hook receipt: `<Event> <hook id>[ <code>][ — <message>] (<n> ms)`, then its stderr. */
function hookText(receipt: HookReceipt): string {
  const code = receipt.code ? ` ${receipt.code}` : "";
  const message = receipt.message ? ` — ${receipt.message}` : "";
  const stderr = receipt.stderr ? `\nstderr: ${receipt.stderr.trimEnd()}` : "";
  return `${receipt.event} ${receipt.id}${code}${message} (${receipt.durationMs} ms)${stderr}`;
}

/** Follows one call through the pipeline and emits its steps in order, inferring the ones dispatch passed. */
class CallState {
  readonly steps: TraceStep[] = [];
  readonly receipts: HookReceipt[] = [];
  effects: unknown;
  private early = false;
  private gateDone = false;
  private approvalDone = false;
  private startedAt = 0;
  private gateReceipts = 0;

  constructor(
    readonly name: string,
    readonly inspection: ToolInspection | undefined,
    readonly args: unknown,
    private readonly session: SessionInternals,
  ) {}

  private emit(step: StepName, status: string, text: string, data?: Record<string, unknown>): void {
    const entry: TraceStep = data === undefined ? { step, status, text } : { step, status, text, data };
    this.steps.push(entry);
    this.session.onStep?.(entry);
  }

  private emitExposure(): void {
    const identity = this.inspection?.identity ?? this.name;
    this.emit("exposure", "ok", `${this.name} → ${identity}`, { identity });
  }

  private emitPolicy(args: unknown, effects: unknown, withArguments: boolean): void {
    const identity = this.inspection?.identity ?? this.name;
    const explanation = withArguments
      ? this.session.policy.explain(identity, args, effects)
      : this.session.policy.explain(identity);
    const rule =
      explanation.ruleIndex === null ? undefined : ruleAt(this.session.rules, explanation.ruleIndex);
    const by =
      explanation.ruleIndex === null
        ? "no rule applies (the default is allow)"
        : `${explanation.hidden ? "hidden by " : ""}rule ${explanation.ruleIndex}${rule ? ` at ${rule.location}: ${compactJson(rule.rule)}` : ""}`;
    this.emit("policy", explanation.decision, by, {
      decision: explanation.decision,
      ruleIndex: explanation.ruleIndex,
      hidden: explanation.hidden,
      rule: rule?.rule ?? null,
      location: rule?.location ?? null,
    });
  }

  /** Steps 1–7 passed (the gate, approval or the handler was reached): exposure, validation, effects, policy. */
  reachedGate(args: unknown, effects: unknown): void {
    if (this.early) return;
    this.early = true;
    this.effects = effects;
    this.emitExposure();
    this.emit("validation", "ok", "the arguments match the input schema");
    if (this.inspection?.hasDescribeEffects) {
      this.emit("effects", "ok", effectLines(effects).join("\n"), { effects });
    } else {
      this.emit("effects", "none", "the tool declares no intended effects");
    }
    this.emitPolicy(args, effects, true);
  }

  hookReceipt(receipt: HookReceipt): void {
    this.receipts.push(receipt);
    if (receipt.event === "PreToolUse") this.gateReceipts++;
    this.emit("hook", receipt.outcome, hookText(receipt), { receipt });
  }

  gateAnswered(answer: PreToolUseAnswer): void {
    this.gateDone = true;
    if (answer.blocked !== undefined && this.gateReceipts > 0) {
      // The receipt line already shows the hook that blocked, and the result carries its reason: said once.
    } else if (answer.blocked !== undefined) {
      this.emit("hook", answer.blocked, `PreToolUse blocked the call: ${answer.reason ?? answer.blocked}`, {
        blocked: answer.blocked,
        reason: answer.reason ?? null,
      });
    } else if (!this.session.hasHooks) {
      this.emit("hook", "none", "no hooks selected");
    } else if (this.gateReceipts === 0) {
      this.emit("hook", "none", "PreToolUse: no selected hook matched this call");
    }
  }

  approvalAnswered(approved: boolean | "error", label: string): void {
    this.approvalDone = true;
    if (approved === "error") this.emit("approval", "error", `the approval callback failed (${label})`);
    else this.emit("approval", approved ? "approved" : "denied", `by ${label}`);
  }

  handlerStarted(): void {
    if (!this.approvalDone) {
      this.approvalDone = true;
      this.emit("approval", "skipped", "not needed: the policy decision is allow");
    }
    this.startedAt = performance.now();
  }

  handlerSettled(): void {
    const ms = Math.round(performance.now() - this.startedAt);
    this.emit("handler", "ran", `${ms} ms`, { durationMs: ms });
  }

  /** Emits the steps the result implies: those dispatch passed without an observer, and where it stopped. */
  finish(result: ToolResult): void {
    const code = result.code;
    const stoppedAt = code === undefined ? undefined : EARLY_CODES[code];
    const message = messageOf(result);
    if (!this.early) {
      if (stoppedAt === "exposure") {
        this.emit("exposure", "failed", message);
      } else if (stoppedAt === "policy") {
        this.emitExposure();
        this.emitPolicy(undefined, undefined, false);
      } else if (stoppedAt === "validation") {
        this.emitExposure();
        this.emit("validation", "failed", message);
      } else if (stoppedAt === "effects") {
        this.emitExposure();
        this.emit("validation", "ok", "the arguments match the input schema");
        this.emit("effects", "failed", `${code}: ${message}`);
      } else if (result.effects !== undefined || stoppedAt !== undefined) {
        this.reachedGate(this.args, result.effects);
      }
    }
    if (this.early && !this.gateDone && stoppedAt === "hook") {
      this.gateDone = true;
      this.emit("hook", "error", `PreToolUse blocked the call: ${message}`);
    }
    if (stoppedAt === "approval" && !this.approvalDone) {
      this.approvalDone = true;
      const text =
        code === "approval_required"
          ? "no way to ask (not a terminal): pass --approve yes or --approve no"
          : message;
      this.emit("approval", code === "approval_required" ? "required" : "failed", text);
    }
    this.effects = result.effects ?? this.effects;
  }
}

interface SessionInternals {
  policy: ReturnType<typeof createPolicy>;
  rules: RulesInput | undefined;
  hasHooks: boolean;
  onStep: ((step: TraceStep) => void) | undefined;
}

/**
 * Opens a session over loaded tools: a real `createToolRegistry` with the rules,
 * the hook dispatcher as the `preToolUse`/`notify` ports, a panel host as the `panelSink` and `context.panels`, and
 * an interaction service bound to each call as `context.interactions`.
 */
export async function openSession(options: SessionOptions): Promise<Session> {
  const tools = options.tools;
  const rules = options.rules;
  const internals: SessionInternals = {
    policy: createPolicy(rules?.rules ?? []),
    rules,
    hasHooks: (options.hooks?.length ?? 0) > 0,
    onStep: options.onStep,
  };
  let current: CallState | undefined;
  let hooks: HookDispatcher | undefined;
  if (options.hooks && options.hooks.length > 0) {
    hooks = createHookDispatcher(options.hooks, {
      tools: tools.map((tool) => tool.registration),
      envelope: () => ({ cwd: options.cwd }),
      onReceipt: (receipt) => current?.hookReceipt(receipt),
      env: options.env,
    });
  }
  const gate = async (request: PreToolUseRequest): Promise<PreToolUseAnswer> => {
    current?.reachedGate(request.arguments, request.effects);
    const answer: PreToolUseAnswer = hooks
      ? await hooks.preToolUse(request as Parameters<HookDispatcher["preToolUse"]>[0])
      : {};
    current?.gateAnswered(answer);
    return answer;
  };
  const host = createPanelHost();
  const service = createInteractionService(
    options.interactionAdapter ? { adapter: options.interactionAdapter } : {},
  );
  const registry = createToolRegistry({
    rules: rules?.rules ?? [],
    preToolUse: gate,
    notify: hooks?.notify as ToolNotification | undefined,
    panelSink: host.sink,
  });
  registry.register(tools.map((tool) => tool.registration));
  const byIdentity = new Map(tools.map((tool) => [tool.identity, tool.registration.name]));
  let calls = 0;

  const approver = options.approver;
  const approve = approver
    ? async (request: ApprovalRequest): Promise<boolean> => {
        current?.reachedGate(request.arguments, request.effects);
        let approved: boolean;
        try {
          approved = Boolean(await approver.approve(request));
        } catch (error) {
          current?.approvalAnswered("error", approver.label);
          throw error;
        }
        current?.approvalAnswered(approved, approver.label);
        return approved;
      }
    : undefined;

  function panelText(receipt: PanelReceipt): string | null {
    const state =
      receipt.view !== undefined ? host.getView(receipt.view) : host.get(`${receipt.owner}#${receipt.panel}`);
    if (state === undefined || receipt.error !== undefined) return null;
    const text = renderPanelText((state.declaration as PanelDeclaration).title, state.document);
    return state.closed ? `${text}\n(closed)` : text;
  }

  return {
    registry,
    resolveName(tool) {
      return byIdentity.get(tool) ?? tool;
    },
    async call(name, args, callOptions = {}) {
      const inspection = registry.inspectionDefinition(name);
      const toolCallId = `call-${++calls}`;
      const state = new CallState(name, inspection, args, internals);
      current = state;
      const panelCall = host.beginCall({
        owner: inspection?.identity ?? name,
        declarations: (inspection?.panels ?? []) as unknown as PanelDeclaration[],
        toolCallId,
        source: "model",
      });
      const signal = callOptions.signal;
      const interactions = bindInteractionContext(service, panelCall, {
        maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
        ...(signal ? { signal } : {}),
      });
      const result = await registry.dispatch(
        { name, arguments: args, toolCallId },
        {
          cwd: options.cwd,
          signal,
          panels: panelCall.context,
          interactions,
          approve,
          onStart: () => state.handlerStarted(),
          onHandlerSettled: () => {
            panelCall.closeContext();
            state.handlerSettled();
          },
        },
      );
      interactions.cancelPending();
      const settlement = panelCall.settle({ hasOtherContent: result.content.length > 0 });
      state.finish(result);
      const panels = settlement.receipts.map((receipt) => {
        const line = renderReceiptLine(receipt);
        const text = panelText(receipt);
        return { receipt, line, text };
      });
      for (const panel of panels) {
        const body =
          panel.text === null ? panel.line.trim() : `${panel.line.trim()}\n${indent(panel.text, 2)}`;
        state.steps.push({ step: "panel", status: panel.receipt.error ? "rejected" : "updated", text: body });
        options.onStep?.(state.steps.at(-1) as TraceStep);
      }
      const ok = !result.isError;
      const head = [result.code ?? "", result.truncated ? "(truncated to the output budget)" : ""]
        .filter(Boolean)
        .join(" ");
      const content = result.content.map(blockText).join("\n");
      const lines =
        settlement.modelLines.length > 0
          ? `\nmodel-visible lines:\n${indent(settlement.modelLines.join("\n"), 2)}`
          : "";
      const body = [head, content].filter(Boolean).join("\n");
      const resultStep: TraceStep = {
        step: "result",
        status: ok ? "ok" : "error",
        text: `${body}${lines}`,
        data: { isError: result.isError, code: result.code ?? null },
      };
      state.steps.push(resultStep);
      options.onStep?.(resultStep);
      current = undefined;
      return {
        tool: name,
        identity: inspection?.identity ?? null,
        toolCallId,
        arguments: args,
        effects: result.effects ?? state.effects ?? null,
        steps: state.steps,
        hooks: state.receipts,
        panels,
        result,
        modelLines: settlement.modelLines,
      };
    },
    close() {
      service.close();
    },
  };
}
