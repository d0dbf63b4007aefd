import { isAbsolute, relative } from "node:path";
import type { ToolPanelsContext } from "@raw/tool-api";
import { FILES_PANEL } from "./constants.js";

/** How one path changed, for the `files_changed` panel. */
export interface FileChange {
  /** Absolute, normalized path. */
  readonly path: string;
  readonly status: "added" | "modified" | "deleted";
  /** A short note (a move's other side). */
  readonly label?: string;
}

/** Most entries a `files` block holds (`panels.md` §4.2). */
const MAX_ENTRIES = 200;
/** Longest entry path, in characters (`panels.md` §4.2). */
const MAX_PATH_CHARS = 500;
/** Longest entry label, in characters (`panels.md` §4.2). */
const MAX_LABEL_CHARS = 200;
/** Characters a panel string must not contain (`panels.md` §3.2, amendment A2): tab and line feed are allowed. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

interface Entry {
  path: string;
  status: FileChange["status"];
  label?: string;
}

/** The path as shown: relative to `cwd` when inside it, else absolute. */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  const outside = rel === "" || rel === ".." || rel.startsWith("../") || isAbsolute(rel);
  return outside ? path : rel;
}

function cut(text: string, chars: number): string {
  const points = [...text];
  return points.length <= chars ? text : `${points.slice(0, chars - 1).join("")}…`;
}

function entriesOf(document: unknown): Entry[] {
  const blocks = (document as { blocks?: unknown } | undefined)?.blocks;
  if (!Array.isArray(blocks)) return [];
  const block = blocks.find((b) => b?.id === "files" && b?.kind === "files");
  return Array.isArray(block?.entries) ? (block.entries as Entry[]) : [];
}

/**
 * Publishes the changed files as a `files` block on the `files_changed` panel (effects.md §8.4, informative):
 * the panel's earlier entries are kept, a path changed again moves to the end, and only the newest 200 stay.
 * A publish failure is swallowed: it never changes the file-system outcome.
 */
export async function publishFileChanges(
  panels: ToolPanelsContext | undefined,
  cwd: string,
  changes: readonly FileChange[],
): Promise<void> {
  if (panels === undefined || changes.length === 0) return;
  try {
    const merged = new Map<string, Entry>();
    for (const entry of entriesOf(panels.get(FILES_PANEL)?.document)) merged.set(entry.path, entry);
    for (const change of changes) {
      const path = displayPath(cwd, change.path);
      if ([...path].length > MAX_PATH_CHARS || CONTROL.test(path)) continue;
      const entry: Entry = { path, status: change.status };
      if (change.label !== undefined && !CONTROL.test(change.label))
        entry.label = cut(change.label, MAX_LABEL_CHARS);
      merged.delete(path);
      merged.set(path, entry);
    }
    const entries = [...merged.values()].slice(-MAX_ENTRIES);
    const count = entries.length;
    await panels.update(FILES_PANEL, {
      op: "replace",
      document: {
        summary: `${count} ${count === 1 ? "file" : "files"} changed`,
        blocks: [{ id: "files", kind: "files", entries }],
      },
    });
  } catch {
    // A failure to publish never changes the outcome (effects.md §8.4).
  }
}
