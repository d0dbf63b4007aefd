import type { PanelDocument } from "@raw/panel";
import { validatePanelDocument } from "@raw/panel";

/**
 * A live frame as the panel host emits it (`panels.md` §7.6), received from an untrusted channel: either a panel's
 * latest state (`type: "update"`) or its removal (`type: "remove"`). `live: false` marks the final frame of a
 * commit or of a rollback; it is authoritative even when its revision is lower than the last live one.
 */
export interface PanelFrameInput {
  readonly type: "update" | "remove";
  readonly fullId?: string;
  readonly panel?: string;
  readonly revision?: number;
  readonly document?: unknown;
  readonly closed?: boolean;
  readonly live?: boolean;
}

/** What a `<raw-panel>` shows: a validated document at a revision, or nothing yet. */
export interface PanelViewState {
  readonly document: PanelDocument | undefined;
  readonly revision: number;
  readonly closed: boolean;
  readonly removed: boolean;
}

/** Why a frame was not applied. */
export type FrameRejection = "malformed_frame" | "stale_revision" | "invalid_document";

/** The outcome of `nextPanelState`: the new state, or the reason the frame changed nothing. */
export type FrameOutcome =
  | { readonly ok: true; readonly state: PanelViewState }
  | { readonly ok: false; readonly reason: FrameRejection; readonly message: string };

/** The state before any frame arrived. */
export const EMPTY_PANEL_STATE: PanelViewState = Object.freeze({
  document: undefined,
  revision: 0,
  closed: false,
  removed: false,
});

/**
 * Applies one untrusted frame to a panel's view state. A live frame is applied only when its revision is newer
 * than the one shown (frames never go back in revision order); a final (`live: false`) frame is authoritative
 * (a commit or a rollback). The document is validated with the contract's own rules before it is shown.
 */
export function nextPanelState(current: PanelViewState, frame: unknown): FrameOutcome {
  if (typeof frame !== "object" || frame === null || Array.isArray(frame)) {
    return { ok: false, reason: "malformed_frame", message: "frame must be an object" };
  }
  const input = frame as PanelFrameInput;
  if (input.type === "remove") {
    return { ok: true, state: { document: undefined, revision: 0, closed: true, removed: true } };
  }
  if (input.type !== "update") {
    return { ok: false, reason: "malformed_frame", message: "frame type must be update or remove" };
  }
  const revision = input.revision;
  if (typeof revision !== "number" || !Number.isSafeInteger(revision) || revision < 1) {
    return {
      ok: false,
      reason: "malformed_frame",
      message: "frame revision must be an integer of at least 1",
    };
  }
  const final = input.live === false;
  if (!final && revision <= current.revision && !current.removed) {
    return {
      ok: false,
      reason: "stale_revision",
      message: `frame revision ${revision} is not newer than ${current.revision}`,
    };
  }
  const checked = validatePanelDocument(input.document);
  if (!checked.ok) {
    return {
      ok: false,
      reason: "invalid_document",
      message: checked.issues[0]?.message ?? "invalid document",
    };
  }
  return {
    ok: true,
    state: { document: checked.document, revision, closed: input.closed === true, removed: false },
  };
}
