import { checkBytes, type Fields } from "../field-checks.js";
import { MAX_MARKDOWN_BYTES } from "../limits.js";
import type { BlockKind } from "./common.js";

/** `markdown`: a required `text` of at most 16,384 bytes (may be empty). */
export const markdownKind: BlockKind = {
  keys: ["text"],
  validate(fields: Fields, pointer: string): void {
    checkBytes(fields.text, `${pointer}/text`, MAX_MARKDOWN_BYTES, false);
  },
};
