import { randomUUID } from "node:crypto";
import type { LoadedHook } from "@raw/hook-protocol";
import type { ApprovalView as HostApprovalView } from "@raw/host";
import type { PanelDeclaration, PanelDocument } from "@raw/panel";
import type {
  InteractionRecord,
  PanelFrame,
  PanelHost,
  PanelState,
  SyncInteractionStore,
} from "@raw/panel/host";
import { resolveAction } from "@raw/panel/host";
import { stringifyForDisplay } from "@raw/schema";
import type { ApprovalRequest, LoadedTool, ToolResult } from "@raw/tool-api";
import type { RulesInput } from "../support/inputs.js";
import { blockText, displayBlock } from "../support/present.js";
import { openSession, type Session } from "../support/session.js";
import type { EventHub } from "./events.js";
import type { ApprovalView, CallView, InteractionView, PanelView, ToolView, WebState } from "./wire.js";

export type { ApprovalView, CallView, InteractionView, PanelView, ToolView, WebState } from "./wire.js";

/** The most calls the page's timeline keeps (older ones are dropped from the state a page reloads). */
export const MAX_TIMELINE_CALLS = 100;

/** A failure of a page request: an HTTP status, a code and a message. */
export class WebRequestError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 422,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Options of `openWebSession`. */
export interface WebSessionOptions {
  readonly cwd: string;
  readonly tools: readonly LoadedTool[];
  readonly rules?: RulesInput | undefined;
  readonly hooks?: readonly LoadedHook[] | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Where interaction requests live (`raw serve --state`); default in memory. */
  readonly interactionStore?: SyncInteractionStore | undefined;
  /** Committed sidebar panels to start from (`raw serve --state` after a restart). */
  readonly restorePanels?: readonly PanelState[] | undefined;
  /** Called with the panel host after each committed change of its panels (to keep them for the next run). */
  readonly onPanelsChanged?: ((host: PanelHost) => void) | undefined;
}

