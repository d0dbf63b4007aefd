import { randomUUID } from "node:crypto";
import type { PanelDeclaration, PanelDocument } from "@raw/panel";
import {
  type InteractionRecord,
  type InteractionService,
  type PanelFrame,
  type PanelHost,
  resolveAction,
} from "@raw/panel/host";
import { escapeDisplayText, stringifyForDisplay } from "@raw/schema";
import type { ApprovalRequest, ToolResult } from "@raw/tool-api";
import type { ApprovalView } from "./approval-view.js";
import { type TraceOptions, type TraceStep, traceCall } from "./call-trace.js";
import {
  type HostSession,
  type HostTool,
  openHostSession,
  type SyncHostSessionOptions,
} from "./host-session.js";
import { blockText } from "./trace-text.js";

/** The most calls a board's timeline keeps (older ones are dropped from the state a page reloads). */
export const MAX_BOARD_CALLS = 100;

/** A call as a board's timeline shows it. */
export interface BoardCall {
  readonly id: string;
  readonly tool: string;
  readonly source: "model" | "user_action";
  readonly arguments: unknown;
  /** The arguments as indented JSON with every A1 code point escaped: what a page shows. */
  readonly argumentsText: string;
  status: "queued" | "running" | "done";
  readonly steps: TraceStep[];
  result?: { isError: boolean; code: string | null; text: string; truncated: boolean };
}

/**
 * An approval card: the one approval view of A10 (`describeApproval`, already escaped) laid out as a card, the
 * intended effects first, then the arguments. Only `answerApproval` answers it.
 */
export interface ApprovalCard {
  readonly id: string;
  readonly callId: string;
  readonly tool: string;
  readonly identity: string;
  /** One line per intended effect (`write /abs/path`, `… outside`); `null` when the tool declares no effects. */
  readonly effects: string[] | null;
  readonly arguments: string;
}

/** A pending interaction: which panel shows its form, and the request to answer. */
export interface InteractionCard {
  readonly requestId: string;
  readonly fullId: string;
  readonly view?: string;
  readonly formBlockId: string;
  readonly revision: number;
  readonly deadline: number;
}

/** A panel as a board shows it: its latest committed or live state, and its declaration (for actions). */
export interface BoardPanel {
  readonly fullId: string;
  readonly owner: string;
  readonly panel: string;
  readonly view?: string;
  readonly revision: number;
  readonly document: PanelDocument;
  readonly closed: boolean;
  readonly declaration?: PanelDeclaration;
}

/** A panel as an event carries it: the panel, its key on the board (`fullId` or `fullId@view`), and whether live. */
export interface BoardPanelEvent extends BoardPanel {
  readonly key: string;
  readonly live?: boolean;
}

/** A tool a board offers to call. */
export interface BoardTool {
  readonly name: string;
  readonly identity: string;
  readonly description: string;
  readonly inputSchema: unknown;
}

/** Everything a page needs to draw a board after a (re)connect. */
export interface BoardState {
  /** This board: a page that reconnects and sees another one knows the host restarted. */
  readonly run: string;
  readonly tools: BoardTool[];
  readonly calls: BoardCall[];
  readonly approvals: ApprovalCard[];
  readonly interactions: InteractionCard[];
  readonly panels: BoardPanel[];
}

/** Every event of a board, by type: the data it carries (`hello` is the state a stream starts from). */
export interface BoardEvents {
  hello: BoardState;
  call: BoardCall;
  step: { callId: string; step: TraceStep };
  approval: ApprovalCard;
  "approval-settled": { id: string; approved: boolean };
  interaction: InteractionCard;
  "interaction-settled": { requestId: string; state: string };
  panel: BoardPanelEvent;
  "panel-removed": { key: string };
}

/** One event of a board, typed by its name. */
export type BoardEvent = {
  [K in keyof BoardEvents]: { readonly type: K; readonly data: BoardEvents[K] };
}[keyof BoardEvents];

/** Why a board refused a request: a bad body, an unknown id, a state conflict, or an answer the contract rejected. */
export type BoardRefusal = "invalid" | "unknown" | "conflict" | "rejected";

