import type { FormField } from "./forms.js";

/** A document's `status` (`panels.md` §3.1); absent counts as `active`. */
export type PanelStatus = "idle" | "active" | "done" | "failed";

/** The status of a checklist item, step or table row (`panels.md` §3.3); absent counts as `pending`. */
export type PanelItemStatus = "pending" | "in_progress" | "done" | "skipped" | "blocked" | "failed";

/** `{ done, total }`: explicit document progress, or progress derived from checklists or steps (`panels.md` §3.5). */
export interface PanelProgress {
  readonly done: number;
  readonly total: number;
}

/** A reference to a file location (`panels.md` §3.4). */
export interface PanelRef {
  readonly path: string;
  readonly line?: number;
}

/** The fields every block has (`panels.md` §4.1). */
export interface PanelBlockBase {
  readonly id: string;
  readonly kind: string;
  readonly title?: string;
  readonly fallback?: string;
}

/** One item of a checklist; `children` nest up to 3 levels. */
export interface ChecklistItem {
  readonly id: string;
  readonly label: string;
  readonly status?: PanelItemStatus;
  readonly priority?: "high" | "medium" | "low";
  readonly note?: string;
  readonly ref?: PanelRef;
  readonly children?: readonly ChecklistItem[];
}

/** A nested task list (at most 200 items including children). */
export interface ChecklistBlock extends PanelBlockBase {
  readonly kind: "checklist";
  readonly items: readonly ChecklistItem[];
}

/** One step of a `steps` block; the timestamps are epoch milliseconds. */
export interface StepsItem {
  readonly id: string;
  readonly label: string;
  readonly status?: PanelItemStatus;
  readonly detail?: string;
  readonly started_at?: number;
  readonly ended_at?: number;
}

/** Flat ordered steps (at most 30). */
export interface StepsBlock extends PanelBlockBase {
  readonly kind: "steps";
  readonly items: readonly StepsItem[];
}

/** One progress bar: `value` of `max`, or `indeterminate: true`. */
export interface ProgressBlock extends PanelBlockBase {
  readonly kind: "progress";
  readonly label?: string;
  readonly value?: number;
  readonly max?: number;
  readonly indeterminate?: true;
}

/** One key/value pair. */
export interface KeyValueEntry {
  readonly key: string;
  readonly value: string;
  readonly ref?: PanelRef;
}

/** Key/value pairs (at most 50, unique keys). */
export interface KeyValueBlock extends PanelBlockBase {
  readonly kind: "key_value";
  readonly entries: readonly KeyValueEntry[];
}

/** One table column. */
export interface TableColumn {
  readonly id: string;
  readonly label: string;
  readonly align?: "start" | "end" | "center";
}

/** One table row; `cells` maps column ids to strings (a missing cell is empty). */
export interface TableRow {
  readonly id: string;
  readonly status?: PanelItemStatus;
  readonly cells: Readonly<Record<string, string>>;
  readonly ref?: PanelRef;
}

/** A small table (1–8 columns, at most 200 rows). */
export interface TableBlock extends PanelBlockBase {
  readonly kind: "table";
  readonly columns: readonly TableColumn[];
  readonly rows: readonly TableRow[];
}

/** Markdown text (at most 16,384 bytes). */
export interface MarkdownBlock extends PanelBlockBase {
  readonly kind: "markdown";
  readonly text: string;
}

/** One timeline event; `at` is epoch milliseconds. */
export interface TimelineEvent {
  readonly id: string;
  readonly at: number;
  readonly level: "info" | "success" | "warning" | "error";
  readonly label: string;
  readonly detail?: string;
}

/** An event log keeping the newest `max` events (default 100). */
export interface TimelineBlock extends PanelBlockBase {
  readonly kind: "timeline";
  readonly max?: number;
  readonly events: readonly TimelineEvent[];
}

/** One file of a `files` block. */
export interface FilesEntry {
  readonly path: string;
  readonly status?: "added" | "modified" | "deleted" | "referenced";
  readonly line?: number;
  readonly label?: string;
}

/** A file list with change status (at most 200 entries, unique paths). */
export interface FilesBlock extends PanelBlockBase {
  readonly kind: "files";
  readonly entries: readonly FilesEntry[];
}

/** A request for input (1–8 fields, `panels.md` §11). */
export interface FormBlock extends PanelBlockBase {
  readonly kind: "form";
  readonly fields: readonly FormField[];
}

/** A Mermaid diagram source (`panels.md` §12). */
export interface MermaidBlock extends PanelBlockBase {
  readonly kind: "mermaid";
  readonly source: string;
}

/** A block of a kind outside the catalog: only the common fields are known (`panels.md` §4.3). */
export interface UnknownPanelBlock extends PanelBlockBase {
  readonly [key: string]: unknown;
}

/** One of the ten catalog blocks. */
export type KnownPanelBlock =
  | ChecklistBlock
  | StepsBlock
  | ProgressBlock
  | KeyValueBlock
  | TableBlock
  | MarkdownBlock
  | TimelineBlock
  | FilesBlock
  | FormBlock
  | MermaidBlock;

/** Any block of a valid document: a catalog block, or a block of an unknown kind. */
export type PanelBlock = KnownPanelBlock | UnknownPanelBlock;

/** The JSON content of a panel (`panels.md` §3). Validated documents are deep-frozen copies. */
export interface PanelDocument {
  readonly title?: string;
  readonly subtitle?: string;
  readonly status?: PanelStatus;
  readonly progress?: PanelProgress;
  readonly summary?: string;
  readonly context_summary?: string;
  readonly blocks: readonly PanelBlock[];
}

/** A panel action as declared (`panels.md` §10.1). */
export interface PanelAction {
  readonly id: string;
  readonly label: string;
  readonly scope: "panel" | "block" | "item";
  readonly kind: "prompt" | "tool" | "response";
  readonly blocks?: readonly string[];
  readonly text?: string;
  readonly send?: boolean;
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly response?: "submit" | "cancel";
  readonly primary?: true;
  readonly confirm?: string;
  readonly when?: { readonly status: readonly PanelItemStatus[] };
}

/** A normalized panel declaration: every defaulted field is present (`panels.md` §2.1). */
export interface PanelDeclaration {
  readonly id: string;
  readonly title: string;
  readonly icon: PanelIcon;
  readonly open: "never" | "first_update";
  readonly context: "none" | "summary";
  readonly placement: "chat" | "sidebar";
  readonly acp_plan: boolean;
  readonly actions: readonly PanelAction[];
}

/** A known panel icon (`panels.md` §2.2). */
export type PanelIcon =
  | "list-checks"
  | "list-ordered"
  | "file-text"
  | "table"
  | "activity"
  | "gauge"
  | "folder-tree"
  | "flag"
  | "panel";
