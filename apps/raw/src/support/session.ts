import type { LoadedHook } from "@raw/hook-protocol";
import {
  type ApprovalView,
  type CallTrace,
  type HostSession,
  openHostSession,
  type TraceStep,
  traceCall,
} from "@raw/host";
import type {
  InteractionAdapter,
  InteractionService,
  PanelFrame,
  PanelHost,
  PanelState,
  SyncInteractionStore,
} from "@raw/panel/host";
import type { ApprovalRequest, LoadedTool, ToolRegistry } from "@raw/tool-api";
import { type RulesInput, ruleAt, withDefaultRules } from "./inputs.js";

export type { CallTrace, StepName, TraceStep } from "@raw/host";

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
  /** Runs one call and resolves to its trace (`traceCall` of `@raw/host`); never throws for contract failures. */
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
 * A10 defaults, hooks, panels, interactions and approval, wired once there) whose calls are traced with `traceCall`,
 * each policy step naming its rule where the rules file has it.
 */
export async function openSession(options: SessionOptions): Promise<Session> {
  const approver = options.approver;
  const host = openHostSession({
    cwd: options.cwd,
    tools: options.tools,
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
  const rules = withDefaultRules(options.rules, host.rules.rules.slice(0, host.rules.defaults));
  const byIdentity = new Map(options.tools.map((tool) => [tool.identity, tool.registration.name]));
  return {
    registry: host.registry,
    panels: host.panels,
    interactions: host.interactions,
    resolveName: (tool) => byIdentity.get(tool) ?? tool,
    runHooks: (event, payload, runOptions) => host.runHooks(event, payload, runOptions),
    call: (name, args, callOptions = {}) =>
      traceCall(
        host,
        { name, arguments: args, toolCallId: callOptions.toolCallId },
        {
          signal: callOptions.signal,
          source: callOptions.source ?? "model",
          approverLabel: approver?.label ?? "",
          describeRule: (index) => ruleAt(rules, index),
          approvalRequiredText: "no way to ask (not a terminal): pass --approve yes or --approve no",
          onStep: options.onStep,
        },
      ),
    close() {
      void host.close();
    },
  };
}
