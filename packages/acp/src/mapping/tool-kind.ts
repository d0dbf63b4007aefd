import { normalizePath } from "@raw/effects";
import { MAX_TOOL_LOCATIONS } from "../limits.js";

/** An ACP tool kind this binding reports (amendment A12): from the intended effects of a call. */
export type AcpEffectKind = "edit" | "delete" | "move" | "other";

/** One file of a `files` effect, as far as ACP needs it. */
export interface EffectFile {
  readonly path: string;
  readonly operation: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The files of an effects value (`{ files: [{ path, operation }] }`); an empty list for anything else. */
export function effectFiles(effects: unknown): EffectFile[] {
  if (!isRecord(effects) || !Array.isArray(effects.files)) return [];
  const out: EffectFile[] = [];
  for (const file of effects.files) {
    if (isRecord(file) && typeof file.path === "string") {
      out.push({ path: file.path, operation: typeof file.operation === "string" ? file.operation : "write" });
    }
  }
  return out;
}

/**
 * The ACP `kind` of a call from its intended effects (A12): a rename → `move`, else a write → `edit`, else a
 * delete → `delete`, no file effect → `other`.
 */
export function toolKindOf(effects: unknown): AcpEffectKind {
  const operations = new Set(effectFiles(effects).map((file) => file.operation));
  if (operations.has("rename_source") || operations.has("rename_destination")) return "move";
  if (operations.has("write")) return "edit";
  if (operations.has("delete")) return "delete";
  return "other";
}

/** The ACP `locations` of a call: every effect path, absolute and normalized against `cwd`, at most `MAX_TOOL_LOCATIONS`. */
export function locationsOf(effects: unknown, cwd: string): { path: string }[] {
  const seen = new Set<string>();
  const out: { path: string }[] = [];
  for (const file of effectFiles(effects)) {
    let path: string;
    try {
      path = normalizePath(cwd, file.path);
    } catch {
      continue;
    }
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path });
    if (out.length >= MAX_TOOL_LOCATIONS) break;
  }
  return out;
}
