import { codePoints, escapeDisplayText } from "@raw/schema";
import { derivePanelProgress, panelTitle } from "./derive.js";
import { MAX_TEXT_TABLE_ROWS } from "./limits.js";
import type {
  ChecklistItem,
  FilesBlock,
  FormBlock,
  KeyValueBlock,
  MermaidBlock,
  PanelBlock,
  PanelDocument,
  PanelRef,
  ProgressBlock,
  StepsBlock,
  TableBlock,
  TimelineBlock,
} from "./types.js";

/** The glyph of each item status (`panels.md` §3.3); a missing status counts as `pending`. */
export const PANEL_STATUS_GLYPHS: Readonly<Record<string, string>> = Object.freeze({
  pending: "[ ]",
  in_progress: "[~]",
  done: "[x]",
  skipped: "[-]",
  blocked: "[!]",
  failed: "[✗]",
});

/** The receipt fields a receipt line shows (`panels.md` §9.4, §14.4). */
export interface ReceiptLineInput {
  readonly title: string;
  readonly revision: number;
  readonly summary: string;
  readonly error?: { readonly code: string; readonly message?: string };
}

/** A panel string shown as one screen line (amendment A1: controls, LF and TAB escaped). */
function line(text: string): string {
  return escapeDisplayText(text);
}

/** A multi-line panel string (markdown, Mermaid source, a fallback): LF and TAB kept, other controls escaped. */
function multiline(value: string): string {
  return escapeDisplayText(value, { multiline: true });
}

function given(text: string | undefined): text is string {
  return typeof text === "string" && text !== "";
}

function glyph(status: unknown): string {
  return typeof status === "string" && Object.hasOwn(PANEL_STATUS_GLYPHS, status)
    ? (PANEL_STATUS_GLYPHS[status] as string)
    : "[ ]";
}

function refText(ref: PanelRef | undefined): string {
  if (ref === undefined) return "";
  return ref.line === undefined ? ` (${line(ref.path)})` : ` (${line(ref.path)}:${ref.line})`;
}

function checklistLines(items: readonly ChecklistItem[] | undefined, depth: number, out: string[]): void {
  if (!Array.isArray(items)) return;
  const indent = "  ".repeat(depth);
  for (const item of items) {
    const note = given(item.note) ? ` — ${line(item.note)}` : "";
    out.push(`${indent}${glyph(item.status)} ${line(item.label)}${note}${refText(item.ref)}`);
    checklistLines(item.children, depth + 1, out);
  }
}

