import { parsePanelDeclarations } from "@raw/panel";
import type { Issue } from "@raw/schema";
import type { ToolPanelDeclaration } from "./types.js";

/** Outcome of checking a manifest's `panels`: the normalized declarations and warnings, or every issue. */
export type PanelDeclarationsCheckResult =
  | { ok: true; declarations: ToolPanelDeclaration[]; warnings: Issue[] }
  | { ok: false; issues: Issue[] };

/**
 * The port through which manifest validation checks `panels` (tool-api.md §2.2, `panels.md` §2): the array check
 * (`manifest_invalid_panels`), each declaration's first failure (`panel_invalid`), then duplicate ids. `pointer`
 * is the location of `panels` in the manifest (`/panels`); issue paths and `<pointer>: <reason>` messages start
 * there. `@raw/panel` provides the rules; this package never copies them.
 */
export type PanelDeclarationsCheck = (value: unknown, pointer: string) => PanelDeclarationsCheckResult;

/**
 * The default `PanelDeclarationsCheck`: `@raw/panel`'s `parsePanelDeclarations` at `pointer`; with `allIssues`,
 * every failing field of each declaration (a diagnostic mode) instead of its first failure.
 */
export function checkManifestPanels(
  value: unknown,
  pointer: string,
  allIssues = false,
): PanelDeclarationsCheckResult {
  const result = parsePanelDeclarations(value, allIssues ? { pointer, allIssues } : { pointer });
  if (!result.ok) return { ok: false, issues: result.issues };
  return {
    ok: true,
    declarations: result.declarations,
    // Passed through as they are: each keeps its non-enumerable `path` (panels.md §2.2 fixes `{ code, message }`).
    warnings: [...result.warnings],
  };
}
