import {
  checkArray,
  checkInteger,
  checkKeys,
  checkText,
  type Fields,
  OneOf,
  readObject,
} from "../field-checks.js";
import { MAX_FILES_ENTRIES } from "../limits.js";
import { fail } from "../panel-error.js";
import type { BlockKind } from "./common.js";

const ENTRY_KEYS = new Set(["path", "status", "line", "label"]);
const STATUSES = new OneOf(["added", "modified", "deleted", "referenced"]);
const MAX_PATH_CHARS = 500;
const MAX_LABEL_CHARS = 200;

/** `files`: at most 200 entries `{ path, status?, line?, label? }` with unique paths. */
export const filesKind: BlockKind = {
  keys: ["entries"],
  validate(fields: Fields, pointer: string): void {
    const entriesPointer = `${pointer}/entries`;
    const list = checkArray(fields.entries, entriesPointer, 0, MAX_FILES_ENTRIES);
    const seen = new Set<string>();
    const out: object[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const p = `${entriesPointer}/${i}`;
      const { fields: entry, keys } = readObject(list[i], p);
      checkKeys(keys, ENTRY_KEYS, p);
      const path = checkText(entry.path, `${p}/path`, MAX_PATH_CHARS, true);
      if (entry.status !== undefined) STATUSES.check(entry.status, `${p}/status`);
      if (entry.line !== undefined) checkInteger(entry.line, `${p}/line`, 1);
      if (entry.label !== undefined) checkText(entry.label, `${p}/label`, MAX_LABEL_CHARS, false);
      if (seen.has(path)) fail(`${p}/path`, "duplicate path");
      seen.add(path);
      out[i] = Object.freeze(entry);
    }
    fields.entries = Object.freeze(out);
  },
};
