import { type Issue, isPlainObject } from "@raw/schema";
import { checkBlock } from "./blocks/catalog.js";
import { checkedFields } from "./checked-fields.js";
import { checkPanelDocument } from "./document.js";
import {
  checkArray,
  checkInteger,
  checkKeys,
  checkPattern,
  type Fields,
  OneOf,
  PANEL_ID_PATTERN,
  PANEL_ID_REASON,
  readObject,
} from "./field-checks.js";
import { MAX_PATCH_ENTRIES } from "./limits.js";
import { childPointer, fail, invalidIssue, PanelFailure } from "./panel-error.js";
import type { PanelBlock, PanelDocument } from "./types.js";

/** A document field a `set` patch may change (`panels.md` §6.4). */
export type PanelSetField = "title" | "subtitle" | "status" | "summary" | "context_summary" | "progress";

/** `set`: changes (or, with `null`, removes) one top-level document field; the value is judged by the final validation. */
export interface SetPatch {
  readonly op: "set";
  readonly field: PanelSetField;
  readonly value: unknown;
}

/** `set_block`: replaces the block with the same id in place, or inserts it before `before` or at the end. */
export interface SetBlockPatch {
  readonly op: "set_block";
  readonly block: PanelBlock;
  readonly before?: unknown;
}

/** `remove_block`: removes the block `id`. */
export interface RemoveBlockPatch {
  readonly op: "remove_block";
  readonly id: unknown;
}

/** `upsert_items`: merges items into a checklist, steps, table, key_value or files block by their key field. */
export interface UpsertItemsPatch {
  readonly op: "upsert_items";
  readonly block: unknown;
  readonly items: readonly Readonly<Record<string, unknown>>[];
  readonly parent?: unknown;
}

/** `remove_items`: removes items by `ids`, `keys` or `paths` (exactly one, fitting the block's kind). */
export interface RemoveItemsPatch {
  readonly op: "remove_items";
  readonly block: unknown;
  readonly ids?: readonly string[];
  readonly keys?: readonly string[];
  readonly paths?: readonly string[];
}

/** `append_events`: appends events to a timeline, keeping the newest `max`. */
export interface AppendEventsPatch {
  readonly op: "append_events";
  readonly block: unknown;
  readonly events: readonly unknown[];
}

/** One of the six patch operations, shape-checked (`panels.md` §6.4). */
export type PanelPatch =
  | SetPatch
  | SetBlockPatch
  | RemoveBlockPatch
  | UpsertItemsPatch
  | RemoveItemsPatch
  | AppendEventsPatch;

/** A shape-checked update (`panels.md` §6.2); a `replace` carries its validated, deep-frozen document. */
export type PanelUpdate =
  | {
      readonly panel: string;
      readonly op: "replace";
      readonly document: PanelDocument;
      readonly base_revision?: number;
    }
  | {
      readonly panel: string;
      readonly op: "patch";
      readonly patches: readonly PanelPatch[];
      readonly base_revision?: number;
    }
  | { readonly panel: string; readonly op: "close"; readonly base_revision?: number };

/** How an update is read. */
export interface PanelUpdateOptions {
  /**
   * The local panel id the update is addressed to, when the host resolved it already (a streaming
   * `context.panels.update(panel, body)`, or a result block naming a full id). The update's own `panel` field is
   * then neither required nor checked.
   */
  panel?: string;
  /** Own keys left out of the unknown-field check, for example `["type"]` for a result block. */
  ignoreKeys?: readonly string[];
}

/** Outcome of `validatePanelUpdate`: the shape-checked update, or its first failure as one issue. */
export type PanelUpdateValidation = { ok: true; update: PanelUpdate } | { ok: false; issues: Issue[] };

const OP_KEYS: Record<string, ReadonlySet<string>> = {
  replace: new Set(["panel", "op", "document", "base_revision"]),
  patch: new Set(["panel", "op", "patches", "base_revision"]),
  close: new Set(["panel", "op", "base_revision"]),
};

const PATCH_KEYS: Record<string, ReadonlySet<string>> = {
  set: new Set(["op", "field", "value"]),
  set_block: new Set(["op", "block", "before"]),
  remove_block: new Set(["op", "id"]),
  upsert_items: new Set(["op", "block", "items", "parent"]),
  remove_items: new Set(["op", "block", "ids", "keys", "paths"]),
  append_events: new Set(["op", "block", "events"]),
};

const SET_FIELDS = new OneOf<PanelSetField>([
  "title",
  "subtitle",
  "status",
  "summary",
  "context_summary",
  "progress",
]);
const SELECTORS = ["ids", "keys", "paths"] as const;

function hasOwn(record: object, key: string): boolean {
  return Object.hasOwn(record, key);
}

