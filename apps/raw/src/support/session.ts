import type { HookReceipt, LoadedHook } from "@raw/hook-protocol";
import { type ApprovalView, type HostSession, openHostSession } from "@raw/host";
import { type PanelDeclaration, renderPanelText } from "@raw/panel";
import {
  type InteractionAdapter,
  type InteractionService,
  type PanelFrame,
  type PanelHost,
  type PanelReceipt,
  type PanelState,
  renderReceiptLine,
  type SyncInteractionStore,
} from "@raw/panel/host";
import type { ApprovalRequest, LoadedTool, ToolRegistry, ToolResult } from "@raw/tool-api";
import { CallView, type TraceSettings, type TraceStep } from "./call-view.js";
import { type RulesInput, withDefaultRules } from "./inputs.js";
import { blockText, displayLine, indent } from "./present.js";

export type { StepName, TraceStep } from "./call-view.js";

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
  /** `view` is the one approval view (A10, `describeApproval`): what a person reads, already escaped. */
  approve(request: ApprovalRequest, view: ApprovalView): boolean | Promise<boolean>;
  /** For example `--approve yes`, `the terminal`, `the demo script`. */
  label: string;
}

/** Options of `openSession`. */
export interface SessionOptions {
  /** Absolute session working directory. */
  cwd: string;
  /** The loaded tools (`loadTools`): the bundled ones as `builtin/<name>`, `--tool` folders as `local/<id>`. */
  tools: readonly LoadedTool[];
  /** The user's rules file; the session runs the default rules (A10) before it, so its rules decide where they apply. */
  rules?: RulesInput | undefined;
  hooks?: readonly LoadedHook[] | undefined;
  /** Without an approver, a call that needs approval ends `approval_required`. */
  approver?: Approver | undefined;
  /** Without an adapter, interaction requests fail at once with `interaction_unavailable`. */
  interactionAdapter?: InteractionAdapter | undefined;
  /** Where interaction requests live (`--state <file>`: the SQLite store); default in memory. */
  interactionStore?: SyncInteractionStore | undefined;
  /** Called with each step as soon as it is known. */
  onStep?: ((step: TraceStep) => void) | undefined;
  /** The environment of hook processes (default: this process's). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Observes the panel host's live frames (a web page). */
  onPanelFrame?: ((frame: PanelFrame) => void) | undefined;
  /** Committed sidebar panels to start from (`raw serve --state` after a restart). */
  restorePanels?: readonly PanelState[] | undefined;
  /** Answers arrive only through `session.interactions.submit` (a web page), not an adapter. */
  interactive?: boolean | undefined;
}

/** A session: the bundled tools in a real registry, with hooks, panels and interactions wired. */
export interface Session {
  readonly registry: ToolRegistry;
  /** The session's panel host (its committed panels). */
  readonly panels: PanelHost;
  /** The session's interaction service. */
  readonly interactions: InteractionService;
  /** Runs one call and resolves to its trace; never throws for contract failures. */
  call(
    name: string,
    args: unknown,
    options?: { signal?: AbortSignal; source?: "model" | "user_action"; toolCallId?: string },
  ): Promise<CallTrace>;
  /** The model-facing name of a bundled tool given by name or by identity (`builtin/bash`). */
  resolveName(tool: string): string;
  /** Runs the session's hooks on an event outside a call (`HostSession.runHooks`). */
  runHooks: HostSession["runHooks"];
  close(): void;
}

/**
 * Opens a session of the reference app over loaded tools: a host session of `@raw/host` (registry, rules with the
 * A10 defaults, hooks, panels, interactions and approval, wired once there) whose step events build each call's
 * trace.
 */
export async function openSession(options: SessionOptions): Promise<Session> {
  const tools = options.tools;
  const approver = options.approver;
  const hostSession = openHostSession({
    cwd: options.cwd,
    tools,
    rules: options.rules?.rules,
    hooks: options.hooks,
    hookEnv: options.env,
    approve: approver ? (request, view) => approver.approve(request, view) : undefined,
    interactionAdapter: options.interactionAdapter,
    interactive: options.interactive,
    store: options.interactionStore,
    onPanelFrame: options.onPanelFrame,
    restorePanels: options.restorePanels,
  });
  const rules = withDefaultRules(options.rules, hostSession.rules.rules.slice(0, hostSession.rules.defaults));
  const internals: TraceSettings = {
    rules,
    approverLabel: approver?.label ?? "",
    onStep: options.onStep,
  };
  const registry = hostSession.registry;
  const host = hostSession.panels;
  const service = hostSession.interactions;
  const byIdentity = new Map(tools.map((tool) => [tool.identity, tool.registration.name]));

  function panelText(receipt: PanelReceipt): string | null {
    const state =
      receipt.view !== undefined ? host.getView(receipt.view) : host.get(`${receipt.owner}#${receipt.panel}`);
    if (state === undefined || receipt.error !== undefined) return null;
    const text = renderPanelText((state.declaration as PanelDeclaration).title, state.document);
    return state.closed ? `${text}\n(closed)` : text;
  }

  return {
    registry,
    panels: host,
    interactions: service,
    resolveName(tool) {
      return byIdentity.get(tool) ?? tool;
    },
    runHooks: (event, payload, runOptions) => hostSession.runHooks(event, payload, runOptions),
    async call(name, args, callOptions = {}) {
      const inspection = registry.inspectionDefinition(name);
      const view = new CallView(name, internals);
      const dispatched = await hostSession.dispatch(
        { name, arguments: args, toolCallId: callOptions.toolCallId },
        {
          signal: callOptions.signal,
          source: callOptions.source ?? "model",
          onStep: (event) =>
            event.type === "step" ? view.step(event.step) : view.hookReceipt(event.receipt),
        },
      );
      const { result, toolCallId } = dispatched;
      const settlement = dispatched.panels;
      const panels = settlement.receipts.map((receipt) => {
        const line = renderReceiptLine(receipt);
        const text = panelText(receipt);
        return { receipt, line, text };
      });
      for (const panel of panels) {
        const body =
          panel.text === null ? panel.line.trim() : `${panel.line.trim()}\n${indent(panel.text, 2)}`;
        view.emit("panel", panel.receipt.error ? "rejected" : "updated", body);
      }
      const ok = !result.isError;
      const head = [result.code ?? "", result.truncated ? "(truncated to the output budget)" : ""]
        .filter(Boolean)
        .join(" ");
      const content = result.content.map(blockText).join("\n");
      const lines =
        settlement.modelLines.length > 0
          ? `\nmodel-visible lines:\n${indent(settlement.modelLines.map((line) => displayLine(line)).join("\n"), 2)}`
          : "";
      const body = [head, content].filter(Boolean).join("\n");
      view.emit("result", ok ? "ok" : "error", `${body}${lines}`, {
        isError: result.isError,
        code: result.code ?? null,
      });
      return {
        tool: name,
        identity: inspection?.identity ?? null,
        toolCallId,
        arguments: args,
        effects: result.effects ?? view.effects ?? null,
        steps: view.steps,
        hooks: view.receipts,
        panels,
        result,
        modelLines: settlement.modelLines,
      };
    },
    close() {
      void hostSession.close();
    },
  };
}