/** A step duration: `<s>s` under a minute, `<m>m` under an hour, else `<h>h` (each rounded). */
export function formatDuration(milliseconds: number): string {
  const s = Math.round(milliseconds / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  return `${Math.round(m / 60)}h`;
}

function stepsLines(block: StepsBlock, out: string[]): void {
  block.items.forEach((item, i) => {
    const detail = given(item.detail) ? ` — ${line(item.detail)}` : "";
    const { started_at: start, ended_at: end } = item;
    const duration =
      start !== undefined && end !== undefined && end >= start ? ` (${formatDuration(end - start)})` : "";
    out.push(`${i + 1}. ${glyph(item.status)} ${line(item.label)}${detail}${duration}`);
  });
}

function progressLine(block: ProgressBlock): string {
  const label = given(block.label) ? line(block.label) : "Progress";
  if (block.indeterminate === true || block.value === undefined || block.max === undefined)
    return `${label} …`;
  return `${label} ${Math.round((block.value / block.max) * 100)}%`;
}

function pad(cell: string, width: number): string {
  const missing = width - codePoints(cell);
  return missing > 0 ? cell + " ".repeat(missing) : cell;
}

function tableLines(block: TableBlock, out: string[]): void {
  const shown = block.rows.slice(0, MAX_TEXT_TABLE_ROWS);
  const grid: string[][] = [["", ...block.columns.map((column) => line(column.label))]];
  for (const row of shown) {
    const cells = row.cells;
    grid.push([
      row.status === undefined ? "" : glyph(row.status),
      ...block.columns.map((column) => line(Object.hasOwn(cells, column.id) ? (cells[column.id] ?? "") : "")),
    ]);
  }
  const widths = grid[0]?.map((_, c) => Math.max(...grid.map((row) => codePoints(row[c] ?? "")))) ?? [];
  for (const row of grid) {
    out.push(
      row
        .map((cell, c) => pad(cell, widths[c] ?? 0))
        .join("  ")
        .replace(/ +$/, ""),
    );
  }
  const more = block.rows.length - shown.length;
  if (more > 0) out.push(`… ${more} more rows`);
}

function timelineLines(block: TimelineBlock, out: string[]): void {
  for (let i = block.events.length - 1; i >= 0; i--) {
    const event = block.events[i];
    if (event === undefined) continue;
    const detail = given(event.detail) ? ` — ${line(event.detail)}` : "";
    out.push(`[${line(event.level)}] ${line(event.label)}${detail}`);
  }
}

function filesLines(block: FilesBlock, out: string[]): void {
  for (const entry of block.entries) {
    const letter = entry.status === undefined ? "R" : entry.status.charAt(0).toUpperCase();
    const at = entry.line === undefined ? "" : `:${entry.line}`;
    const label = given(entry.label) ? ` ${line(entry.label)}` : "";
    out.push(`${letter} ${line(entry.path)}${at}${label}`);
  }
}

function formLines(block: FormBlock, out: string[]): void {
  for (const field of block.fields) {
    out.push(
      `- ${line(field.label)} (${line(field.kind)}, ${field.required === true ? "required" : "optional"})`,
    );
    if (given(field.description)) out.push(`  ${line(field.description)}`);
    if (field.kind !== "text") {
      for (const option of field.options ?? []) out.push(`  - ${line(option.label)} [${line(option.id)}]`);
    }
  }
}

function blockLines(block: PanelBlock, out: string[]): void {
  if (given(block.title)) out.push(`## ${line(block.title)}`);
  switch (block.kind) {
    case "checklist":
      checklistLines((block as { items?: readonly ChecklistItem[] }).items, 0, out);
      return;
    case "steps":
      stepsLines(block as StepsBlock, out);
      return;
    case "progress":
      out.push(progressLine(block as ProgressBlock));
      return;
    case "key_value":
      for (const entry of (block as KeyValueBlock).entries)
        out.push(`${line(entry.key)}: ${line(entry.value)}${refText(entry.ref)}`);
      return;
    case "table":
      tableLines(block as TableBlock, out);
      return;
    case "markdown":
      out.push(multiline((block as { text: string }).text));
      return;
    case "timeline":
      timelineLines(block as TimelineBlock, out);
      return;
    case "files":
      filesLines(block as FilesBlock, out);
      return;
    case "form":
      formLines(block as FormBlock, out);
      return;
    case "mermaid":
      if (given(block.fallback)) out.push(multiline(block.fallback));
      out.push("```mermaid", multiline((block as MermaidBlock).source), "```");
      return;
    default:
      out.push(
        typeof block.fallback === "string"
          ? multiline(block.fallback)
          : `Unsupported block "${line(block.kind)}"`,
      );
  }
}

/**
 * Renders a validated document as plain text (`panels.md` §14.1–§14.2): a header line (the document title, else
 * `declaredTitle`; ` (<done>/<total>)` when there is progress; ` — <subtitle>`), then each block's lines (a titled
 * block starts with `## <title>`), joined with `\n` without blank lines. Every panel string goes through
 * `escapeDisplayText` of `@raw/schema` (amendment A1): a label, note, cell or path is one line whatever it holds;
 * markdown, Mermaid source and fallbacks keep their LF and TAB.
 */
export function renderPanelText(declaredTitle: string, document: PanelDocument): string {
  const progress = derivePanelProgress(document);
  let header = line(panelTitle(document, declaredTitle));
  if (progress !== undefined) header += ` (${progress.done}/${progress.total})`;
  if (given(document.subtitle)) header += ` — ${line(document.subtitle)}`;
  const lines = [header];
  for (const block of document.blocks) blockLines(block, lines);
  return lines.join("\n");
}

/**
 * One receipt line (`panels.md` §14.4): `  ▸ <title> r<revision> · <summary>` (without ` · <summary>` when the
 * summary is empty), or `  ▸ <title> update rejected: <code>` for a receipt with an `error`; the title, summary and
 * code are escaped as one line (amendment A1).
 */
export function renderReceiptLine(receipt: ReceiptLineInput): string {
  if (receipt.error !== undefined)
    return `  ▸ ${line(receipt.title)} update rejected: ${line(receipt.error.code)}`;
  const summary = receipt.summary === "" ? "" : ` · ${line(receipt.summary)}`;
  return `  ▸ ${line(receipt.title)} r${receipt.revision}${summary}`;
}
