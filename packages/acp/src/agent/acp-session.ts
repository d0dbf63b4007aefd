import type { ApprovalView, HostDispatch, HostSession } from "@raw/host";
import type { InteractionAdapter, InteractionRecord, InteractionRetry, PanelFrame } from "@raw/panel/host";
import { escapeDisplayText } from "@raw/schema";
import { type ApprovalRequest, selectAcpPlan } from "@raw/tool-api";
import { MAX_INTERACTION_ATTEMPTS } from "../limits.js";
import { elicitationFormOf, interactionMessageOf, submissionOf } from "../mapping/elicitation.js";
import { approvalContent, decidePermission, PERMISSION_OPTIONS } from "../mapping/permission.js";
import { planEntriesOf } from "../mapping/plan.js";
import { locationsOf, toolKindOf } from "../mapping/tool-kind.js";
import { resultContent } from "../mapping/tool-result.js";
import { ACP_APPROVAL_TIMEOUT_MS } from "./approval-timeout.js";
import type { AcpClientFeatures } from "./capabilities.js";
import { createSessionGrants } from "./grants.js";

/** What the binding needs of the client side of a connection: requests and notifications. */
export interface AcpClientPort {
  request(
    method: string,
    params: unknown,
    options?: { cancellationSignal?: AbortSignal; stopWaitingOnCancel?: boolean },
  ): Promise<unknown>;
  notify(method: string, params: unknown): Promise<void>;
}

/** One call as this binding tracks it. */
interface CallState {
  readonly toolCallId: string;
  readonly name: string;
  readonly args: unknown;
  readonly controller: AbortController;
  identity: string | undefined;
  ruleIndex: number | null | undefined;
  effects: unknown;
  announced: boolean;
}

/** The per-session wiring that the session factory puts into `openHostSession`. */
export interface AcpSessionWiring {
  /** The approval callback: remembered `*_always` answers, else `session/request_permission`. */
  readonly approve: (request: ApprovalRequest, view: ApprovalView) => Promise<boolean>;
  /** Interactions as elicitation (or `_raw/interaction/request`); `undefined` when the client can take neither. */
  readonly interactionAdapter: InteractionAdapter | undefined;
}

/**
 * One ACP session: its host session, its remembered answers, the current turn, and the reporting of each call as
 * `tool_call` / `tool_call_update`, of plans, hook receipts and panel updates.
 */
export class AcpSessionState {
  readonly sessionId: string;
  readonly cwd: string;
  readonly features: AcpClientFeatures;
  readonly grants = createSessionGrants();
  readonly wiring: AcpSessionWiring;
  host: HostSession | undefined;
  /** The one panel (`<owner>#<id>`) mirrored as the ACP plan, if any. */
  planMirror: string | undefined;
  private readonly client: AcpClientPort;
  private readonly calls = new Map<string, CallState>();
  private turn: AbortController | undefined;
  private counter = 0;
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;

  /** How long a permission request may stay unanswered before it is withdrawn and the call denied (ms). */
  private readonly approvalTimeoutMs: number;

  constructor(
    sessionId: string,
    cwd: string,
    features: AcpClientFeatures,
    client: AcpClientPort,
    approvalTimeoutMs: number = ACP_APPROVAL_TIMEOUT_MS,
  ) {
    this.approvalTimeoutMs = approvalTimeoutMs;
    this.sessionId = sessionId;
    this.cwd = cwd;
    this.features = features;
    this.client = client;
    const canAsk = features.elicitationForm || features.interactions;
    this.wiring = {
      approve: (request, view) => this.approve(request, view),
      interactionAdapter: canAsk ? (record, signal, retry) => this.ask(record, signal, retry) : undefined,
    };
  }

