/**
 * The wire of `raw serve`: every message its server sends the page (the `hello` state and each event of the
 * stream), declared once. The server (`web-session.ts`, `events.ts`) and the page (`web/app.ts`) both import these
 * types; the module holds types only, so the page's bundle gains no code and never reaches `node:` modules.
 */
import type { PanelDeclaration, PanelDocument } from "@raw/panel";

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

/** A call as the page's timeline shows it. */
export interface CallView {
  readonly id: string;
  readonly tool: string;
  readonly source: "model" | "user_action";
  readonly arguments: unknown;
  /** The arguments as indented JSON with every A1 code point escaped: what the page shows. */
  readonly argumentsText: string;
  status: "queued" | "running" | "done";
  readonly steps: TraceStep[];
  result?: { isError: boolean; code: string | null; text: string; truncated: boolean };
}

/**
 * An approval card: the one approval view of A10 (`describeApproval`, already escaped) laid out as a card, the
 * intended effects first, then the arguments. Only its buttons answer it.
 */
export interface ApprovalView {
  readonly id: string;
  readonly callId: string;
  readonly tool: string;
  readonly identity: string;
  /** One line per intended effect (`write /abs/path`, `… outside`); `null` when the tool declares no effects. */
  readonly effects: string[] | null;
  readonly arguments: string;
}

/** A pending interaction: which panel shows its form, and the request to answer. */
export interface InteractionView {
  readonly requestId: string;
  readonly fullId: string;
  readonly view?: string;
  readonly formBlockId: string;
  readonly revision: number;
  readonly deadline: number;
}

/** A panel as the page shows it: its latest committed or live state, and its declaration (for actions). */
export interface PanelView {
  readonly fullId: string;
  readonly owner: string;
  readonly panel: string;
  readonly view?: string;
  readonly revision: number;
  readonly document: PanelDocument;
  readonly closed: boolean;
  readonly declaration?: PanelDeclaration;
}

/** A panel as the stream sends it: the view, its key on the page (`fullId` or `fullId@view`), and whether live. */
export interface PanelEventData extends PanelView {
  readonly key: string;
  readonly live?: boolean;
}

/** A tool the composer offers. */
export interface ToolView {
  readonly name: string;
  readonly identity: string;
  readonly description: string;
  readonly inputSchema: unknown;
}

/** Everything a page needs to draw itself after a (re)connect. */
export interface WebState {
  /** This run of the server: a page that reconnects and sees another one knows the server restarted. */
  readonly run: string;
  readonly tools: ToolView[];
  readonly calls: CallView[];
  readonly approvals: ApprovalView[];
  readonly interactions: InteractionView[];
  readonly panels: PanelView[];
}

/** Every event of the page's stream, by type: the data it carries. */
export interface WireEvents {
  hello: WebState;
  call: CallView;
  step: { callId: string; step: TraceStep };
  approval: ApprovalView;
  "approval-settled": { id: string; approved: boolean };
  interaction: InteractionView;
  "interaction-settled": { requestId: string; state: string };
  panel: PanelEventData;
  "panel-removed": { key: string };
}

/** One event of the stream, typed by its name. */
export type WireEvent = {
  [K in keyof WireEvents]: { readonly type: K; readonly data: WireEvents[K] };
}[keyof WireEvents];
