import { escapeDisplayText } from "@raw/schema";
import { MAX_PLAN_ENTRIES } from "../limits.js";

/** One ACP plan entry. */
export interface AcpPlanEntry {
  readonly content: string;
  readonly priority: "high" | "medium" | "low";
  readonly status: "pending" | "in_progress" | "completed";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The ACP plan status of a panel item status (`panels.md` §3.3); a missing or unknown status is `pending`. */
export function planStatusOf(status: unknown): AcpPlanEntry["status"] {
  if (status === "in_progress") return "in_progress";
  if (status === "done" || status === "skipped") return "completed";
  return "pending";
}

/**
 * The plan entries of a panel document (`panels.md` §14.6): its first `checklist` block flattened depth-first (a
 * parent, then its children), `content` = label (A1-escaped), `priority` = the item's or `medium`, the status of §3.3; other
 * checklist blocks are ignored. `undefined` when the document has no checklist. At most `MAX_PLAN_ENTRIES`.
 */
export function planEntriesOf(document: unknown): AcpPlanEntry[] | undefined {
  if (!isRecord(document) || !Array.isArray(document.blocks)) return undefined;
  const checklist = document.blocks.find((block) => isRecord(block) && block.kind === "checklist");
  if (!isRecord(checklist)) return undefined;
  const entries: AcpPlanEntry[] = [];
  const walk = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (entries.length >= MAX_PLAN_ENTRIES || !isRecord(item)) continue;
      const priority = item.priority === "high" || item.priority === "low" ? item.priority : "medium";
      entries.push({
        content: escapeDisplayText(typeof item.label === "string" ? item.label : ""),
        priority,
        status: planStatusOf(item.status),
      });
      walk(item.children);
    }
  };
  walk(checklist.items);
  return entries;
}
