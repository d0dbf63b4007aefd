import type { Ajv as AjvCore, ValidateFunction } from "ajv";
import { createAjv, sharedAjv } from "./ajv.js";
import { issuesFromAjv, SCHEMA_VIOLATION } from "./ajv-issues.js";
import { cachedCompile, schemaCacheText } from "./compile-cache.js";
import { type Dialect, detectDialect } from "./dialect.js";
import { ContractError, type Issue, thrownMessage } from "./issue.js";
import { metaSchemaIssues } from "./meta-schema-issues.js";
import { metaSchemaErrors } from "./meta-validators.js";
import { isPlainObject } from "./plain-object.js";
import { escapePointerToken } from "./pointer.js";
import { metaFailureIssues, staticSchemaIssues, strictCompileIssues } from "./schema-diagnostics.js";

/** A compiled object schema: validates values and reports every violation as an issue. */
export interface ObjectValidator {
  /** The schema as given (never altered). */
  readonly schema: Record<string, unknown>;
  /** The dialect the schema was compiled with. */
  readonly dialect: Dialect;
  /** Every validation error of `value` as a `schema_violation` issue; an empty array means valid. */
  validate(value: unknown): Issue[];
  /** True when `value` is valid (no issue objects are built). */
  test(value: unknown): boolean;
}

/**
 * The compile profile. `strict` (the default) is tool-api.md §3 for schemas the host controls. `foreign` is for
 * schemas a host cannot fix (an MCP server's `inputSchema`): union types, unknown formats and unknown keywords are
 * accepted (an unknown format or keyword does not constrain the value); everything else is as strict — local `#/`
 * refs only (a remote `$ref` is never fetched: `schema_remote_ref`), no `$async`, root `type: "object"`, known
 * dialects, the meta-schema check, all errors, no coercion.
 */
export type SchemaProfile = "strict" | "foreign";

/** Options of `compileObjectSchema`: the label used in messages and the schema's pointer in its document. */
export interface CompileObjectSchemaOptions {
  /** Label used in messages, for example `arguments of write_file`. */
  name: string;
  /** JSON Pointer of the schema inside the validated document; issue paths are prefixed with it (default `""`). */
  pointer?: string;
  /** The compile profile (default `"strict"`); `"foreign"` relaxes Ajv's strict mode only (see `SchemaProfile`). */
  profile?: SchemaProfile;
}

/** Ajv options of the foreign profile: strict mode off (unknown keywords and formats ignored, union types), silent. */
const FOREIGN_OPTIONS = { strict: false, allowUnionTypes: true, logger: false } as const;
const foreignShared = new Map<Dialect, AjvCore>();

/** The Ajv instance a compile uses: shared per dialect and profile unless the schema declares an `$id`. */
function ajvFor(dialect: Dialect, profile: SchemaProfile, hasId: boolean): AjvCore {
  if (profile !== "foreign") return hasId ? createAjv(dialect) : sharedAjv(dialect);
  if (hasId) return createAjv(dialect, FOREIGN_OPTIONS);
  let ajv = foreignShared.get(dialect);
  if (ajv === undefined) {
    ajv = createAjv(dialect, FOREIGN_OPTIONS);
    foreignShared.set(dialect, ajv);
  }
  return ajv;
}

const NO_ISSUES: Issue[] = [];
Object.freeze(NO_ISSUES);

/**
 * Walks every nested object and array value, reporting `$async` keys and non-local `$ref`s (tool-api.md §3.1 step 2).
 * A key's pointer is spelled only for a key that is reported (the walk keeps the tokens on the way down).
 */
function scanReferences(root: unknown, base: string, issues: Issue[]): boolean {
  let hasId = false;
  const seen = new Set<object>();
  const tokens: string[] = [];
  const pointerOf = (key: string): string => {
    let out = base;
    for (const token of tokens) out += `/${escapePointerToken(token)}`;
    return `${out}/${escapePointerToken(key)}`;
  };
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        tokens.push(String(i));
        visit(node[i]);
        tokens.pop();
      }
      return;
    }
    for (const key of Object.keys(node)) {
      const value = (node as Record<string, unknown>)[key];
      if (key === "$async") {
        issues.push({
          code: "schema_async",
          message: "async tool schema is unsupported",
          path: pointerOf(key),
        });
      } else if (key === "$ref") {
        if (typeof value !== "string" || !value.startsWith("#/")) {
          issues.push({
            code: "schema_remote_ref",
            message: `remote tool schema reference is unsupported: ${jsonText(value)}; use a local reference such as "#/$defs/<name>" and put shared definitions under $defs`,
            path: pointerOf(key),
          });
        }
      } else if (key === "$id" || key === "id") {
        hasId = true;
      }
      tokens.push(key);
      visit(value);
      tokens.pop();
    }
  };
  // Deep schemas are walked with an explicit guard: a stack overflow becomes a compile issue, not a crash.
  visit(root);
  return hasId;
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Applies the object-schema compile rules of tool-api.md §3 and returns every issue found, or a validator.
 * Never throws.
 */
export function safeCompileObjectSchema(
  schema: unknown,
  options: CompileObjectSchemaOptions,
): { ok: true; validator: ObjectValidator } | { ok: false; issues: Issue[] } {
  try {
    return compileChecked(schema, options);
  } catch (error) {
    // Only an exotic value gets here (a proxy trap or a getter that throws while the schema is read).
    return {
      ok: false,
      issues: [
        {
          code: "schema_unsupported",
          message: `unsupported tool schema: ${options.name}: ${thrownMessage(error)}`,
          path: options.pointer ?? "",
        },
      ],
    };
  }
}

