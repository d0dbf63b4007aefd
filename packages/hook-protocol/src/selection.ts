import type { Issue } from "@raw/schema";

/** The three forms of a hook selection ID (hooks.md §2). */
export const HOOK_ID_PATTERNS: readonly RegExp[] = [
  /^(?:agent|local)\/[a-z][a-z0-9_-]*$/,
  /^pkg\/[a-z][a-z0-9_-]*\/hooks\/[a-z][a-z0-9_-]*$/,
  /^pkgdep\/[a-z][a-z0-9_-]*\/[a-z][a-z0-9_-]*\/hooks\/[a-z][a-z0-9_-]*$/,
];

/** True for a valid hook selection ID (`agent/NAME`, `local/NAME`, `pkg/...`, `pkgdep/...`). */
export function isHookId(value: unknown): value is string {
  return typeof value === "string" && HOOK_ID_PATTERNS.some((pattern) => pattern.test(value));
}

/** Result of `parseHookSelection`. */
export type HookSelectionResult = { ok: true; ids: string[] } | { ok: false; issues: Issue[] };

/**
 * Validates a host's ordered hook selection (hooks.md §2, informative host part): every ID valid
 * (`hook_selection_invalid`), none repeated (`hook_selection_duplicate`). An absent list selects nothing. Reports
 * all issues, with the item's pointer.
 */
export function parseHookSelection(value: unknown): HookSelectionResult {
  if (value === undefined || value === null) return { ok: true, ids: [] };
  const items: unknown[] = Array.isArray(value) ? value : [value];
  const issues: Issue[] = [];
  const seen = new Set<string>();
  items.forEach((id, i) => {
    const path = Array.isArray(value) ? `/${i}` : "";
    if (!isHookId(id)) {
      issues.push({ code: "hook_selection_invalid", message: `invalid hook id: ${String(id)}`, path });
    } else if (seen.has(id)) {
      issues.push({ code: "hook_selection_duplicate", message: `duplicate selected hook: ${id}`, path });
    } else {
      seen.add(id);
    }
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, ids: items as string[] };
}