function checkStrings(value: unknown, pointer: string): readonly string[] {
  const list = checkArray(value, pointer, 1, MAX_PATCH_ENTRIES);
  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] !== "string") fail(`${pointer}/${i}`, "must be a string");
  }
  return Object.freeze([...list]) as readonly string[];
}

/** Shape-checks one patch (`panels.md` §6.4) at `/patches/<i>`. */
function checkPatch(value: unknown, p: string): PanelPatch {
  const { fields, keys } = readObject(value, p);
  const op = fields.op;
  const allowed = typeof op === "string" && hasOwn(PATCH_KEYS, op) ? PATCH_KEYS[op] : undefined;
  if (allowed === undefined) fail(`${p}/op`, "unknown patch operation");
  checkKeys(keys, allowed, p);
  switch (op) {
    case "set": {
      const field = SET_FIELDS.check(fields.field, `${p}/field`);
      if (fields.value === undefined) fail(`${p}/value`, "is required");
      return { op, field, value: fields.value };
    }
    case "set_block": {
      const block = checkBlock(fields.block, `${p}/block`);
      return fields.before === undefined ? { op, block } : { op, block, before: fields.before };
    }
    case "remove_block":
      return { op, id: fields.id };
    case "upsert_items": {
      const items = checkArray(fields.items, `${p}/items`, 1, MAX_PATCH_ENTRIES);
      for (let j = 0; j < items.length; j++) {
        if (!isPlainObject(items[j])) fail(`${p}/items/${j}`, "must be an object");
      }
      const patch: Fields = { op, block: fields.block, items: Object.freeze([...items]) };
      if (fields.parent !== undefined) patch.parent = fields.parent;
      return checkedFields<UpsertItemsPatch>(patch);
    }
    case "remove_items": {
      let given: (typeof SELECTORS)[number] | undefined;
      let count = 0;
      for (const selector of SELECTORS) {
        if (fields[selector] !== undefined) {
          given = selector;
          count++;
        }
      }
      if (count !== 1 || given === undefined) fail(p, "exactly one of ids, keys or paths is required");
      return {
        op,
        block: fields.block,
        [given]: checkStrings(fields[given], `${p}/${given}`),
      } as RemoveItemsPatch;
    }
    default: {
      const events = checkArray(fields.events, `${p}/events`, 1, MAX_PATCH_ENTRIES);
      return { op: "append_events", block: fields.block, events: Object.freeze([...events]) };
    }
  }
}

/** Shape-checks an update (`panels.md` §6.2); fails with a `PanelFailure`. */
export function checkUpdate(value: unknown, options: PanelUpdateOptions): PanelUpdate {
  const { fields, keys } = readObject(value, "");
  const panel =
    options.panel !== undefined
      ? options.panel
      : checkPattern(fields.panel, "/panel", PANEL_ID_PATTERN, PANEL_ID_REASON);
  const op = fields.op;
  const allowed = typeof op === "string" && hasOwn(OP_KEYS, op) ? OP_KEYS[op] : undefined;
  if (allowed === undefined) fail("/op", "must be replace, patch or close");
  const ignored = options.ignoreKeys;
  for (const key of keys) {
    if (!allowed.has(key) && !(ignored?.includes(key) ?? false)) fail(childPointer("", key), "unknown field");
  }
  const base =
    fields.base_revision === undefined ? undefined : checkInteger(fields.base_revision, "/base_revision", 0);
  const tail = base === undefined ? {} : { base_revision: base };
  if (op === "replace") {
    if (fields.document === undefined) fail("/document", "is required");
    const checked = checkPanelDocument(fields.document);
    if ("issue" in checked) throw new PanelFailure(checked.issue);
    return { panel, op, document: checked.document, ...tail };
  }
  if (op === "patch") {
    const list = checkArray(fields.patches, "/patches", 1, Number.POSITIVE_INFINITY);
    const patches: PanelPatch[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) patches[i] = checkPatch(list[i], `/patches/${i}`);
    return { panel, op, patches: Object.freeze(patches), ...tail };
  }
  return { panel, op: "close", ...tail };
}

/**
 * Shape-checks an update (`panels.md` §6.2, §6.4), first failure wins, pointers relative to the update (a
 * `replace` document's own failures are relative to the document). A `replace` document is fully validated,
 * including its size (`panel_too_large`); a `patch` is only shape-checked here (`applyPanelUpdate` applies it and
 * validates the result). Never throws.
 */
export function validatePanelUpdate(
  update: unknown,
  options: PanelUpdateOptions = {},
): PanelUpdateValidation {
  try {
    return { ok: true, update: checkUpdate(update, options) };
  } catch (error) {
    if (error instanceof PanelFailure) return { ok: false, issues: [error.issue] };
    return { ok: false, issues: [invalidIssue("", "is not serializable")] };
  }
}