/** A request a board refused: a stable snake_case `code`, a message, and the kind of refusal (for a status). */
export class BoardRequestError extends Error {
  constructor(
    readonly refusal: BoardRefusal,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "BoardRequestError";
  }
}

/** What a panel action did: a prompt's text, a tool call started (through the whole pipeline), or a form response. */
export type BoardActionResult =
  | { kind: "prompt"; text: string; send: boolean }
  | { kind: "tool"; callId: string }
  | { kind: "response"; response: string };

/** Options of `openSessionBoard`: a host session's (the board answers approvals and interactions itself). */
export interface SessionBoardOptions
  extends Omit<SyncHostSessionOptions, "approve" | "interactionAdapter" | "interactive" | "onPanelFrame"> {
  /** Receives every event in order (a stream to every page). */
  readonly onEvent: (event: BoardEvent) => void;
  /** Called with the panel host after each committed change of its panels (to keep them for the next run). */
  readonly onPanelsChanged?: ((host: PanelHost) => void) | undefined;
  /** How the calls' traces name rules and the approver (default approver label: `the web page`). */
  readonly trace?: Omit<TraceOptions, "onStep"> | undefined;
}

/**
 * A host session driven from a page (`raw serve`, an IDE panel): calls queued and run one at a time with their
 * traces, approvals as cards answered by id, interactions answered through the session's own service, panels
 * mirrored with their declarations, panel actions resolved (a click is never approval). Every change is an event.
 */
