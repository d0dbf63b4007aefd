import { checkBytes, type Fields } from "../field-checks.js";
import { MAX_MERMAID_SOURCE_BYTES } from "../limits.js";
import type { BlockKind } from "./common.js";

/** `mermaid`: a required, non-empty `source` of at most 16,384 bytes; diagram safety is not judged (`panels.md` §12). */
export const mermaidKind: BlockKind = {
  keys: ["source"],
  validate(fields: Fields, pointer: string): void {
    checkBytes(fields.source, `${pointer}/source`, MAX_MERMAID_SOURCE_BYTES, true);
  },
};
