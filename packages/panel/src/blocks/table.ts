import { isPlainObject } from "@raw/schema";
import {
  checkArray,
  checkKeys,
  checkPattern,
  checkText,
  defineField,
  type Fields,
  ITEM_ID_PATTERN,
  ITEM_ID_REASON,
  OneOf,
  readObject,
} from "../field-checks.js";
import { MAX_TABLE_COLUMNS, MAX_TABLE_ROWS } from "../limits.js";
import { childPointer, fail } from "../panel-error.js";
import { type BlockKind, checkRef, ITEM_STATUSES } from "./common.js";

const COLUMN_KEYS = new Set(["id", "label", "align"]);
const ROW_KEYS = new Set(["id", "status", "cells", "ref"]);
const ALIGNS = new OneOf(["start", "end", "center"]);
const MAX_COLUMN_LABEL_CHARS = 60;
const MAX_CELL_CHARS = 300;

/** `table`: 1–8 columns with unique ids, at most 200 rows whose `cells` only name declared columns. */
export const tableKind: BlockKind = {
  keys: ["columns", "rows"],
  validate(fields: Fields, pointer: string): void {
    const columnsPointer = `${pointer}/columns`;
    const columns = checkArray(fields.columns, columnsPointer, 1, MAX_TABLE_COLUMNS);
    const columnIds = new Set<string>();
    const columnsOut: object[] = new Array(columns.length);
    for (let i = 0; i < columns.length; i++) {
      const p = `${columnsPointer}/${i}`;
      const { fields: column, keys } = readObject(columns[i], p);
      checkKeys(keys, COLUMN_KEYS, p);
      const id = checkPattern(column.id, `${p}/id`, ITEM_ID_PATTERN, ITEM_ID_REASON);
      checkText(column.label, `${p}/label`, MAX_COLUMN_LABEL_CHARS, false);
      if (column.align !== undefined) ALIGNS.check(column.align, `${p}/align`);
      if (columnIds.has(id)) fail(`${p}/id`, "duplicate column id");
      columnIds.add(id);
      columnsOut[i] = Object.freeze(column);
    }
    fields.columns = Object.freeze(columnsOut);

    const rowsPointer = `${pointer}/rows`;
    const rows = checkArray(fields.rows, rowsPointer, 0, MAX_TABLE_ROWS);
    const rowIds = new Set<string>();
    const rowsOut: object[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const p = `${rowsPointer}/${i}`;
      const { fields: row, keys } = readObject(rows[i], p);
      checkKeys(keys, ROW_KEYS, p);
      const id = checkPattern(row.id, `${p}/id`, ITEM_ID_PATTERN, ITEM_ID_REASON);
      if (row.status !== undefined) ITEM_STATUSES.check(row.status, `${p}/status`);
      const cellsPointer = `${p}/cells`;
      const cells = row.cells;
      if (!isPlainObject(cells)) fail(cellsPointer, "must be an object");
      const cellsOut: Fields = {};
      for (const key of Object.keys(cells)) {
        const cellPointer = childPointer(cellsPointer, key);
        if (!columnIds.has(key)) fail(cellPointer, "unknown column");
        const cell = cells[key];
        if (cell === undefined) continue;
        defineField(cellsOut, key, checkText(cell, cellPointer, MAX_CELL_CHARS, false));
      }
      row.cells = Object.freeze(cellsOut);
      if (row.ref !== undefined) row.ref = checkRef(row.ref, `${p}/ref`);
      if (rowIds.has(id)) fail(`${p}/id`, "duplicate item id");
      rowIds.add(id);
      rowsOut[i] = Object.freeze(row);
    }
    fields.rows = Object.freeze(rowsOut);
  },
};