  /** Binds the opened host session: picks the plan mirror (`panels.md` §2.5) and follows committed panel frames. */
  attach(host: HostSession): void {
    this.host = host;
    const candidates = host.definitions().map((definition) => {
      const inspection = host.registry.inspectionDefinition(definition.name);
      return { identity: inspection?.identity ?? definition.name, panels: inspection?.panels };
    });
    this.planMirror = selectAcpPlan(candidates).mirror;
    this.unsubscribe = host.panels.subscribe((frame) => this.onFrame(frame));
  }

  /** Sends a `session/update` in order after every update sent before it; a failed send is dropped. */
  update(update: Record<string, unknown>): Promise<void> {
    const next = this.queue.then(() =>
      this.client.notify("session/update", { sessionId: this.sessionId, update }).catch(() => undefined),
    );
    this.queue = next;
    return next;
  }

  /** Sends any notification in order with the session's updates. */
  private notifyInOrder(method: string, params: unknown): Promise<void> {
    const next = this.queue.then(() => this.client.notify(method, params).catch(() => undefined));
    this.queue = next;
    return next;
  }

  /** Starts a turn: its signal is aborted by `session/cancel`, by the request's own signal, or by `close`. */
  beginTurn(requestSignal: AbortSignal): AbortController {
    this.turn?.abort();
    const controller = new AbortController();
    if (requestSignal.aborted) controller.abort();
    else requestSignal.addEventListener("abort", () => controller.abort(), { once: true });
    this.turn = controller;
    return controller;
  }

  /** Ends a turn; its signal stays as it was. */
  endTurn(controller: AbortController): void {
    if (this.turn === controller) this.turn = undefined;
  }

  /** `session/cancel`: aborts the turn, which withdraws every pending permission and elicitation request. */
  cancel(): void {
    this.turn?.abort();
  }

  /** Closes the session: the turn is aborted and the host session closed (pending interactions end). */
  async close(): Promise<void> {
    this.turn?.abort();
    this.closed.abort();
    this.unsubscribe?.();
    await this.host?.close();
  }

  /** A call id for the next call of this session (`raw-<n>`). */
  nextCallId(): string {
    return `raw-${++this.counter}`;
  }

  /** True while a turn runs or a panel action's call has not ended (`_raw/panel/action` answers busy then). */
  get busy(): boolean {
    return this.turn !== undefined || this.actions > 0;
  }

  /** Aborted when the session closes (ends the calls of panel actions). */
  readonly closed = new AbortController();

  /** Panel actions whose call is running. */
  actions = 0;

  /** The pending interaction request shown in each panel (`<owner>#<id>`), for a `cancel` response action. */
  readonly pendingInteractions = new Map<
    string,
    {
      requestId: string;
      revision: number;
      view: string | undefined;
      declaration: InteractionRecord["declaration"];
      document: InteractionRecord["document"];
    }
  >();