/** The session behind `raw serve`: calls, approvals, interactions and panels, pushed to every page. */
export interface WebSession {
  state(): WebState;
  /** Queues a call (calls run one at a time, in order); resolves to its id at once. */
  startCall(tool: unknown, args: unknown, source?: "model" | "user_action"): string;
  /** Resolves once every queued call has finished. */
  idle(): Promise<void>;
  /** Answers an approval card. */
  answerApproval(id: string, approved: unknown): void;
  /** Submits or cancels an interaction (the contract's `submit`, with its codes). */
  answerInteraction(requestId: string, body: unknown): unknown;
  /** Runs a panel action: a prompt's text, a tool call (through the whole pipeline), or a form response. */
  runAction(
    body: unknown,
  ):
    | { kind: "prompt"; text: string; send: boolean }
    | { kind: "tool"; callId: string }
    | { kind: "response"; response: string };
  close(): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resultView(result: ToolResult): NonNullable<CallView["result"]> {
  return {
    isError: result.isError,
    code: result.code ?? null,
    text: result.content.map(blockText).join("\n"),
    truncated: result.truncated === true,
  };
}

/** Opens the web session: a real reference session whose approvals, forms and panels live in the page. */
export async function openWebSession(options: WebSessionOptions, hub: EventHub): Promise<WebSession> {
  const runId = randomUUID();
  const calls: CallView[] = [];
  const approvals = new Map<string, ApprovalView & { resolve(approved: boolean): void }>();
  const panels = new Map<string, PanelView>();
  let running: CallView | undefined;
  let queue: Promise<void> = Promise.resolve();

  const declarationOf = (owner: string, panel: string): PanelDeclaration | undefined => {
    const tool = options.tools.find((t) => t.identity === owner);
    const declared = tool ? session.registry.inspectionDefinition(tool.registration.name)?.panels : undefined;
    return (declared as readonly PanelDeclaration[] | undefined)?.find((d) => d.id === panel);
  };

  // Each committed change of the sidebar panels is kept (`--state`); live frames of a running call are not.
  const panelsChanged = (frame: PanelFrame) => {
    if (frame.view !== undefined || (frame.type === "update" && frame.live)) return;
    try {
      options.onPanelsChanged?.(session.panels);
    } catch {
      // Keeping panels for a restart never fails the session.
    }
  };

  const onPanelFrame = (frame: PanelFrame) => {
    const key = frame.view === undefined ? frame.fullId : `${frame.fullId}@${frame.view}`;
    if (frame.type === "remove") {
      panels.delete(key);
      hub.send({ type: "panel-removed", data: { key } });
      panelsChanged(frame);
      return;
    }
    const declaration = declarationOf(frame.owner, frame.panel);
    const view: PanelView = {
      fullId: frame.fullId,
      owner: frame.owner,
      panel: frame.panel,
      ...(frame.view !== undefined ? { view: frame.view } : {}),
      revision: frame.revision,
      document: frame.document as PanelDocument,
      closed: frame.closed,
      ...(declaration ? { declaration } : {}),
    };
    panels.set(key, view);
    hub.send({ type: "panel", data: { key, live: frame.live, ...view } });
    panelsChanged(frame);
  };

  const approve = (request: ApprovalRequest, view: HostApprovalView): Promise<boolean> =>
    new Promise<boolean>((resolve) => {
      const id = randomUUID();
      const card = {
        id,
        callId: running?.id ?? "",
        tool: request.name,
        identity: view.identity,
        effects: view.effects === undefined ? null : view.effects.map((effect) => effect.line),
        arguments: view.arguments,
      };
      const finish = (approved: boolean) => {
        if (!approvals.delete(id)) return;
        hub.send({ type: "approval-settled", data: { id, approved } });
        resolve(approved);
      };
      approvals.set(id, { ...card, resolve: finish });
      request.signal?.addEventListener("abort", () => finish(false), { once: true });
      hub.send({ type: "approval", data: card });
    });

  const session: Session = await openSession({
    cwd: options.cwd,
    tools: options.tools,
    rules: options.rules,
    hooks: options.hooks,
    env: options.env,
    approver: { label: "the web page", approve },
    interactive: true,
    interactionStore: options.interactionStore,
    restorePanels: options.restorePanels,
    onPanelFrame,
    onStep: (step) => {
      if (!running) return;
      // The page shows text as text, but a bidi override or a control character would still deceive the reader.
      const shown = { ...step, text: displayBlock(step.text) };
      running.steps.push(shown);
      hub.send({ type: "step", data: { callId: running.id, step: shown } });
    },
  });

  // Restored panels are committed state without frames: the page gets them with the session's state.
  for (const state of session.panels.list()) {
    const declaration = declarationOf(state.owner, state.id);
    panels.set(state.fullId, {
      fullId: state.fullId,
      owner: state.owner,
      panel: state.id,
      revision: state.revision,
      document: state.document as PanelDocument,
      closed: state.closed,
      ...(declaration ? { declaration } : {}),
    });
  }

  const interactionView = (record: InteractionRecord): InteractionView => ({
    requestId: record.identity.requestId,
    fullId: `${record.identity.owner}#${record.identity.panelId}`,
    ...(record.identity.viewInstanceId !== undefined ? { view: record.identity.viewInstanceId } : {}),
    formBlockId: record.formBlockId,
    revision: record.revision,
    deadline: record.deadline,
  });
  const pendingInteractions = new Map<string, InteractionView>();
  const unsubscribe = session.interactions.subscribe((event) => {
    const view = interactionView(event.request);
    if (event.type === "published") {
      pendingInteractions.set(view.requestId, view);
      hub.send({ type: "interaction", data: view });
    } else {
      pendingInteractions.delete(view.requestId);
      hub.send({
        type: "interaction-settled",
        data: { requestId: view.requestId, state: event.request.state },
      });
    }
  });

  const tools: ToolView[] = options.tools.map((tool) => {
    const definition = session.registry.inspectionDefinition(tool.registration.name);
    return {
      name: tool.registration.name,
      identity: tool.identity,
      description: tool.registration.description ?? "",
      inputSchema: definition?.inputSchema ?? tool.registration.inputSchema,
    };
  });

  const run = async (call: CallView): Promise<void> => {
    running = call;
    call.status = "running";
    hub.send({ type: "call", data: call });
    try {
      const trace = await session.call(call.tool, call.arguments, {
        source: call.source,
        toolCallId: call.id,
      });
      call.result = resultView(trace.result);
    } catch (error) {
      call.result = {
        isError: true,
        code: "internal_error",
        text: error instanceof Error ? error.message : String(error),
        truncated: false,
      };
    }
    call.status = "done";
    running = undefined;
    hub.send({ type: "call", data: call });
  };

  const web: WebSession = {
    state: () => ({
      run: runId,
      tools,
      calls: [...calls],
      approvals: [...approvals.values()].map(({ resolve: _resolve, ...card }) => card),
      interactions: [...pendingInteractions.values()],
      panels: [...panels.values()],
    }),
    startCall(tool, args, source = "model") {
      if (typeof tool !== "string" || !tools.some((t) => t.name === tool)) {
        throw new WebRequestError(
          404,
          "tool_unknown",
          `no tool named ${stringifyForDisplay(tool)}; choose one of ${tools.map((t) => t.name).join(", ")}`,
        );
      }
      const call: CallView = {
        id: `web-${randomUUID()}`,
        tool,
        source,
        arguments: args,
        argumentsText: stringifyForDisplay(args, 2),
        status: "queued",
        steps: [],
      };
      calls.push(call);
      if (calls.length > MAX_TIMELINE_CALLS) calls.splice(0, calls.length - MAX_TIMELINE_CALLS);
      hub.send({ type: "call", data: call });
      queue = queue.then(() => run(call));
      return call.id;
    },
    idle: () => queue,
    answerApproval(id, approved) {
      const card = approvals.get(id);
      if (!card)
        throw new WebRequestError(
          404,
          "approval_unknown",
          "no pending approval with that id (it was answered or expired)",
        );
      if (typeof approved !== "boolean")
        throw new WebRequestError(400, "approval_invalid", "approved must be true or false");
      card.resolve(approved);
    },
    answerInteraction(requestId, body) {
      if (!isRecord(body))
        throw new WebRequestError(400, "submission_invalid", "the body must be a JSON object");
      if (!pendingInteractions.has(requestId) && session.interactions.get(requestId) === undefined) {
        throw new WebRequestError(404, "interaction_unknown", "no interaction with that id");
      }
      try {
        return session.interactions.submit({ ...body, requestId });
      } catch (error) {
        const coded = error as { code?: unknown; message?: unknown };
        if (typeof coded.code === "string" && typeof coded.message === "string") {
          throw new WebRequestError(
            coded.code === "interaction_conflict" ? 409 : 422,
            coded.code,
            coded.message,
          );
        }
        throw error;
      }
    },
    runAction(body) {
      if (!isRecord(body) || typeof body.key !== "string" || typeof body.action !== "string") {
        throw new WebRequestError(400, "action_invalid", "send { key, action, block?, item? }");
      }
      const panel = panels.get(body.key);
      if (!panel?.declaration)
        throw new WebRequestError(404, "panel_unknown", "no such panel, or it offers no actions");
      const tool = options.tools.find((t) => t.identity === panel.owner);
      const resolved = resolveAction(
        panel.declaration,
        panel.document,
        {
          action: body.action,
          ...(typeof body.block === "string" ? { block: body.block } : {}),
          ...(typeof body.item === "string" ? { item: body.item } : {}),
        },
        tool ? { toolName: tool.registration.name } : {},
      );
      if (!resolved.ok) {
        throw new WebRequestError(
          422,
          resolved.issues[0]?.code ?? "invalid_action",
          resolved.issues[0]?.message ?? "invalid action",
        );
      }
      if (resolved.kind === "prompt") return { kind: "prompt", text: resolved.text, send: resolved.send };
      if (resolved.kind === "tool") {
        if (!tool) throw new WebRequestError(404, "tool_unknown", "the panel's tool is not loaded");
        // A click is never approval: the call goes through policy, hooks and approval like any other.
        return {
          kind: "tool",
          callId: web.startCall(tool.registration.name, resolved.arguments, "user_action"),
        };
      }
      const pending = [...pendingInteractions.values()].find((i) => i.fullId === panel.fullId);
      if (!pending)
        throw new WebRequestError(409, "interaction_unknown", "this panel has no pending question");
      if (resolved.response === "cancel") {
        web.answerInteraction(pending.requestId, {
          response: "cancel",
          expectedRevision: pending.revision,
          idempotencyKey: randomUUID(),
        });
      }
      return { kind: "response", response: resolved.response };
    },
    close() {
      unsubscribe();
      for (const card of approvals.values()) card.resolve(false);
      session.close();
    },
  };
  return web;
}
