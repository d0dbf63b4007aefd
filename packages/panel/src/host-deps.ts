// The validation side of the package as the host uses it: one place that adapts the update and derivation
// functions (`updatePanelState`, derived progress, summary and title) to the host's needs.
import type { Issue } from "@raw/schema";
import { updatePanelState } from "./apply-update.js";
import { derivePanelProgress, derivePanelSummary, panelTitle } from "./derive.js";
import type { PanelDeclaration, PanelDocument, PanelProgress } from "./types.js";

/** A normalized panel declaration as the host reads it (`panels.md` §2.1). */
export type HostDeclaration = PanelDeclaration;

/** A validated, deep-frozen panel document as the host reads it (`panels.md` §3). */
export type HostDocument = PanelDocument;

/** The next state of a panel after an accepted update. */
export interface HostStep {
  ok: true;
  revision: number;
  document: HostDocument;
  closed: boolean;
  op: "replace" | "patch" | "close";
}

/**
 * `panels.md` §7.2 steps 5–6 for one update addressed to a panel whose state is `current` (or none): shape and
 * document validation, patch application, then `base_revision`. Returns the next revision, document and closed flag,
 * or the first failure.
 */
export function stepPanel(
  current: { revision: number; document: HostDocument; closed: boolean } | undefined,
  update: unknown,
): HostStep | { ok: false; issue: Issue } {
  const result = updatePanelState(current, update);
  if (!result.ok) {
    return {
      ok: false,
      issue: result.issues[0] ?? { code: "panel_invalid", message: "/: is not valid", path: "/" },
    };
  }
  const { state, update: checked } = result;
  return {
    ok: true,
    revision: state.revision,
    document: state.document,
    closed: state.closed,
    op: checked.op,
  };
}

/** The derived progress of a document (§3.5), or `undefined`. */
export function progressOf(document: HostDocument): PanelProgress | undefined {
  return derivePanelProgress(document);
}

/** The derived summary of a document (§3.6); `declaredTitle` is the last fallback. */
export function summaryOf(document: HostDocument, declaredTitle: string): string {
  return derivePanelSummary(document, declaredTitle);
}

/** The title receipts show: the document's non-empty title, else the declared title. */
export function titleOf(document: HostDocument | undefined, declaredTitle: string): string {
  return panelTitle(document, declaredTitle);
}
