import { checkText, type Fields } from "../field-checks.js";
import { fail } from "../panel-error.js";
import type { BlockKind } from "./common.js";

const MAX_LABEL_CHARS = 200;

function checkMeasure(value: unknown, pointer: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    fail(pointer, "must be a non-negative finite number");
  }
  return value;
}

/**
 * `progress`: an optional `label`, then either `value` and `max` (non-negative finite numbers, `max > 0`,
 * `value ≤ max`) or `indeterminate: true` without either.
 */
export const progressKind: BlockKind = {
  keys: ["label", "value", "max", "indeterminate"],
  validate(fields: Fields, pointer: string): void {
    if (fields.label !== undefined) checkText(fields.label, `${pointer}/label`, MAX_LABEL_CHARS, false);
    if (fields.indeterminate !== undefined) {
      if (fields.indeterminate !== true) fail(`${pointer}/indeterminate`, "must be true");
      if (fields.value !== undefined || fields.max !== undefined) {
        fail(pointer, "indeterminate excludes value and max");
      }
      return;
    }
    const value = checkMeasure(fields.value, `${pointer}/value`);
    const max = checkMeasure(fields.max, `${pointer}/max`);
    if (max <= 0) fail(`${pointer}/max`, "must be greater than 0");
    if (value > max) fail(`${pointer}/value`, "must not exceed max");
  },
};
