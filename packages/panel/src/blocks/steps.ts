import {
  checkArray,
  checkInteger,
  checkKeys,
  checkPattern,
  checkText,
  type Fields,
  ITEM_ID_PATTERN,
  ITEM_ID_REASON,
  readObject,
} from "../field-checks.js";
import { MAX_STEPS_ITEMS } from "../limits.js";
import { fail } from "../panel-error.js";
import { type BlockKind, ITEM_STATUSES } from "./common.js";

const ITEM_KEYS = new Set(["id", "label", "status", "detail", "started_at", "ended_at"]);
const MAX_LABEL_CHARS = 200;
const MAX_DETAIL_CHARS = 200;

/** `steps`: at most 30 flat items with optional timing, ids unique. */
export const stepsKind: BlockKind = {
  keys: ["items"],
  validate(fields: Fields, pointer: string): void {
    const itemsPointer = `${pointer}/items`;
    const list = checkArray(fields.items, itemsPointer, 0, MAX_STEPS_ITEMS);
    const ids = new Set<string>();
    const out: object[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const p = `${itemsPointer}/${i}`;
      const { fields: item, keys } = readObject(list[i], p);
      checkKeys(keys, ITEM_KEYS, p);
      const id = checkPattern(item.id, `${p}/id`, ITEM_ID_PATTERN, ITEM_ID_REASON);
      checkText(item.label, `${p}/label`, MAX_LABEL_CHARS, true);
      if (item.status !== undefined) ITEM_STATUSES.check(item.status, `${p}/status`);
      if (item.detail !== undefined) checkText(item.detail, `${p}/detail`, MAX_DETAIL_CHARS, false);
      if (item.started_at !== undefined) checkInteger(item.started_at, `${p}/started_at`, 0);
      if (item.ended_at !== undefined) checkInteger(item.ended_at, `${p}/ended_at`, 0);
      if (ids.has(id)) fail(`${p}/id`, "duplicate item id");
      ids.add(id);
      out[i] = Object.freeze(item);
    }
    fields.items = Object.freeze(out);
  },
};
