import type { PreparedForm } from "./forms.js";
import type { PanelDeclaration, PanelDocument } from "./types.js";

/** The life of an interaction request: `pending` until exactly one terminal state (`panels.md` §13.3). */
export type InteractionState = "pending" | "answered" | "cancelled" | "expired" | "interrupted";

/** The terminal states of an interaction request. */
export type InteractionTerminalState = Exclude<InteractionState, "pending">;

/** Who a request belongs to; bindings always come from here, never from a client (`panels.md` §13.2 step 9). */
export interface InteractionIdentity {
  readonly sessionId?: string;
  readonly operationId?: string;
  readonly runId: string;
  readonly toolCallId?: string;
  readonly owner: string;
  readonly panelId: string;
  /** A UUID. */
  readonly requestId: string;
  /** The chat view instance the request is shown in, for a `chat` panel. */
  readonly viewInstanceId?: string;
}

/** A stored interaction request (`panels.md` §13.2 step 9), with its settlement once terminal. */
export interface InteractionRecord {
  readonly identity: InteractionIdentity;
  readonly declaration: PanelDeclaration;
  readonly document: PanelDocument;
  readonly formBlockId: string;
  /** The form with its effective limits (`panels.md` §11.2). */
  readonly form: PreparedForm;
  /** 1 while pending, 2 once settled. */
  readonly revision: number;
  readonly state: InteractionState;
  readonly createdAt: number;
  readonly deadline: number;
  /** The exact canonical result JSON, once terminal. */
  readonly canonicalResult?: string;
  /** The idempotency key of the submission that settled the request. */
  readonly idempotencyKey?: string;
  /** The body fingerprint (key-sorted JSON) of the submission that settled the request. */
  readonly fingerprint?: string;
}

/** What a settled (or replayed) submission returns (`panels.md` §13.4 step 7). */
export interface InteractionAcknowledgement {
  requestId: string;
  revision: number;
  state: InteractionState;
  /** The exact accepted JSON string (answered only). */
  canonicalResult?: string;
}

/** The compare-and-swap of `InteractionStore.settle`. */
export interface InteractionSettle {
  /** The settle succeeds only while the stored revision equals this. */
  expectedRevision: number;
  /** The terminal state to store. */
  state: InteractionTerminalState;
  /** The canonical result JSON of that state. */
  canonicalResult: string;
  /** The submission's key; a settle with a recorded key replays or conflicts. */
  idempotencyKey?: string;
  /** The submission's body fingerprint. */
  fingerprint?: string;
  /** When set (submissions), the settle succeeds only if this time is before the record's deadline. */
  beforeDeadline?: number;
}
