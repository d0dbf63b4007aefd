import { utf8Bytes } from "@raw/schema";
import { panelTitle } from "./derive.js";
import type { PanelState } from "./host.js";
import { cutUtf8 } from "./model-lines.js";
import { renderPanelText } from "./render-text.js";

/** The body of one compaction reminder is cut to at most this many bytes (`panels.md` §14.5). */
export const MAX_REMINDER_BYTES = 2048;

/** All compaction reminders together are at most this many bytes (`panels.md` §14.5). */
export const MAX_REMINDERS_TOTAL_BYTES = 8192;

/** A panel is skipped when its reminder body would have fewer bytes than this (`panels.md` §14.5). */
export const MIN_REMINDER_BODY_BYTES = 16;

/** The first line of every reminder; the next compaction replaces the reminders that carry it. */
export const REMINDER_MARKER = "[Raw panel state]";

/**
 * The reminders a host adds after a **successful** compaction (`panels.md` §14.5): one per open sidebar panel whose
 * declaration has `context: "summary"`, most recently updated first (ties by full id). Each is
 * `[Raw panel state]\nCurrent state of <title> (<owner>) at revision <N>:\n` followed by the document's
 * `context_summary`, or its text rendering when it has none, cut (§9.3 rule) to `min(2048, remaining − header bytes)`;
 * a panel is skipped when that is below 16 bytes; all reminders together stay within 8192 bytes.
 */
export function compactionReminders(panels: readonly PanelState[]): string[] {
  const chosen = panels
    .filter((p) => !p.closed && p.view === undefined && p.declaration.context === "summary")
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.fullId < b.fullId ? -1 : a.fullId > b.fullId ? 1 : 0));
  const reminders: string[] = [];
  let remaining = MAX_REMINDERS_TOTAL_BYTES;
  for (const panel of chosen) {
    const title = panelTitle(panel.document, panel.declaration.title);
    const header = `${REMINDER_MARKER}\nCurrent state of ${title} (${panel.owner}) at revision ${panel.revision}:\n`;
    const limit = Math.min(MAX_REMINDER_BYTES, remaining - utf8Bytes(header));
    if (limit < MIN_REMINDER_BODY_BYTES) continue;
    const body = panel.document.context_summary ?? renderPanelText(panel.declaration.title, panel.document);
    const reminder = header + cutUtf8(body, limit);
    remaining -= utf8Bytes(reminder);
    reminders.push(reminder);
  }
  return reminders;
}
