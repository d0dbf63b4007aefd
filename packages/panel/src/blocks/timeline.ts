import {
  checkArray,
  checkInteger,
  checkKeys,
  checkPattern,
  checkText,
  type Fields,
  ITEM_ID_PATTERN,
  ITEM_ID_REASON,
  OneOf,
  readObject,
} from "../field-checks.js";
import { DEFAULT_TIMELINE_MAX, MAX_TIMELINE_EVENTS } from "../limits.js";
import { fail } from "../panel-error.js";
import type { BlockKind } from "./common.js";

const EVENT_KEYS = new Set(["id", "at", "level", "label", "detail"]);
const LEVELS = new OneOf(["info", "success", "warning", "error"]);
const MAX_LABEL_CHARS = 200;
const MAX_DETAIL_CHARS = 1000;

/** `timeline`: `max` 1–200 (default 100) and at most `min(max, 200)` events with unique ids. */
export const timelineKind: BlockKind = {
  keys: ["max", "events"],
  validate(fields: Fields, pointer: string): void {
    let max = DEFAULT_TIMELINE_MAX;
    if (fields.max !== undefined) {
      max = checkInteger(fields.max, `${pointer}/max`, 1);
      if (max > MAX_TIMELINE_EVENTS) fail(`${pointer}/max`, `must be at most ${MAX_TIMELINE_EVENTS}`);
    }
    const eventsPointer = `${pointer}/events`;
    const list = checkArray(fields.events, eventsPointer, 0, Math.min(max, MAX_TIMELINE_EVENTS));
    const ids = new Set<string>();
    const out: object[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const p = `${eventsPointer}/${i}`;
      const { fields: event, keys } = readObject(list[i], p);
      checkKeys(keys, EVENT_KEYS, p);
      const id = checkPattern(event.id, `${p}/id`, ITEM_ID_PATTERN, ITEM_ID_REASON);
      checkInteger(event.at, `${p}/at`, 0);
      LEVELS.check(event.level, `${p}/level`);
      checkText(event.label, `${p}/label`, MAX_LABEL_CHARS, true);
      if (event.detail !== undefined) checkText(event.detail, `${p}/detail`, MAX_DETAIL_CHARS, false);
      if (ids.has(id)) fail(`${p}/id`, "duplicate item id");
      ids.add(id);
      out[i] = Object.freeze(event);
    }
    fields.events = Object.freeze(out);
  },
};
