import type { Issue } from "@raw/schema";
import { checkPanelDocument } from "./document.js";
import { invalidIssue, PANEL_REVISION_CONFLICT, PANEL_UNKNOWN, PanelFailure } from "./panel-error.js";
import { applyPatches } from "./patches.js";
import type { PanelDocument } from "./types.js";
import { checkUpdate, type PanelUpdate, type PanelUpdateOptions } from "./update.js";

/** Outcome of `applyPanelUpdate`: the resulting document with the shape-checked update, or one issue. */
export type PanelApplyResult =
  | { ok: true; document: PanelDocument; update: PanelUpdate }
  | { ok: false; issues: Issue[] };

/** What a host stores per panel (or chat view instance): the revision, the document and the closed flag. */
export interface PanelRevisionState {
  readonly revision: number;
  readonly document: PanelDocument;
  readonly closed: boolean;
}

/** The stored state `updatePanelState` starts from; `closed` defaults to `false`. */
export interface PanelRevisionInput {
  readonly revision: number;
  readonly document: PanelDocument;
  readonly closed?: boolean;
}

/** Outcome of `updatePanelState`: the next state with the shape-checked update, or one issue. */
export type PanelRevisionResult =
  | { ok: true; state: PanelRevisionState; update: PanelUpdate }
  | { ok: false; issues: Issue[] };

const MALFORMED = "an item is malformed and could not be merged";

/**
 * Applies one update to a panel's current document (`panels.md` §6), first failure wins, never throws and never
 * mutates `current` or `update`:
 * - the update is shape-checked (`validatePanelUpdate`);
 * - `replace` gives its validated document;
 * - `patch` applies the patches in order to a private copy of `current` and validates the whole result again
 *   (pointers relative to the document; `panel_too_large` included); an exception while merging malformed nested
 *   input is `panel_invalid` `/patches: an item is malformed and could not be merged`;
 * - `close` keeps `current` as it is;
 * - `patch` or `close` without a current document: `panel_unknown`, `panel "<id>" has no document yet`.
 * `base_revision` is not compared here (see `updatePanelState`). Documents returned are deep-frozen.
 */
export function applyPanelUpdate(
  current: PanelDocument | undefined,
  update: unknown,
  options: PanelUpdateOptions = {},
): PanelApplyResult {
  let checked: PanelUpdate;
  try {
    checked = checkUpdate(update, options);
  } catch (error) {
    if (error instanceof PanelFailure) return { ok: false, issues: [error.issue] };
    return { ok: false, issues: [invalidIssue("", "is not serializable")] };
  }
  if (checked.op === "replace") return { ok: true, document: checked.document, update: checked };
  if (current === undefined) {
    return {
      ok: false,
      issues: [{ code: PANEL_UNKNOWN, message: `panel "${checked.panel}" has no document yet` }],
    };
  }
  if (checked.op === "close") return { ok: true, document: current, update: checked };
  let patched: unknown;
  try {
    patched = applyPatches(current, checked.patches);
  } catch (error) {
    if (error instanceof PanelFailure) return { ok: false, issues: [error.issue] };
    return { ok: false, issues: [invalidIssue("/patches", MALFORMED)] };
  }
  const result = checkPanelDocument(patched);
  if ("issue" in result) return { ok: false, issues: [result.issue] };
  return { ok: true, document: result.document, update: checked };
}

/**
 * Applies one update to a panel's stored state (`panels.md` §6.3, §7.1, §7.2 step 5–6): `applyPanelUpdate`, then the
 * `base_revision` check (after validation, so an invalid update with a stale base reports `panel_invalid`):
 * `panel_revision_conflict`, `panel "<id>" is at revision <current>, not <given>` (the current revision is 0 when
 * `current` is undefined). On success the revision is increased by 1 (a new panel starts at 1); `replace` opens the
 * panel, `close` closes it (also when already closed), `patch` keeps the flag. Never throws; a rejection leaves
 * `current` untouched and uses no revision.
 */
export function updatePanelState(
  current: PanelRevisionInput | undefined,
  update: unknown,
  options: PanelUpdateOptions = {},
): PanelRevisionResult {
  const applied = applyPanelUpdate(current?.document, update, options);
  if (!applied.ok) return applied;
  const { update: checked, document } = applied;
  const revision = current?.revision ?? 0;
  if (checked.base_revision !== undefined && checked.base_revision !== revision) {
    return {
      ok: false,
      issues: [
        {
          code: PANEL_REVISION_CONFLICT,
          message: `panel "${checked.panel}" is at revision ${revision}, not ${checked.base_revision}`,
        },
      ],
    };
  }
  const closed =
    checked.op === "replace" ? false : checked.op === "close" ? true : (current?.closed ?? false);
  return { ok: true, state: Object.freeze({ revision: revision + 1, document, closed }), update: checked };
}
