import { utf8Bytes } from "@raw/schema";
import { cutUtf8 } from "./model-lines.js";

/** Largest serialized receipt in UTF-8 bytes (`panels.md` §9.4). */
export const MAX_RECEIPT_BYTES = 1024;

/** The summary of an oversized receipt is given up this many bytes at a time (`panels.md` §9.4). */
export const RECEIPT_SUMMARY_STEP_BYTES = 64;

/** An oversized receipt's title is cut to this many bytes once its summary is gone (`panels.md` §9.4). */
export const MAX_RECEIPT_TITLE_BYTES = 80;

/** An oversized receipt's error message is cut to this many bytes once its summary is gone (`panels.md` §9.4). */
export const MAX_RECEIPT_ERROR_BYTES = 120;

/** What the host records per panel change, committed with the tool result (`panels.md` §9.4). */
export interface PanelReceipt {
  /** The local panel id. */
  panel: string;
  /** The canonical identity of the owning tool. */
  owner: string;
  /** The document title, else the declared title. */
  title: string;
  /** The final revision (for a rejection: the current one, or 0). */
  revision: number;
  /** The derived summary of the final document (`""` for a rejection). */
  summary: string;
  /** The derived progress, when there is one. */
  progress?: { done: number; total: number };
  /** The document status, or `active` (for a rejection: the current one, or `idle`). */
  status: string;
  /** The last accepted op (`replace` for a rejection). */
  op: "replace" | "patch" | "close";
  /** The call's id, when known. */
  toolCallId?: string;
  /** `tool` for a model call, `user_action` for a panel action run by the user. */
  source: "tool" | "user_action";
  /** The first rejection of a result-block update to this panel in the call. */
  error?: { code: string; message: string };
  /** The chat view instance id, for a `chat` panel. */
  view?: string;
}

/** Copies a receipt with its keys in contract order, leaving out absent optional fields. */
function ordered(r: PanelReceipt): PanelReceipt {
  return {
    panel: r.panel,
    owner: r.owner,
    title: r.title,
    revision: r.revision,
    summary: r.summary,
    ...(r.progress !== undefined ? { progress: { done: r.progress.done, total: r.progress.total } } : {}),
    status: r.status,
    op: r.op,
    ...(r.toolCallId !== undefined ? { toolCallId: r.toolCallId } : {}),
    source: r.source,
    ...(r.error !== undefined ? { error: { code: r.error.code, message: r.error.message } } : {}),
    ...(r.view !== undefined ? { view: r.view } : {}),
  };
}

/** UTF-8 length of a receipt's JSON serialization. */
export function receiptBytes(receipt: PanelReceipt): number {
  return utf8Bytes(JSON.stringify(receipt));
}

/**
 * Bounds a receipt to 1024 serialized bytes (`panels.md` §9.4): the summary is given up first, cut 64 bytes
 * shorter at a time (with the `…` rule of §9.3) until it is empty; then the title is cut to 80 bytes and the error
 * message to 120 bytes. Identifiers are never altered, so a receipt with huge identifiers may stay larger.
 */
export function boundReceipt(receipt: PanelReceipt): PanelReceipt {
  const out = ordered(receipt);
  if (receiptBytes(out) <= MAX_RECEIPT_BYTES) return out;
  const original = out.summary;
  const originalBytes = utf8Bytes(original);
  for (let step = 1; out.summary !== "" && receiptBytes(out) > MAX_RECEIPT_BYTES; step++) {
    const limit = originalBytes - step * RECEIPT_SUMMARY_STEP_BYTES;
    out.summary = limit > 3 ? cutUtf8(original, limit) : "";
  }
  if (receiptBytes(out) <= MAX_RECEIPT_BYTES) return out;
  out.title = cutUtf8(out.title, MAX_RECEIPT_TITLE_BYTES);
  if (out.error !== undefined) out.error.message = cutUtf8(out.error.message, MAX_RECEIPT_ERROR_BYTES);
  return out;
}
