import { deepFreeze, isPlainObject } from "@raw/schema";
import {
  BLOCK_ID_PATTERN,
  BLOCK_ID_REASON,
  CONTROL_CHARACTER,
  checkBytes,
  checkKeys,
  checkPattern,
  checkText,
  type Fields,
  readObject,
} from "../field-checks.js";
import { MAX_BLOCK_FALLBACK_BYTES, MAX_TITLE_CHARS } from "../limits.js";
import { fail } from "../panel-error.js";
import type { PanelBlock } from "../types.js";
import { checklistKind } from "./checklist.js";
import { type BlockKind, COMMON_BLOCK_KEYS } from "./common.js";
import { filesKind } from "./files.js";
import { formKind } from "./form.js";
import { keyValueKind } from "./key-value.js";
import { markdownKind } from "./markdown.js";
import { mermaidKind } from "./mermaid.js";
import { progressKind } from "./progress.js";
import { stepsKind } from "./steps.js";
import { tableKind } from "./table.js";
import { timelineKind } from "./timeline.js";

/** The ten block kinds of the catalog, in the order of `panels.md` §4.2. */
export const PANEL_BLOCK_KINDS = Object.freeze([
  "checklist",
  "steps",
  "progress",
  "key_value",
  "table",
  "markdown",
  "timeline",
  "files",
  "form",
  "mermaid",
] as const);

/** One of the ten catalog kinds. */
export type PanelBlockKind = (typeof PANEL_BLOCK_KINDS)[number];

const KINDS = new Map<string, { rules: BlockKind; keys: ReadonlySet<string> }>();
for (const [kind, rules] of [
  ["checklist", checklistKind],
  ["steps", stepsKind],
  ["progress", progressKind],
  ["key_value", keyValueKind],
  ["table", tableKind],
  ["markdown", markdownKind],
  ["timeline", timelineKind],
  ["files", filesKind],
  ["form", formKind],
  ["mermaid", mermaidKind],
] as const) {
  KINDS.set(kind, { rules, keys: new Set([...COMMON_BLOCK_KEYS, ...rules.keys]) });
}

/** True for one of the ten catalog kinds. */
export function isKnownBlockKind(kind: unknown): kind is PanelBlockKind {
  return typeof kind === "string" && KINDS.has(kind);
}

/**
 * Blocks this module produced: deep-frozen, valid on their own. Block rules never depend on the rest of the
 * document, so such a block is taken as is when it is validated again (for example after a patch touched another
 * block); the document still checks its id for duplicates and its size.
 */
const VALIDATED = new WeakSet<object>();

/** True for a block this package validated and froze. */
export function isValidatedBlock(value: unknown): value is PanelBlock {
  return typeof value === "object" && value !== null && VALIDATED.has(value);
}

function checkCommon(fields: Fields, pointer: string): string {
  checkPattern(fields.id, `${pointer}/id`, BLOCK_ID_PATTERN, BLOCK_ID_REASON);
  const kind = fields.kind;
  if (typeof kind !== "string" || kind === "") fail(`${pointer}/kind`, "must be a string");
  if (CONTROL_CHARACTER.test(kind)) fail(`${pointer}/kind`, "contains a control character");
  if (fields.title !== undefined) checkText(fields.title, `${pointer}/title`, MAX_TITLE_CHARS, false);
  if (fields.fallback !== undefined) {
    checkBytes(fields.fallback, `${pointer}/fallback`, MAX_BLOCK_FALLBACK_BYTES, false);
  }
  return kind;
}

/** A block of an unknown kind: its JSON round trip, whose common fields are checked again (`panels.md` §4.3). */
function unknownBlock(value: unknown, pointer: string): PanelBlock {
  let copy: unknown;
  try {
    const json = JSON.stringify(value);
    copy = json === undefined ? undefined : JSON.parse(json);
  } catch {
    fail(pointer, "is not serializable");
  }
  if (!isPlainObject(copy)) fail(pointer, "is not serializable");
  checkCommon(copy, pointer);
  return deepFreeze(copy) as PanelBlock;
}

/**
 * Validates one block (`panels.md` §4): object, `id`, `kind`, `title`, `fallback`, then the kind's rules (the
 * own-key check first). Returns a deep-frozen copy; fails with a `PanelFailure` at `pointer`.
 */
export function checkBlock(value: unknown, pointer: string): PanelBlock {
  if (isValidatedBlock(value)) return value;
  const { fields, keys } = readObject(value, pointer);
  const kind = checkCommon(fields, pointer);
  const known = KINDS.get(kind);
  let block: PanelBlock;
  if (known === undefined) block = unknownBlock(value, pointer);
  else {
    checkKeys(keys, known.keys, pointer);
    known.rules.validate(fields, pointer);
    // Every field was checked above, one by one: the record is the block its kind declares.
    block = Object.freeze(fields) as unknown as PanelBlock;
  }
  VALIDATED.add(block);
  return block;
}
