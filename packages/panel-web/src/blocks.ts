import type {
  ChecklistBlock,
  ChecklistItem,
  FilesBlock,
  KeyValueBlock,
  PanelAction,
  PanelBlock,
  PanelRef,
  ProgressBlock,
  StepsBlock,
  TableBlock,
  TimelineBlock,
} from "@raw/panel";
import { html, nothing, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";

/** Glyphs of the item statuses (`panels.md` §3.3), the same as the text rendering's. */
const STATUS_GLYPHS: Readonly<Record<string, string>> = {
  pending: "[ ]",
  in_progress: "[~]",
  done: "[x]",
  skipped: "[-]",
  blocked: "[!]",
  failed: "[✗]",
};

/** What a person hears for each status glyph. */
const STATUS_NAMES: Readonly<Record<string, string>> = {
  pending: "pending",
  in_progress: "in progress",
  done: "done",
  skipped: "skipped",
  blocked: "blocked",
  failed: "failed",
};

/** Item-level hooks a block renderer calls back into: actions offered on an item. */
export interface ItemActions {
  /** Actions of item scope that apply to this block and item status. */
  forItem(block: PanelBlock, status: string): readonly PanelAction[];
  /** Runs an action on an item. */
  run(action: PanelAction, block: PanelBlock, itemId?: string): void;
}

function statusOf(status: unknown): string {
  return typeof status === "string" && Object.hasOwn(STATUS_GLYPHS, status) ? status : "pending";
}

/** The status glyph of an item, with its name for assistive technology. */
export function statusGlyph(status: unknown): TemplateResult {
  const s = statusOf(status);
  return html`<span class="glyph s-${s}" role="img" aria-label=${STATUS_NAMES[s] ?? s}>${STATUS_GLYPHS[s]}</span>`;
}

function ref(value: PanelRef | undefined): TemplateResult | typeof nothing {
  if (!value) return nothing;
  return html` <code class="ref">${value.path}${value.line !== undefined ? `:${value.line}` : ""}</code>`;
}

function itemActions(actions: ItemActions, block: PanelBlock, itemId: string, status: string, label: string) {
  const offered = actions.forItem(block, status).filter((a) => a.primary !== true);
  if (offered.length === 0) return nothing;
  return html`<span class="actions">${offered.map(
    (action) =>
      html`<button type="button" aria-label=${`${action.label}: ${label}`} @click=${() => actions.run(action, block, itemId)}>${action.label}</button>`,
  )}</span>`;
}

function checklistItems(
  block: ChecklistBlock,
  items: readonly ChecklistItem[],
  actions: ItemActions,
  depth: number,
): TemplateResult {
  return html`<ul class="items" data-depth=${depth}>
    ${repeat(
      items,
      (item) => item.id,
      (item) => {
        const status = statusOf(item.status);
        const primary = actions.forItem(block, status).find((a) => a.primary === true);
        const glyph = primary
          ? html`<button type="button" class="glyph s-${status}" aria-label=${`${primary.label}: ${item.label} (${STATUS_NAMES[status]})`} @click=${() => actions.run(primary, block, item.id)}>${STATUS_GLYPHS[status]}</button>`
          : statusGlyph(status);
        return html`<li data-item=${item.id} data-status=${status}>
          ${glyph} <span class="label">${item.label}</span>
          ${item.priority ? html` <span class="priority">${item.priority}</span>` : nothing}${ref(item.ref)}
          ${itemActions(actions, block, item.id, status, item.label)}
          ${item.note ? html`<div class="note">${item.note}</div>` : nothing}
          ${Array.isArray(item.children) && item.children.length > 0 ? checklistItems(block, item.children, actions, depth + 1) : nothing}
        </li>`;
      },
    )}
  </ul>`;
}

function duration(start: number | undefined, end: number | undefined): string {
  if (start === undefined || end === undefined || end < start) return "";
  const seconds = (end - start) / 1000;
  return seconds < 60
    ? ` (${seconds.toFixed(1)} s)`
    : ` (${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s)`;
}

function steps(block: StepsBlock, actions: ItemActions): TemplateResult {
  return html`<ol class="items">
    ${repeat(
      block.items,
      (item) => item.id,
      (item) => {
        const status = statusOf(item.status);
        return html`<li data-item=${item.id} data-status=${status}>
          ${statusGlyph(status)} <span class="label">${item.label}</span><span class="muted">${duration(item.started_at, item.ended_at)}</span>
          ${itemActions(actions, block, item.id, status, item.label)}
          ${item.detail ? html`<div class="detail">${item.detail}</div>` : nothing}
        </li>`;
      },
    )}
  </ol>`;
}

function progress(block: ProgressBlock): TemplateResult {
  const label = block.label ?? block.title ?? "Progress";
  if (block.indeterminate === true) {
    return html`<div>${block.label ?? nothing}</div><progress aria-label=${label}></progress>`;
  }
  const max = block.max ?? 1;
  const value = block.value ?? 0;
  const percent = Math.round((value / max) * 100);
  return html`<div>${block.label ?? nothing} <span class="muted">${percent}%</span></div>
    <progress aria-label=${label} max=${max} .value=${value}></progress>`;
}

function keyValue(block: KeyValueBlock): TemplateResult {
  return html`<dl>
    ${repeat(
      block.entries,
      (entry) => entry.key,
      (entry) => html`<dt>${entry.key}</dt><dd>${entry.value}${ref(entry.ref)}</dd>`,
    )}
  </dl>`;
}

function table(block: TableBlock, actions: ItemActions): TemplateResult {
  const first = block.columns[0]?.id;
  return html`<table>
    <thead><tr>
      ${block.columns.map((c) => html`<th scope="col" class="a-${c.align ?? "start"}">${c.label}</th>`)}
    </tr></thead>
    <tbody>
      ${repeat(
        block.rows,
        (row) => row.id,
        (row) => {
          const status = statusOf(row.status);
          const label = (first !== undefined ? row.cells[first] : undefined) || row.id;
          return html`<tr data-item=${row.id} data-status=${row.status ?? "pending"}>
            ${block.columns.map(
              (c, i) =>
                html`<td class="a-${c.align ?? "start"}">${i === 0 && row.status ? html`${statusGlyph(row.status)} ` : nothing}${row.cells[c.id] ?? ""}${i === block.columns.length - 1 ? itemActions(actions, block, row.id, status, label) : nothing}</td>`,
            )}
          </tr>`;
        },
      )}
    </tbody>
  </table>`;
}

/** An event time as ISO text; a time outside the range of dates is shown as its number. */
function isoTime(at: number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? String(at) : date.toISOString();
}

function timeline(block: TimelineBlock): TemplateResult {
  return html`<ol class="items" reversed>
    ${repeat(
      [...block.events].reverse(),
      (event) => event.id ?? `${event.at}`,
      (event) => html`<li class="lv-${event.level}" data-level=${event.level}>
        <time class="muted" datetime=${isoTime(event.at)}>${isoTime(event.at).slice(11, 19)}</time>
        <span class="sr-level">${event.level}:</span> <span class="label">${event.label}</span>
        ${event.detail ? html`<div class="detail">${event.detail}</div>` : nothing}
      </li>`,
    )}
  </ol>`;
}

function files(block: FilesBlock, actions: ItemActions): TemplateResult {
  return html`<ul class="items">
    ${repeat(
      block.entries,
      (entry) => entry.path,
      (
        entry,
      ) => html`<li class="f-${entry.status ?? "referenced"}" data-status=${entry.status ?? "referenced"}>
        <span class="muted">${entry.status ?? "referenced"}</span> <code>${entry.path}${entry.line !== undefined ? `:${entry.line}` : ""}</code>
        ${entry.label ? html` <span class="label">${entry.label}</span>` : nothing}
        ${itemActions(actions, block, entry.path, entry.status ?? "referenced", entry.path)}
      </li>`,
    )}
  </ul>`;
}

/**
 * Renders a block of one of the non-interactive catalog kinds (`panels.md` §4.2) as inert, escaped markup;
 * `undefined` for the kinds the element renders itself (markdown, mermaid, form) and for unknown kinds.
 */
export function renderStaticBlock(block: PanelBlock, actions: ItemActions): TemplateResult | undefined {
  switch (block.kind) {
    case "checklist":
      return checklistItems(block as ChecklistBlock, (block as ChecklistBlock).items, actions, 1);
    case "steps":
      return steps(block as StepsBlock, actions);
    case "progress":
      return progress(block as ProgressBlock);
    case "key_value":
      return keyValue(block as KeyValueBlock);
    case "table":
      return table(block as TableBlock, actions);
    case "timeline":
      return timeline(block as TimelineBlock);
    case "files":
      return files(block as FilesBlock, actions);
    default:
      return undefined;
  }
}
