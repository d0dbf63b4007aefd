import { checkArray, checkKeys, checkText, type Fields, readObject } from "../field-checks.js";
import { MAX_KEY_VALUE_ENTRIES } from "../limits.js";
import { fail } from "../panel-error.js";
import { type BlockKind, checkRef } from "./common.js";

const ENTRY_KEYS = new Set(["key", "value", "ref"]);
const MAX_KEY_CHARS = 60;
const MAX_VALUE_CHARS = 500;

/** `key_value`: at most 50 entries `{ key, value, ref? }` with unique keys. */
export const keyValueKind: BlockKind = {
  keys: ["entries"],
  validate(fields: Fields, pointer: string): void {
    const entriesPointer = `${pointer}/entries`;
    const list = checkArray(fields.entries, entriesPointer, 0, MAX_KEY_VALUE_ENTRIES);
    const seen = new Set<string>();
    const out: object[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const p = `${entriesPointer}/${i}`;
      const { fields: entry, keys } = readObject(list[i], p);
      checkKeys(keys, ENTRY_KEYS, p);
      const key = checkText(entry.key, `${p}/key`, MAX_KEY_CHARS, true);
      checkText(entry.value, `${p}/value`, MAX_VALUE_CHARS, false);
      if (entry.ref !== undefined) entry.ref = checkRef(entry.ref, `${p}/ref`);
      if (seen.has(key)) fail(`${p}/key`, "duplicate key");
      seen.add(key);
      out[i] = Object.freeze(entry);
    }
    fields.entries = Object.freeze(out);
  },
};