  /**
   * Runs one call through the host session, reporting it as `tool_call` / `tool_call_update`. `options.source` is
   * `user_action` for a panel action (whose operation id is then the call id).
   */
  async call(
    name: string,
    args: unknown,
    signal: AbortSignal,
    options: { source?: "model" | "user_action"; toolCallId?: string } = {},
  ): Promise<HostDispatch> {
    const host = this.host as HostSession;
    const toolCallId = options.toolCallId ?? this.nextCallId();
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    if (signal.aborted) controller.abort();
    else signal.addEventListener("abort", onAbort, { once: true });
    const state: CallState = {
      toolCallId,
      name,
      args,
      controller,
      identity: undefined,
      ruleIndex: undefined,
      effects: undefined,
      announced: false,
    };
    this.calls.set(toolCallId, state);
    try {
      const dispatched = await host.dispatch(
        { name, arguments: args, toolCallId },
        {
          signal: controller.signal,
          ...(options.source === undefined ? {} : { source: options.source }),
          onStep: (event) => {
            if (event.type === "hook") {
              const { receipt } = event;
              const text = `${receipt.event}: ${receipt.outcome}${receipt.message ? ` (${receipt.message})` : ""}`;
              void this.update({
                sessionUpdate: "agent_thought_chunk",
                content: { type: "text", text: escapeDisplayText(text, { multiline: true }) },
              });
              return;
            }
            const step = event.step;
            if (step.step === "exposure" && step.identity !== undefined) state.identity = step.identity;
            if (step.step === "policy") state.ruleIndex = step.ruleIndex;
            if (step.step === "effects" && step.status !== "failed") {
              state.effects = step.effects;
              this.announce(state, "pending");
            }
            if (step.step === "handler" && step.status === "started") {
              void this.update({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
            }
          },
        },
      );
      const result = dispatched.result;
      if (!state.announced)
        this.announce(state, result.isError ? "failed" : "completed", resultContent(result));
      else {
        void this.update({
          sessionUpdate: "tool_call_update",
          toolCallId,
          status: result.isError ? "failed" : "completed",
          content: resultContent(result),
          rawOutput: { isError: result.isError, ...(result.code ? { code: result.code } : {}) },
        });
      }
      await this.queue;
      return dispatched;
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.calls.delete(toolCallId);
    }
  }

  /** The first report of a call: `tool_call` with title, kind, locations and `rawInput`. */
  private announce(state: CallState, status: "pending" | "completed" | "failed", content?: unknown[]): void {
    state.announced = true;
    void this.update({
      sessionUpdate: "tool_call",
      toolCallId: state.toolCallId,
      title: escapeDisplayText(state.identity ?? state.name),
      kind: toolKindOf(state.effects),
      status,
      locations: locationsOf(state.effects, this.cwd),
      rawInput: state.args,
      ...(content === undefined ? {} : { content }),
    });
  }

  /**
   * The approval of amendment A12: a remembered `*_always` answer for this identity and rule decides at once;
   * otherwise `session/request_permission` with the four options and the approval view as content. `cancelled`
   * (or the turn's cancel) aborts the call (`aborted`); an unknown option id rejects it.
   */
  private async approve(request: ApprovalRequest, view: ApprovalView): Promise<boolean> {
    const state = request.toolCallId === undefined ? undefined : this.calls.get(request.toolCallId);
    const remembered = this.grants.lookup(request.identity, state?.ruleIndex);
    if (remembered !== undefined) return remembered;
    const signal = state?.controller.signal ?? this.turn?.signal;
    if (signal?.aborted) return false;
    await this.queue;
    // Unanswered past the approval timeout: the request is withdrawn ($/cancel_request) and the call denied.
    const expiry = new AbortController();
    const timer = setTimeout(() => expiry.abort(), this.approvalTimeoutMs);
    const cancellationSignal =
      signal === undefined ? expiry.signal : AbortSignal.any([signal, expiry.signal]);
    let response: unknown;
    try {
      response = await this.client.request(
        "session/request_permission",
        {
          sessionId: this.sessionId,
          toolCall: {
            toolCallId: request.toolCallId ?? state?.toolCallId ?? "raw-approval",
            title: escapeDisplayText(request.identity),
            kind: toolKindOf(request.effects),
            status: "pending",
            locations: locationsOf(request.effects, this.cwd),
            rawInput: request.arguments,
            content: approvalContent(view),
          },
          options: PERMISSION_OPTIONS,
        },
        { cancellationSignal, stopWaitingOnCancel: true },
      );
    } catch {
      // Expired: denied (`approval_denied`). Withdrawn (cancel), the client went away, or an error answer: the call
      // is aborted. Either way it never runs.
      if (!(expiry.signal.aborted && signal?.aborted !== true)) state?.controller.abort();
      return false;
    } finally {
      clearTimeout(timer);
    }
    if (signal?.aborted) return false;
    const decision = decidePermission(response);
    if (decision.reason === "cancelled") {
      state?.controller.abort();
      return false;
    }
    if (decision.always) this.grants.remember(request.identity, state?.ruleIndex, decision.approved);
    return decision.approved;
  }

  /**
   * The interaction adapter (amendment A12): `elicitation/create` in form mode when the client advertised
   * `elicitation.form`, else `_raw/interaction/request`. The answer goes to the interaction service as it came; an
   * answer it refuses is asked again with the refusal's code (at most `MAX_INTERACTION_ATTEMPTS` times, then the
   * request is cancelled).
   */
  private async ask(record: InteractionRecord, signal: AbortSignal, retry?: InteractionRetry) {
    const attempt = retry === undefined ? 1 : (this.attempts.get(record.identity.requestId) ?? 1) + 1;
    this.attempts.set(record.identity.requestId, attempt);
    if (attempt > MAX_INTERACTION_ATTEMPTS) throw new Error("interaction_invalid: too many refused answers");
    const turnSignal = this.turn?.signal;
    const cancellationSignal = turnSignal ? AbortSignal.any([signal, turnSignal]) : signal;
    const toolCallId = record.identity.toolCallId;
    let answer: unknown;
    const fullId = `${record.identity.owner}#${record.identity.panelId}`;
    this.pendingInteractions.set(fullId, {
      requestId: record.identity.requestId,
      revision: record.revision,
      view: record.identity.viewInstanceId,
      declaration: record.declaration,
      document: record.document,
    });
    await this.queue;
    try {
      if (this.features.elicitationForm) {
        answer = await this.client.request(
          "elicitation/create",
          {
            mode: "form",
            sessionId: this.sessionId,
            ...(toolCallId === undefined ? {} : { toolCallId }),
            message: interactionMessageOf(record, retry),
            requestedSchema: elicitationFormOf(record),
          },
          { cancellationSignal, stopWaitingOnCancel: true },
        );
      } else {
        answer = await this.client.request(
          "_raw/interaction/request",
          {
            sessionId: this.sessionId,
            ...(toolCallId === undefined ? {} : { toolCallId }),
            requestId: record.identity.requestId,
            owner: record.identity.owner,
            panel: record.identity.panelId,
            message: interactionMessageOf(record, retry),
            document: record.document,
            ...(retry === undefined ? {} : { error: retry.error }),
          },
          { cancellationSignal, stopWaitingOnCancel: true },
        );
        answer = rawAnswer(answer);
      }
    } finally {
      if (this.pendingInteractions.get(fullId)?.requestId === record.identity.requestId) {
        this.pendingInteractions.delete(fullId);
      }
      if (cancellationSignal.aborted) this.attempts.delete(record.identity.requestId);
    }
    return submissionOf(record, answer, attempt);
  }

  private readonly attempts = new Map<string, number>();

  /** A committed panel frame: the plan mirror as `plan`, and with `_raw/panels` every change as `_raw/panel/update`. */
  private onFrame(frame: PanelFrame): void {
    if (frame.live) return;
    if (this.features.panels) {
      const state = frame.type === "update" ? this.host?.panels.get(frame.fullId) : undefined;
      void this.notifyInOrder("_raw/panel/update", {
        sessionId: this.sessionId,
        panel: frame.panel,
        owner: frame.owner,
        revision: frame.type === "update" ? frame.revision : null,
        closed: frame.type === "update" ? frame.closed : true,
        declaration: state?.declaration ?? null,
        document: frame.type === "update" ? frame.document : null,
        ...(frame.view === undefined ? {} : { view: frame.view }),
      });
    }
    if (frame.type !== "update" || frame.view !== undefined || frame.fullId !== this.planMirror) return;
    const entries = planEntriesOf(frame.document);
    if (entries !== undefined) void this.update({ sessionUpdate: "plan", entries });
  }
}

function rawAnswer(answer: unknown): unknown {
  const value = answer as { response?: unknown; answers?: unknown } | null;
  if (value !== null && typeof value === "object" && value.response === "submit") {
    return { action: "accept", content: value.answers };
  }
  return { action: "cancel" };
}
