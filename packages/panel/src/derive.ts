import { codePoints } from "@raw/schema";
import { MAX_SUMMARY_CHARS } from "./limits.js";
import type { ChecklistItem, PanelDocument, PanelProgress } from "./types.js";

type Item = { readonly status?: string; readonly label?: string; readonly children?: readonly Item[] };

function countLeaves(items: readonly Item[] | undefined, tally: { done: number; total: number }): void {
  if (!Array.isArray(items)) return;
  for (const item of items) {
    if (Array.isArray(item.children) && item.children.length > 0) {
      countLeaves(item.children, tally);
      continue;
    }
    tally.total++;
    if (item.status === "done" || item.status === "skipped") tally.done++;
  }
}

/**
 * The progress of a document (`panels.md` §3.5): its explicit `progress`; else the leaf items of all checklist
 * blocks (an empty checklist still gives `{ done: 0, total: 0 }`); else the items of all steps blocks; else
 * `undefined`. `done` counts `done` and `skipped` items.
 */
export function derivePanelProgress(document: PanelDocument): PanelProgress | undefined {
  if (document.progress !== undefined) return document.progress;
  for (const kind of ["checklist", "steps"]) {
    let found = false;
    const tally = { done: 0, total: 0 };
    for (const block of document.blocks) {
      if (block.kind !== kind) continue;
      found = true;
      countLeaves((block as { items?: readonly Item[] }).items, tally);
    }
    if (found) return tally;
  }
  return undefined;
}

function firstInProgress(items: readonly Item[] | undefined): string | undefined {
  if (!Array.isArray(items)) return undefined;
  for (const item of items) {
    if (item.status === "in_progress" && typeof item.label === "string") return item.label;
    const nested = firstInProgress(item.children);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/**
 * The label of the first `in_progress` item in document order: checklist and steps blocks, each checklist walked
 * depth-first with parents before their children (`panels.md` §3.6).
 */
export function firstInProgressLabel(document: PanelDocument): string | undefined {
  for (const block of document.blocks) {
    if (block.kind !== "checklist" && block.kind !== "steps") continue;
    const label = firstInProgress((block as { items?: readonly ChecklistItem[] }).items);
    if (label !== undefined) return label;
  }
  return undefined;
}

/** `s` cut to `MAX_SUMMARY_CHARS` characters: when longer, its first 119 characters followed by `…`. */
function capSummary(s: string): string {
  if (s.length <= MAX_SUMMARY_CHARS || codePoints(s) <= MAX_SUMMARY_CHARS) return s;
  return `${Array.from(s)
    .slice(0, MAX_SUMMARY_CHARS - 1)
    .join("")}…`;
}

/**
 * The summary of a document (`panels.md` §3.6): its explicit `summary` as is (even `""`); else, with progress,
 * `<done>/<total>` followed by ` · <label>` of the first `in_progress` item; else the title of the first block with
 * a non-empty title, else the document title, else `declaredTitle`. A derived summary longer than 120 characters
 * keeps its first 119 followed by `…`.
 */
export function derivePanelSummary(document: PanelDocument, declaredTitle = ""): string {
  if (document.summary !== undefined) return document.summary;
  const progress = derivePanelProgress(document);
  if (progress !== undefined) {
    const label = firstInProgressLabel(document);
    const head = `${progress.done}/${progress.total}`;
    return capSummary(label === undefined ? head : `${head} · ${label}`);
  }
  for (const block of document.blocks) {
    if (typeof block.title === "string" && block.title !== "") return capSummary(block.title);
  }
  return capSummary(panelTitle(document, declaredTitle));
}

/** The title a surface shows: the document's non-empty `title`, else the declared title (`panels.md` §9.4, §14.1). */
export function panelTitle(document: PanelDocument | undefined, declaredTitle: string): string {
  const title = document?.title;
  return typeof title === "string" && title !== "" ? title : declaredTitle;
}