export interface SessionBoard {
  /** The host session underneath. */
  readonly session: HostSession<InteractionService>;
  state(): BoardState;
  /** Queues a call (calls run one at a time, in order); returns its id at once. Unknown tool: `tool_unknown`. */
  startCall(tool: unknown, args: unknown, source?: "model" | "user_action"): string;
  /** Resolves once every queued call has finished. */
  idle(): Promise<void>;
  /** Answers an approval card (`approval_unknown`, `approval_invalid`). */
  answerApproval(id: string, approved: unknown): void;
  /** Submits or cancels an interaction (the contract's `submit`, with its codes). */
  answerInteraction(requestId: string, body: unknown): unknown;
  /** Runs a panel action: `{ key, action, block?, item? }`. */
  runAction(body: unknown): BoardActionResult;
  /** Denies pending approvals and closes the session. */
  close(): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resultView(result: ToolResult): NonNullable<BoardCall["result"]> {
  return {
    isError: result.isError,
    code: result.code ?? null,
    text: result.content.map(blockText).join("\n"),
    truncated: result.truncated === true,
  };
}

function interactionCard(record: InteractionRecord): InteractionCard {
  return {
    requestId: record.identity.requestId,
    fullId: `${record.identity.owner}#${record.identity.panelId}`,
    ...(record.identity.viewInstanceId !== undefined ? { view: record.identity.viewInstanceId } : {}),
    formBlockId: record.formBlockId,
    revision: record.revision,
    deadline: record.deadline,
  };
}

/** Opens a board: a host session whose approvals, forms and panels live in a page (see `SessionBoard`). */
export function openSessionBoard(options: SessionBoardOptions): SessionBoard {
  const { onEvent, onPanelsChanged, trace, ...hostOptions } = options;
  const send = (event: BoardEvent): void => onEvent(event);
  const runId = randomUUID();
  const calls: BoardCall[] = [];
  const approvals = new Map<string, ApprovalCard & { resolve(approved: boolean): void }>();
  const panels = new Map<string, BoardPanel>();
  const pending = new Map<string, InteractionCard>();
  const registrations = options.tools.map((tool: HostTool) =>
    "registration" in tool ? tool.registration : tool,
  );
  const nameOf = new Map(registrations.map((r) => [r.identity ?? r.name, r.name]));
  let running: BoardCall | undefined;
  let queue: Promise<void> = Promise.resolve();

  const declarationOf = (owner: string, panel: string): PanelDeclaration | undefined => {
    const name = nameOf.get(owner);
    const declared = name === undefined ? undefined : session.registry.inspectionDefinition(name)?.panels;
    return (declared as readonly PanelDeclaration[] | undefined)?.find((d) => d.id === panel);
  };
  const panelOf = (state: Omit<BoardPanel, "declaration">): BoardPanel => {
    const declaration = declarationOf(state.owner, state.panel);
    return declaration ? { ...state, declaration } : state;
  };

  const onPanelFrame = (frame: PanelFrame): void => {
    const key = frame.view === undefined ? frame.fullId : `${frame.fullId}@${frame.view}`;
    if (frame.type === "remove") {
      panels.delete(key);
      send({ type: "panel-removed", data: { key } });
    } else {
      const view = panelOf({
        fullId: frame.fullId,
        owner: frame.owner,
        panel: frame.panel,
        ...(frame.view !== undefined ? { view: frame.view } : {}),
        revision: frame.revision,
        document: frame.document as PanelDocument,
        closed: frame.closed,
      });
      panels.set(key, view);
      send({ type: "panel", data: { key, live: frame.live, ...view } });
    }
    // Each committed change of the sidebar panels is kept; live frames of a running call are not.
    if (frame.view !== undefined || (frame.type === "update" && frame.live)) return;
    try {
      onPanelsChanged?.(session.panels);
    } catch {
      // Keeping panels for a restart never fails the session.
    }
  };

  const approve = (request: ApprovalRequest, view: ApprovalView): Promise<boolean> =>
    new Promise<boolean>((resolve) => {
      const id = randomUUID();
      const card: ApprovalCard = {
        id,
        callId: running?.id ?? "",
        tool: request.name,
        identity: view.identity,
        effects: view.effects === undefined ? null : view.effects.map((effect) => effect.line),
        arguments: view.arguments,
      };
      const finish = (approved: boolean) => {
        if (!approvals.delete(id)) return;
        send({ type: "approval-settled", data: { id, approved } });
        resolve(approved);
      };
      approvals.set(id, { ...card, resolve: finish });
      request.signal?.addEventListener("abort", () => finish(false), { once: true });
      send({ type: "approval", data: card });
    });

  const session = openHostSession({ ...hostOptions, approve, interactive: true, onPanelFrame });

  // Restored panels are committed state without frames: a page gets them with the board's state.
  for (const state of session.panels.list()) {
    panels.set(
      state.fullId,
      panelOf({
        fullId: state.fullId,
        owner: state.owner,
        panel: state.id,
        revision: state.revision,
        document: state.document as PanelDocument,
        closed: state.closed,
      }),
    );
  }

  const unsubscribe = session.interactions.subscribe((event) => {
    const card = interactionCard(event.request);
    if (event.type === "published") {
      pending.set(card.requestId, card);
      send({ type: "interaction", data: card });
    } else {
      pending.delete(card.requestId);
      send({ type: "interaction-settled", data: { requestId: card.requestId, state: event.request.state } });
    }
  });

  const tools: BoardTool[] = registrations.map((r) => {
    const definition = session.registry.inspectionDefinition(r.name);
    return {
      name: r.name,
      identity: definition?.identity ?? r.identity ?? r.name,
      description: r.description ?? "",
      inputSchema: definition?.inputSchema ?? r.inputSchema,
    };
  });

  const run = async (call: BoardCall): Promise<void> => {
    running = call;
    call.status = "running";
    send({ type: "call", data: call });
    try {
      const traced = await traceCall(
        session,
        { name: call.tool, arguments: call.arguments, toolCallId: call.id },
        {
          approverLabel: "the web page",
          ...trace,
          source: call.source,
          onStep: (step) => {
            // A page shows text as text, but a bidi override or a control character would still deceive the reader.
            const shown = { ...step, text: escapeDisplayText(step.text, { multiline: true }) };
            call.steps.push(shown);
            send({ type: "step", data: { callId: call.id, step: shown } });
          },
        },
      );
      call.result = resultView(traced.result);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      call.result = { isError: true, code: "internal_error", text, truncated: false };
    }
    call.status = "done";
    running = undefined;
    send({ type: "call", data: call });
  };

  const board: SessionBoard = {
    session,
    state: () => ({
      run: runId,
      tools,
      calls: [...calls],
      approvals: [...approvals.values()].map(({ resolve: _resolve, ...card }) => card),
      interactions: [...pending.values()],
      panels: [...panels.values()],
    }),
    startCall(tool, args, source = "model") {
      if (typeof tool !== "string" || !tools.some((t) => t.name === tool)) {
        const names = tools.map((t) => t.name).join(", ");
        throw new BoardRequestError(
          "unknown",
          "tool_unknown",
          `no tool named ${stringifyForDisplay(tool)}; choose one of ${names}`,
        );
      }
      const call: BoardCall = {
        id: `web-${randomUUID()}`,
        tool,
        source,
        arguments: args,
        argumentsText: stringifyForDisplay(args, 2),
        status: "queued",
        steps: [],
      };
      calls.push(call);
      if (calls.length > MAX_BOARD_CALLS) calls.splice(0, calls.length - MAX_BOARD_CALLS);
      send({ type: "call", data: call });
      queue = queue.then(() => run(call));
      return call.id;
    },
    idle: () => queue,
    answerApproval(id, approved) {
      const card = approvals.get(id);
      if (!card) {
        const message = "no pending approval with that id (it was answered or expired)";
        throw new BoardRequestError("unknown", "approval_unknown", message);
      }
      if (typeof approved !== "boolean")
        throw new BoardRequestError("invalid", "approval_invalid", "approved must be true or false");
      card.resolve(approved);
    },
    answerInteraction(requestId, body) {
      if (!isRecord(body))
        throw new BoardRequestError("invalid", "submission_invalid", "the body must be a JSON object");
      if (!pending.has(requestId) && session.interactions.get(requestId) === undefined)
        throw new BoardRequestError("unknown", "interaction_unknown", "no interaction with that id");
      try {
        return session.interactions.submit({ ...body, requestId });
      } catch (error) {
        const coded = error as { code?: unknown; message?: unknown };
        if (typeof coded.code !== "string" || typeof coded.message !== "string") throw error;
        const refusal = coded.code === "interaction_conflict" ? "conflict" : "rejected";
        throw new BoardRequestError(refusal, coded.code, coded.message);
      }
    },
    runAction(body) {
      if (!isRecord(body) || typeof body.key !== "string" || typeof body.action !== "string")
        throw new BoardRequestError("invalid", "action_invalid", "send { key, action, block?, item? }");
      const panel = panels.get(body.key);
      if (!panel?.declaration)
        throw new BoardRequestError("unknown", "panel_unknown", "no such panel, or it offers no actions");
      const toolName = nameOf.get(panel.owner);
      const resolved = resolveAction(
        panel.declaration,
        panel.document,
        {
          action: body.action,
          ...(typeof body.block === "string" ? { block: body.block } : {}),
          ...(typeof body.item === "string" ? { item: body.item } : {}),
        },
        toolName === undefined ? {} : { toolName },
      );
      if (!resolved.ok) {
        const issue = resolved.issues[0];
        throw new BoardRequestError(
          "rejected",
          issue?.code ?? "invalid_action",
          issue?.message ?? "invalid action",
        );
      }
      if (resolved.kind === "prompt") return { kind: "prompt", text: resolved.text, send: resolved.send };
      if (resolved.kind === "tool") {
        if (toolName === undefined)
          throw new BoardRequestError("unknown", "tool_unknown", "the panel's tool is not loaded");
        // A click is never approval: the call goes through policy, hooks and approval like any other.
        return { kind: "tool", callId: board.startCall(toolName, resolved.arguments, "user_action") };
      }
      const card = [...pending.values()].find((i) => i.fullId === panel.fullId);
      if (!card)
        throw new BoardRequestError("conflict", "interaction_unknown", "this panel has no pending question");
      if (resolved.response === "cancel") {
        board.answerInteraction(card.requestId, {
          response: "cancel",
          expectedRevision: card.revision,
          idempotencyKey: randomUUID(),
        });
      }
      return { kind: "response", response: resolved.response };
    },
    close() {
      unsubscribe();
      for (const card of approvals.values()) card.resolve(false);
      void session.close();
    },
  };
  return board;
}
