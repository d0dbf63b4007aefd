import {
  checkArray,
  checkKeys,
  checkPattern,
  checkText,
  type Fields,
  ITEM_ID_PATTERN,
  ITEM_ID_REASON,
  OneOf,
  readObject,
} from "../field-checks.js";
import { MAX_CHECKLIST_DEPTH, MAX_CHECKLIST_ITEMS } from "../limits.js";
import { fail } from "../panel-error.js";
import type { ChecklistItem } from "../types.js";
import { type BlockKind, checkRef, ITEM_STATUSES } from "./common.js";

const ITEM_KEYS = new Set(["id", "label", "status", "priority", "note", "ref", "children"]);
const PRIORITIES = new OneOf(["high", "medium", "low"]);
const MAX_LABEL_CHARS = 200;
const MAX_NOTE_CHARS = 500;

interface TreeState {
  /** Items seen so far in the whole tree. */
  count: number;
  /** Item ids seen so far in the whole tree. */
  readonly ids: Set<string>;
  /** The block's `items` pointer, where the total-count failure is reported. */
  readonly itemsPointer: string;
}

function checkItems(
  value: unknown,
  pointer: string,
  level: number,
  state: TreeState,
): readonly ChecklistItem[] {
  const list = checkArray(value, pointer, 0, MAX_CHECKLIST_ITEMS);
  const out: ChecklistItem[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = checkItem(list[i], `${pointer}/${i}`, level, state);
  return Object.freeze(out);
}

function checkItem(value: unknown, pointer: string, level: number, state: TreeState): ChecklistItem {
  if (++state.count > MAX_CHECKLIST_ITEMS) {
    fail(state.itemsPointer, `must hold at most ${MAX_CHECKLIST_ITEMS} items including children`);
  }
  const { fields, keys } = readObject(value, pointer);
  checkKeys(keys, ITEM_KEYS, pointer);
  const id = checkPattern(fields.id, `${pointer}/id`, ITEM_ID_PATTERN, ITEM_ID_REASON);
  checkText(fields.label, `${pointer}/label`, MAX_LABEL_CHARS, true);
  if (fields.status !== undefined) ITEM_STATUSES.check(fields.status, `${pointer}/status`);
  if (fields.priority !== undefined) PRIORITIES.check(fields.priority, `${pointer}/priority`);
  if (fields.note !== undefined) checkText(fields.note, `${pointer}/note`, MAX_NOTE_CHARS, false);
  if (fields.ref !== undefined) fields.ref = checkRef(fields.ref, `${pointer}/ref`);
  const children = fields.children;
  if (children !== undefined) {
    const childrenPointer = `${pointer}/children`;
    if (!Array.isArray(children)) fail(childrenPointer, "must be an array");
    if (level >= MAX_CHECKLIST_DEPTH && children.length > 0) {
      fail(childrenPointer, `nesting is at most ${MAX_CHECKLIST_DEPTH} levels`);
    }
    fields.children = checkItems(children, childrenPointer, level + 1, state);
  }
  if (state.ids.has(id)) fail(`${pointer}/id`, "duplicate item id");
  state.ids.add(id);
  // Every field was checked above, one by one: the record is a ChecklistItem.
  return Object.freeze(fields) as unknown as ChecklistItem;
}

/** `checklist`: `items`, nested up to 3 levels, at most 200 items including children, ids unique in the tree. */
export const checklistKind: BlockKind = {
  keys: ["items"],
  validate(fields: Fields, pointer: string): void {
    const itemsPointer = `${pointer}/items`;
    fields.items = checkItems(fields.items, itemsPointer, 1, { count: 0, ids: new Set(), itemsPointer });
  },
};
