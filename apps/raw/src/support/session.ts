import { createHookDispatcher, type HookReceipt, type LoadedHook } from "@raw/hook-protocol";
import { type PanelDeclaration, renderPanelText } from "@raw/panel";
import {
  type BoundInteractionContext,
  bindInteractionContext,
  createInteractionService,
  createPanelHost,
  type InteractionAdapter,
  type InteractionContext,
  type InteractionService,
  type PanelFrame,
  type PanelHost,
  type PanelReceipt,
  type PanelState,
  renderReceiptLine,
  type SyncInteractionStore,
} from "@raw/panel/host";
import {
  type ApprovalRequest,
  createToolRegistry,
  DEFAULT_MAX_OUTPUT_BYTES,
  type LoadedTool,
  type ToolRegistry,
  type ToolResult,
} from "@raw/tool-api";
import { CallView, type TraceSettings, type TraceStep } from "./call-view.js";
import type { RulesInput } from "./inputs.js";
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
  close(): void;
}

/**
 * Opens a session over loaded tools: a real `createToolRegistry` with the rules, the hook dispatcher's own
 * `preToolUse`/`notify` as the ports, a panel host as the `panelSink` and `context.panels`, and an interaction
 * service bound to each call as `context.interactions`. The trace of a call is the registry's `onStep` events.
 */
export async function openSession(options: SessionOptions): Promise<Session> {
  const tools = options.tools;
  const rules = options.rules;
  const approver = options.approver;
  const internals: TraceSettings = {
    rules,
    approverLabel: approver?.label ?? "",
    onStep: options.onStep,
  };
  let current: CallView | undefined;
  const hooks =
    options.hooks && options.hooks.length > 0
      ? createHookDispatcher(options.hooks, {
          tools: tools.map((tool) => tool.registration),
          envelope: () => ({ cwd: options.cwd }),
          onReceipt: (receipt) => current?.hookReceipt(receipt),
          env: options.env,
        })
      : undefined;
  const host = createPanelHost({
    ...(options.onPanelFrame ? { onFrame: options.onPanelFrame } : {}),
    ...(options.restorePanels ? { restore: options.restorePanels } : {}),
  });
  const service = createInteractionService({
    ...(options.interactionAdapter
      ? { adapter: options.interactionAdapter }
      : options.interactive
        ? { interactive: true }
        : {}),
    ...(options.interactionStore ? { store: options.interactionStore } : {}),
  });
  const registry = createToolRegistry({
    rules: rules?.rules ?? [],
    preToolUse: hooks?.preToolUse,
    notify: hooks?.notify,
    panelSink: host.sink,
    approve: approver ? (request) => approver.approve(request) : undefined,
  });
  registry.register(tools.map((tool) => tool.registration));
  const byIdentity = new Map(tools.map((tool) => [tool.identity, tool.registration.name]));
  let calls = 0;

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
    async call(name, args, callOptions = {}) {
      const inspection = registry.inspectionDefinition(name);
      const toolCallId = callOptions.toolCallId ?? `call-${++calls}`;
      const source = callOptions.source ?? "model";
      const view = new CallView(name, internals);
      current = view;
      const panelCall = host.beginCall({
        owner: inspection?.identity ?? name,
        declarations: inspection?.panels ?? [],
        toolCallId,
        source,
      });
      const signal = callOptions.signal;
      // Interactions are fitted to the output cap dispatch gives the handler (raised by a tool's `outputLimit`):
      // the context is bound when the handler step starts, before the handler can ask.
      let bound: BoundInteractionContext | undefined;
      const interactions: InteractionContext = {
        request(input) {
          bound ??= bindInteractionContext(service, panelCall, {
            maxOutputBytes: view.handlerBudget ?? DEFAULT_MAX_OUTPUT_BYTES,
            ...(signal ? { signal } : {}),
          });
          return bound.request(input);
        },
      };
      const result = await registry.dispatch(
        { name, arguments: args, toolCallId, source },
        {
          cwd: options.cwd,
          signal,
          panels: panelCall.context,
          interactions,
          onStep: (event) => view.step(event),
          onHandlerSettled: () => panelCall.closeContext(),
        },
      );
      bound?.cancelPending();
      const settlement = panelCall.settle({ hasOtherContent: result.content.length > 0 });
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
      current = undefined;
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
      service.close();
    },
  };
}
