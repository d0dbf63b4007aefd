import { isPlainObject } from "@raw/schema";
import { parsePatch } from "./parse-patch.js";
import { PatchError } from "./patch-error.js";

/**
 * The hint line for `write_file` arguments whose `patch` fails to parse in syntax-only mode (the mode of
 * `validateArgs`, effects.md §9 check 5), or undefined: no patch, a patch that parses, or a failure that gives no
 * clue (`patchHint`). A host shows it to the model beside the contract message, which stays the parser code. The
 * parse reuses the scan `validateArgs` just made of the same text (`MAX_PATCH_SCAN_CACHE_ENTRIES`).
 */
export function writeFileArgsHint(args: unknown): string | undefined {
  if (!isPlainObject(args) || typeof args.patch !== "string") return undefined;
  try {
    parsePatch(args.patch);
    return undefined;
  } catch (error) {
    return error instanceof PatchError ? error.hint : undefined;
  }
}
