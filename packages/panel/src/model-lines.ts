import { truncateUtf8, utf8Bytes } from "@raw/schema";

/** At most this many rejection lines reach the model per call; further ones are dropped (`panels.md` §9.3). */
export const MAX_REJECTION_LINES = 5;

/** A rejection line's message is cut to this many bytes (`panels.md` §9.3). */
export const MAX_REJECTION_MESSAGE_BYTES = 240;

/** A rejection line's panel id is cut to this many bytes (`panels.md` §9.3). */
export const MAX_REJECTION_ID_BYTES = 64;

const ELLIPSIS = "…";
const ELLIPSIS_BYTES = 3;

/**
 * The byte cut of `panels.md` §9.3: a string longer than `limit` UTF-8 bytes keeps the longest prefix of whole
 * characters of at most `limit − 3` bytes, followed by `…`. A limit below 3 leaves nothing.
 */
export function cutUtf8(text: string, limit: number): string {
  if (text.length * 3 <= limit || utf8Bytes(text) <= limit) return text;
  if (limit < ELLIPSIS_BYTES) return "";
  return truncateUtf8(text, limit - ELLIPSIS_BYTES) + ELLIPSIS;
}

/** How a non-string value is named in messages: `<null>`, `<array>` or `<typeof value>` such as `<number>`. */
export function valueLabel(value: unknown): string {
  if (value === null) return "<null>";
  try {
    if (Array.isArray(value)) return "<array>";
  } catch {
    // A revoked proxy cannot be asked whether it is an array: it is shown by its type.
  }
  return `<${typeof value}>`;
}

/** The local part of a panel id as written: the part after the last `#` of a full id, else the id itself. */
export function localPanelId(panel: string): string {
  const hash = panel.lastIndexOf("#");
  return hash < 0 ? panel : panel.slice(hash + 1);
}

/** `panel <local id> updated (revision <N>): <summary>`, without `: <summary>` when the summary is empty. */
export function confirmationLine(panel: string, revision: number, summary: string): string {
  const head = `panel ${panel} updated (revision ${revision})`;
  return summary === "" ? head : `${head}: ${summary}`;
}

/**
 * `panel <id> update rejected: <code> <message>` for a rejected result-block update: `<id>` is the local id cut
 * to 64 bytes (a non-string id is shown by its label) and `<message>` is cut to 240 bytes.
 */
export function rejectionLine(panel: unknown, code: string, message: string): string {
  const id =
    typeof panel === "string" ? cutUtf8(localPanelId(panel), MAX_REJECTION_ID_BYTES) : valueLabel(panel);
  return `panel ${id} update rejected: ${code} ${cutUtf8(message, MAX_REJECTION_MESSAGE_BYTES)}`;
}

/** The one text block the model sees after output capping (lines joined with `\n`), or `undefined` for none. */
export function modelLinesBlock(lines: readonly string[]): { type: "text"; text: string } | undefined {
  return lines.length === 0 ? undefined : { type: "text", text: lines.join("\n") };
}