function compileChecked(
  schema: unknown,
  options: CompileObjectSchemaOptions,
): { ok: true; validator: ObjectValidator } | { ok: false; issues: Issue[] } {
  const at = options.pointer ?? "";
  const label = options.name;
  if (!isPlainObject(schema)) {
    return {
      ok: false,
      issues: [{ code: "schema_unsupported", message: `unsupported tool schema: ${label}`, path: at }],
    };
  }
  const issues: Issue[] = [];
  let hasId: boolean;
  try {
    hasId = scanReferences(schema, at, issues);
  } catch (error) {
    return {
      ok: false,
      issues: [
        {
          code: "schema_unsupported",
          message: `unsupported tool schema: ${label}: ${thrownMessage(error)}`,
          path: at,
        },
      ],
    };
  }
  if (schema.type !== "object") {
    issues.push({
      code: "schema_unsupported",
      message: `unsupported tool schema: ${label}: the root must declare "type": "object"`,
      path: `${at}/type`,
    });
  }
  const dialect = detectDialect(schema);
  if (dialect === undefined) {
    issues.push({
      code: "schema_draft_unsupported",
      message: `unsupported tool schema draft: ${label}`,
      path: `${at}/$schema`,
    });
  }
  const profile = options.profile ?? "strict";
  if (issues.length > 0 && dialect !== undefined && profile === "strict") {
    // The compile stops here, but the static findings of the rest of the schema are reported in the same run.
    const { $schema: _declared, ...body } = schema;
    const stopped = new Set(issues.map((issue) => issue.path ?? at));
    const found = staticSchemaIssues(body, dialect, label, at, stopped, metaSchemaErrors, hasId);
    return { ok: false, issues: [...issues, ...atSchemaPointer(found, at)] };
  }
  if (issues.length > 0 || dialect === undefined) return { ok: false, issues };

  // Every spelling of a dialect compiles identically: the engine is chosen above, so `$schema` is not passed on.
  const { $schema: _declared, ...body } = schema;
  const metaErrors = metaSchemaErrors(dialect, body);
  if (metaErrors.length > 0) {
    // Every invalid keyword value at its own pointer; the strict diagnosis adds what else it finds in the same run.
    return {
      ok: false,
      issues: atSchemaPointer(
        profile === "strict"
          ? metaFailureIssues(body, dialect, label, at, metaErrors, hasId)
          : metaSchemaIssues(metaErrors, body, label, at),
        at,
      ),
    };
  }
  let fn: ValidateFunction;
  try {
    // A schema made of JSON data compiles once per text: many tool folders share their input schemas, and each
    // compile costs a millisecond or more (and stays in Ajv's own cache).
    const text = schemaCacheText(body);
    const compile = () => ajvFor(dialect, profile, hasId).compile(body);
    fn = text === undefined ? compile() : cachedCompile(`${dialect}\u0000${profile}\u0000${text}`, compile);
  } catch (error) {
    return {
      ok: false,
      issues:
        profile === "strict"
          ? atSchemaPointer(strictCompileIssues(body, dialect, label, at, error, hasId), at)
          : [
              {
                code: "schema_unsupported",
                message: `unsupported tool schema: ${label}: ${thrownMessage(error)}`,
                path: at,
              },
            ],
    };
  }
  return { ok: true, validator: makeValidator(schema, dialect, fn) };
}

function makeValidator(
  schema: Record<string, unknown>,
  dialect: Dialect,
  fn: ValidateFunction,
): ObjectValidator {
  return Object.freeze({
    schema,
    dialect,
    validate(value: unknown): Issue[] {
      try {
        return fn(value) ? NO_ISSUES : issuesFromAjv(fn.errors);
      } catch (error) {
        return [
          { code: SCHEMA_VIOLATION, message: `cannot be validated: ${thrownMessage(error)}`, path: "" },
        ];
      } finally {
        // Ajv keeps the last error list on the function: drop it, so a huge failing value is not retained.
        fn.errors = null;
      }
    },
    test(value: unknown): boolean {
      try {
        return fn(value) as boolean;
      } catch {
        return false;
      } finally {
        fn.errors = null;
      }
    },
  });
}

/**
 * Compiles an object schema by the rules of tool-api.md §3 (dialect detection, local `#/` refs only, no `$async`,
 * root `type: "object"`, Ajv strict + allErrors + formats). Throws a `ContractError` carrying every issue.
 * `{ profile: "foreign" }` compiles a schema the host cannot fix (see `SchemaProfile`).
 */
export function compileObjectSchema(schema: unknown, options: CompileObjectSchemaOptions): ObjectValidator {
  const result = safeCompileObjectSchema(schema, options);
  if (!result.ok) throw ContractError.fromIssues(result.issues);
  return result.validator;
}

/**
 * Compile failures sit at the schema's pointer (`tool-api.md` §3.4); the offending keyword's own pointer, found by
 * the diagnosis, moves to `keywordPath` so that tools can still show the exact place.
 */
function atSchemaPointer(issues: Issue[], at: string): Issue[] {
  return issues.map((issue) =>
    issue.path === undefined || issue.path === at ? issue : { ...issue, path: at, keywordPath: issue.path },
  );
}
