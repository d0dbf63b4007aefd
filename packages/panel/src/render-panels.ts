import { renderPanelText } from "./render-text.js";
import type { PanelDocument } from "./types.js";

/** One panel as `renderPanelsText` needs it: a `PanelHost.list()` entry fits. */
export interface RenderablePanel {
  /** `<owner>#<local id>`. */
  readonly fullId: string;
  /** The local id. */
  readonly id: string;
  readonly declaration: { readonly title: string };
  readonly document: PanelDocument;
  readonly closed: boolean;
}

/** Options of `renderPanelsText`. */
export interface RenderPanelsOptions {
  /** Render only this panel: a full id, or a local id when exactly one listed panel has it. */
  select?: string;
  /** List closed panels too (default: open panels only). */
  includeClosed?: boolean;
}

/** The text of several panels, or `panel_unknown` for a selection that names no single listed panel. */
export type RenderPanelsResult =
  | { ok: true; text: string }
  | { ok: false; code: "panel_unknown"; message: string };

/** The text when no panel is listed (`panels.md` §14.3). */
export const NO_OPEN_PANELS_TEXT = "no open panels";

function one(panel: RenderablePanel): string {
  // TODO(A1): panel strings are untrusted; route them through the one display-escaping function once it lands.
  const text = renderPanelText(panel.declaration.title, panel.document);
  return panel.closed ? `${text}\n(closed)` : text;
}

/**
 * Renders several panels as text (`panels.md` §14.3): each panel's document text (§14.1), one after another,
 * separated by a blank line, a closed panel followed by `(closed)`. Only open panels are listed unless
 * `includeClosed`; with none listed the text is `no open panels`. `select` picks one panel by full id, or by local
 * id when that is unambiguous among the listed panels; an ambiguous or unknown id (or a closed panel when closed
 * ones are not listed) gives `{ ok: false, code: "panel_unknown", message: "unknown panel <id>" }`.
 */
export function renderPanelsText(
  panels: readonly RenderablePanel[],
  options: RenderPanelsOptions = {},
): RenderPanelsResult {
  const listed = options.includeClosed ? [...panels] : panels.filter((panel) => !panel.closed);
  if (options.select !== undefined) {
    const select = options.select;
    const byFull = listed.filter((panel) => panel.fullId === select);
    const chosen = byFull.length === 1 ? byFull : listed.filter((panel) => panel.id === select);
    const panel = chosen[0];
    if (chosen.length !== 1 || panel === undefined) {
      return { ok: false, code: "panel_unknown", message: `unknown panel ${select}` };
    }
    return { ok: true, text: one(panel) };
  }
  if (listed.length === 0) return { ok: true, text: NO_OPEN_PANELS_TEXT };
  return { ok: true, text: listed.map(one).join("\n\n") };
}
