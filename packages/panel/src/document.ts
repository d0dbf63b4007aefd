import type { Issue } from "@raw/schema";
import { checkBlock } from "./blocks/catalog.js";
import { checkedFields } from "./checked-fields.js";
import {
  byteLength,
  checkArray,
  checkBytes,
  checkInteger,
  checkKeys,
  checkText,
  type Fields,
  OneOf,
  readObject,
} from "./field-checks.js";
import {
  MAX_CONTEXT_SUMMARY_BYTES,
  MAX_PANEL_BLOCKS,
  MAX_PANEL_DOCUMENT_BYTES,
  MAX_SUBTITLE_CHARS,
  MAX_SUMMARY_CHARS,
  MAX_TITLE_CHARS,
} from "./limits.js";
import { fail, invalidIssue, PANEL_TOO_LARGE, PanelFailure } from "./panel-error.js";
import type { PanelBlock, PanelDocument, PanelStatus } from "./types.js";

/** Outcome of `validatePanelDocument`: the validated, deep-frozen copy, or the first failure as one issue. */
export type PanelDocumentValidation = { ok: true; document: PanelDocument } | { ok: false; issues: Issue[] };

const DOCUMENT_KEYS = new Set([
  "title",
  "subtitle",
  "status",
  "progress",
  "summary",
  "context_summary",
  "blocks",
]);
const PROGRESS_KEYS = new Set(["done", "total"]);
const STATUSES = new OneOf<PanelStatus>(["idle", "active", "done", "failed"]);

/** Documents this module produced: deep-frozen, valid and within the size limit. */
const VALIDATED = new WeakSet<object>();

/**
 * The structural rules of `panels.md` §3.1 in their order (everything but serializability and size), on a value
 * whose root is `""`. Returns a deep-frozen copy; fails with a `PanelFailure`.
 */
function checkStructure(value: unknown): PanelDocument {
  const { fields, keys } = readObject(value, "");
  checkKeys(keys, DOCUMENT_KEYS, "");
  if (fields.title !== undefined) checkText(fields.title, "/title", MAX_TITLE_CHARS, false);
  if (fields.subtitle !== undefined) checkText(fields.subtitle, "/subtitle", MAX_SUBTITLE_CHARS, false);
  if (fields.status !== undefined) STATUSES.check(fields.status, "/status");
  if (fields.summary !== undefined) checkText(fields.summary, "/summary", MAX_SUMMARY_CHARS, false);
  if (fields.context_summary !== undefined) {
    checkBytes(fields.context_summary, "/context_summary", MAX_CONTEXT_SUMMARY_BYTES, false);
  }
  if (fields.progress !== undefined) fields.progress = checkProgress(fields.progress);
  const blocks = checkArray(fields.blocks, "/blocks", 0, MAX_PANEL_BLOCKS);
  const ids = new Set<string>();
  const out: PanelBlock[] = new Array(blocks.length);
  for (let i = 0; i < blocks.length; i++) {
    const pointer = `/blocks/${i}`;
    const block = checkBlock(blocks[i], pointer);
    if (ids.has(block.id)) fail(`${pointer}/id`, "duplicate block id");
    ids.add(block.id);
    out[i] = block;
  }
  fields.blocks = Object.freeze(out);
  return checkedFields<PanelDocument>(fields);
}

function checkProgress(value: unknown): Fields {
  const { fields, keys } = readObject(value, "/progress");
  checkKeys(keys, PROGRESS_KEYS, "/progress");
  const done = checkInteger(fields.done, "/progress/done", 0);
  const total = checkInteger(fields.total, "/progress/total", 0);
  if (done > total) fail("/progress/done", "must not exceed total");
  return Object.freeze(fields);
}

/** The `panel_too_large` issue for a document of `bytes` serialized bytes. */
export function tooLargeIssue(bytes: number): Issue {
  return {
    code: PANEL_TOO_LARGE,
    message: `document is ${bytes} bytes; the limit is ${MAX_PANEL_DOCUMENT_BYTES}`,
  };
}

/** The UTF-8 length of a serialized document, or undefined when it is within the limit (counted only when needed). */
function oversize(json: string): number | undefined {
  if (json.length * 3 <= MAX_PANEL_DOCUMENT_BYTES) return undefined;
  const bytes = byteLength(json);
  return bytes > MAX_PANEL_DOCUMENT_BYTES ? bytes : undefined;
}

/**
 * Validates a document and returns the first failure as an issue (the package-internal form of
 * `validatePanelDocument`; an already validated document is returned as is).
 */
export function checkPanelDocument(value: unknown): { document: PanelDocument } | { issue: Issue } {
  if (typeof value === "object" && value !== null && VALIDATED.has(value)) {
    return { document: value as PanelDocument };
  }
  let document: PanelDocument;
  let json: string;
  try {
    document = checkStructure(value);
  } catch (error) {
    if (error instanceof PanelFailure) return { issue: error.issue };
    // A getter or proxy trap threw while the document was read.
    return { issue: invalidIssue("", "is not serializable") };
  }
  try {
    // The copy holds only validated JSON values, so this serialization measures the original document.
    json = JSON.stringify(document);
  } catch {
    return { issue: invalidIssue("", "is not serializable") };
  }
  const bytes = oversize(json);
  if (bytes !== undefined) return { issue: tooLargeIssue(bytes) };
  VALIDATED.add(document);
  return { document };
}

/**
 * Validates a panel document (`panels.md` §3–§4, §11.1, §12), first failure wins. On success returns a deep-frozen
 * copy (the input is never mutated; `undefined` values are left out as JSON leaves them out). On failure returns one
 * issue: `panel_invalid` with `message` `<pointer>: <reason>` and `path` that pointer (the root is `/`), or
 * `panel_too_large` (`document is <n> bytes; the limit is 65536`, no path). Never throws.
 */
export function validatePanelDocument(document: unknown): PanelDocumentValidation {
  const result = checkPanelDocument(document);
  return "issue" in result ? { ok: false, issues: [result.issue] } : { ok: true, document: result.document };
}
