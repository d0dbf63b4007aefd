import {
  escapePointerToken,
  type Issue,
  isObjectRecord,
  safeCompileObjectSchema,
  utf8Bytes,
} from "@raw/schema";
import { didYouMean } from "./did-you-mean.js";
import {
  MAX_DESCRIPTION_BYTES,
  TOOL_API_VERSION,
  TOOL_ENTRY_PATTERN,
  TOOL_ID_PATTERN,
  TOOL_NAME_PATTERN,
  TOOL_VERSION_PATTERN,
} from "./limits.js";
import { checkManifestPanels, type PanelDeclarationsCheck } from "./panel-declarations.js";
import type { ConditionSource, ToolPanelDeclaration } from "./types.js";

/** A valid `tool.json` (tool-api.md §2.1), with panel declarations normalized. */
export interface ToolManifest {
  api_version: 2;
  id: string;
  version: string;
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  entry: string;
  condition_sources?: ConditionSource[];
  effects_schema?: Record<string, unknown>;
  panels?: ToolPanelDeclaration[];
}

/** Options of `parseToolManifest`. */
export interface ParseToolManifestOptions {
  /** The folder name when the manifest is loaded from a folder: `id` must equal it. */
  expectedId?: string | undefined;
  /** The check of `panels`; defaults to `@raw/panel`'s declaration rules. */
  panels?: PanelDeclarationsCheck | undefined;
  /**
   * Diagnostics for authors (`raw validate`): every failing field of each panel declaration instead of the first
   * failure per declaration that tool-api.md §2.2 reports. Ignored when `panels` is given.
   */
  allIssues?: boolean | undefined;
}

/** Result of `parseToolManifest`: the manifest and its warnings, or every issue. */
export type ParseToolManifestResult =
  | { ok: true; manifest: ToolManifest; warnings: Issue[] }
  | { ok: false; issues: Issue[] };

/** The manifest fields in the order of the table of tool-api.md §2.1 (the order of checks). */
export const TOOL_MANIFEST_FIELDS = Object.freeze([
  "api_version",
  "id",
  "version",
  "name",
  "description",
  "input_schema",
  "entry",
  "condition_sources",
  "effects_schema",
  "panels",
] as const);

const REQUIRED: ReadonlySet<string> = new Set([
  "api_version",
  "id",
  "version",
  "name",
  "description",
  "input_schema",
  "entry",
]);
const ALLOWED: ReadonlySet<string> = new Set(TOOL_MANIFEST_FIELDS);

const ID = new RegExp(TOOL_ID_PATTERN);
const VERSION = new RegExp(TOOL_VERSION_PATTERN);
const NAME = new RegExp(TOOL_NAME_PATTERN);
const ENTRY = new RegExp(TOOL_ENTRY_PATTERN);

/** True for a string matching the manifest `id` pattern (also a valid tool folder name). */
export function isValidToolId(value: unknown): value is string {
  return typeof value === "string" && ID.test(value);
}

/** True for a valid `condition_sources` value: 1 or 2 distinct values from `arguments`, `effects`. */
export function isValidConditionSources(value: unknown): value is ConditionSource[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > 2) return false;
  for (const item of value) if (item !== "arguments" && item !== "effects") return false;
  return value.length === 1 || value[0] !== value[1];
}

/** Amendment A9: the top-level `$schema` of a manifest, when it is a string, is an editor hint and is ignored. */
function isSchemaHint(object: Record<string, unknown>, key: string): boolean {
  return key === "$schema" && typeof Object.getOwnPropertyDescriptor(object, key)?.value === "string";
}

/** The own property `key` of `object`, or undefined: presence is own-property based (§2.1). */
function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** `issue` with `hint` added when there is one. */
function withHint(issue: Issue, hint: string | undefined): Issue {
  return hint === undefined ? issue : { ...issue, hint };
}

function issue(code: string, message: string, path: string): Issue {
  return { code, message, path };
}

/**
 * Validates a `tool.json` value by tool-api.md §2.2 and reports every issue at once (JSON Pointers into the
 * manifest). A successful result returns the manifest unchanged except for normalized panel declarations, and the
 * warnings (unknown panel icons). Never throws.
 */
export function parseToolManifest(
  value: unknown,
  options: ParseToolManifestOptions = {},
): ParseToolManifestResult {
  if (!isObjectRecord(value)) {
    return { ok: false, issues: [issue("manifest_not_object", "tool manifest must be a JSON object", "")] };
  }
  const issues: Issue[] = [];
  const warnings: Issue[] = [];
  for (const key of Object.keys(value)) {
    // Amendment A9: a string `$schema` is an editor hint, accepted and ignored; any other value is unknown.
    if (ALLOWED.has(key) || isSchemaHint(value, key)) continue;
    issues.push(
      withHint(
        issue("manifest_unknown_field", `unknown field "${key}"`, `/${escapePointerToken(key)}`),
        didYouMean(key, TOOL_MANIFEST_FIELDS),
      ),
    );
  }
  const has = (field: string): boolean => Object.hasOwn(value, field);
  const expectedId = options.expectedId;
  let idValid = false;
  let conditionSourcesValid = true;
  let normalizedPanels: ToolPanelDeclaration[] | undefined;

  for (const field of TOOL_MANIFEST_FIELDS) {
    if (!has(field)) {
      if (REQUIRED.has(field)) {
        issues.push(issue("manifest_missing_field", `missing required field "${field}"`, `/${field}`));
      } else if (field === "effects_schema" && conditionSourcesValid && includesEffects(value)) {
        issues.push(
          issue(
            "manifest_missing_effects_schema",
            "effects_schema is required when condition_sources includes effects",
            "/effects_schema",
          ),
        );
      }
      continue;
    }
    const v = own(value, field);
    switch (field) {
      case "api_version":
        if (v !== TOOL_API_VERSION) {
          issues.push(
            issue(
              "manifest_api_version_unsupported",
              "api_version must be the number 2 (raw.tool-api/2)",
              "/api_version",
            ),
          );
        }
        break;
      case "id":
        if (!isValidToolId(v)) {
          issues.push(issue("manifest_invalid_id", `id must match ${TOOL_ID_PATTERN}`, "/id"));
        } else {
          idValid = true;
          if (expectedId !== undefined && v !== expectedId) {
            issues.push(
              issue("manifest_id_mismatch", `id "${v}" must equal the folder name "${expectedId}"`, "/id"),
            );
          }
        }
        break;
      case "version":
        if (typeof v !== "string" || !VERSION.test(v)) {
          issues.push(
            issue(
              "manifest_invalid_version",
              "version must be major.minor.patch without leading zeros",
              "/version",
            ),
          );
        }
        break;
      case "name":
        if (typeof v !== "string" || !NAME.test(v)) {
          issues.push(issue("manifest_invalid_name", `name must match ${TOOL_NAME_PATTERN}`, "/name"));
        }
        break;
      case "description":
        if (typeof v !== "string" || v.trim() === "" || utf8Bytes(v) > MAX_DESCRIPTION_BYTES) {
          issues.push(
            issue(
              "manifest_invalid_description",
              `description must be a non-empty string of at most ${MAX_DESCRIPTION_BYTES} bytes`,
              "/description",
            ),
          );
        }
        break;
      case "input_schema":
      case "effects_schema": {
        const label = `${field === "input_schema" ? "arguments" : "effects"} of ${labelId(value, idValid, expectedId)}`;
        const compiled = safeCompileObjectSchema(v, { name: label, pointer: `/${field}` });
        if (!compiled.ok) issues.push(...compiled.issues);
        break;
      }
      case "entry":
        if (typeof v !== "string" || !ENTRY.test(v)) {
          issues.push(
            issue(
              "manifest_invalid_entry",
              "entry must be a ./ relative path ending in .mjs, .js or .cjs",
              "/entry",
            ),
          );
        }
        break;
      case "condition_sources":
        if (!isValidConditionSources(v)) {
          conditionSourcesValid = false;
          issues.push(
            issue(
              "manifest_invalid_condition_sources",
              "condition_sources must hold 1 or 2 distinct values from arguments, effects",
              "/condition_sources",
            ),
          );
        }
        break;
      case "panels": {
        const checked =
          options.panels === undefined
            ? checkManifestPanels(v, "/panels", options.allIssues === true)
            : options.panels(v, "/panels");
        if (checked.ok) {
          normalizedPanels = checked.declarations;
          warnings.push(...checked.warnings);
        } else {
          issues.push(...checked.issues);
        }
        break;
      }
    }
  }

  if (!passed(value, issues)) return { ok: false, issues };
  const manifest: ToolManifest = { ...value };
  delete (manifest as { $schema?: unknown }).$schema;
  if (normalizedPanels !== undefined) manifest.panels = normalizedPanels;
  return { ok: true, manifest, warnings };
}

/** Every rule of §2.2 has checked `value` and none reported an issue: it has the shape of a `ToolManifest`. */
function passed(
  value: Record<string, unknown>,
  issues: readonly Issue[],
): value is Record<string, unknown> & ToolManifest {
  return issues.length === 0;
}

function includesEffects(value: Record<string, unknown>): boolean {
  const sources = own(value, "condition_sources");
  return Array.isArray(sources) && sources.includes("effects");
}

/**
 * The `<id>` of schema labels (§2.2): the manifest id when valid, else the expected id; with neither, the `id` as
 * written when it is a string, else an empty string.
 */
function labelId(value: Record<string, unknown>, idValid: boolean, expectedId: string | undefined): string {
  if (idValid) return value.id as string;
  if (expectedId !== undefined) return expectedId;
  const id = own(value, "id");
  return typeof id === "string" ? id : "";
}
