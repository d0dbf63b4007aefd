import type { Ajv as AjvCore, ErrorObject } from "ajv";
import { createAjv, type Dialect } from "./ajv.js";
import { sortByDocumentOrder } from "./document-order.js";
import { type Issue, thrownMessage } from "./issue.js";
import { MAX_META_ERRORS, metaSchemaIssues } from "./meta-schema-issues.js";
import { nearestName } from "./nearest-name.js";
import { isPlainObject } from "./plain-object.js";
import { escapePointerToken, parsePointer, valueAtPointer } from "./pointer.js";
import { knownFormats, schemaKeywords } from "./schema-vocabulary.js";
import {
  MAX_SCHEMA_FINDINGS,
  type StrictFinding,
  unionTypeHint,
  unknownFormatHint,
  unknownKeywordHint,
  walkStrictSchema,
} from "./strict-schema-walk.js";

/** How many times a diagnostic compile is retried after Ajv stops on an unknown format the walk did not see. */
const MAX_FORMAT_RETRIES = 32;

/** The hint of an issue no finer diagnosis covers. */
const GENERIC_HINT =
  "this schema must compile under JSON Schema strict mode (tool-api.md §3.3); fix the keyword named in the message";

/**
 * Diagnoses a schema that passed the meta-schema check but that Ajv's strict compile refused with `thrown`:
 * every strict-mode violation as a `schema_unsupported` issue at its keyword, with a hint. The walk finds what
 * does not depend on context; a second compile with strict mode set to "log" collects the rest (strictTypes,
 * strictRequired) with Ajv's own wording. When neither finds anything, Ajv's error is reported, positioned as well
 * as its message allows. Never returns an empty list; never throws.
 */
export function strictCompileIssues(
  body: Record<string, unknown>,
  dialect: Dialect,
  label: string,
  at: string,
  thrown: unknown,
  hasId = false,
): Issue[] {
  const { found, error, refs } = collectStrictFindings(body, body, dialect, at, hasId);
  if (error !== undefined) addFinding(found, locate(error, body, dialect, at, refs));
  if (found.length === 0) {
    const message = thrownMessage(thrown);
    found.push(locate(message, body, dialect, at, refs) ?? { message, path: at, hint: GENERIC_HINT });
  }
  return sortByDocumentOrder(toIssues(found, label), body, at);
}

/**
 * The issues of a strict-profile schema that failed the meta-schema check: one per invalid keyword value, plus, in
 * the same run, every strict-mode violation elsewhere. The strict compile runs on a copy without the invalid
 * keywords (Ajv cannot compile an invalid schema); a finding about a schema object that lost a keyword that way is
 * left out, as is a finding inside or around an invalid value. Never throws.
 */
export function metaFailureIssues(
  body: Record<string, unknown>,
  dialect: Dialect,
  label: string,
  at: string,
  errors: readonly ErrorObject[],
  hasId = false,
): Issue[] {
  const invalid = metaSchemaIssues(errors, body, label, at);
  let found: StrictFinding[] = [];
  try {
    const { copy, touched } = withoutInvalidKeywords(body, errors);
    const touchedAt = new Set([...touched].map((rel) => at + rel));
    found = collectStrictFindings(body, copy, dialect, at, hasId, (f) =>
      touchedAt.has(parentPointer(f.path)),
    ).found;
  } catch {
    // An exotic value (or one structuredClone refuses): the meta-schema issues alone are reported.
  }
  const covered = (path: string) =>
    invalid.some(
      (i) => i.path === path || path.startsWith(`${i.path}/`) || (i.path ?? "").startsWith(`${path}/`),
    );
  const extra = toIssues(
    found.filter((f) => !covered(f.path)),
    label,
  );
  return sortByDocumentOrder([...invalid, ...extra], body, at);
}

/**
 * A deep copy of `body` without the keywords whose values the meta-schema refused (the key holding each invalid
 * value, after trailing array indexes), and the pointers of the schema objects that lost one.
 */
function withoutInvalidKeywords(
  body: Record<string, unknown>,
  errors: readonly ErrorObject[],
): { copy: Record<string, unknown>; touched: Set<string> } {
  const copy = structuredClone(body);
  const touched = new Set<string>();
  for (const error of errors.slice(0, MAX_META_ERRORS)) {
    const tokens = parsePointer(error.instancePath) ?? [];
    while (tokens.length > 0 && /^\d+$/.test(tokens[tokens.length - 1] as string)) tokens.pop();
    const key = tokens.pop();
    if (key === undefined) continue;
    const parent = valueAtPointer(copy, tokens);
    if (!isPlainObject(parent) || !Object.hasOwn(parent, key)) continue;
    delete parent[key];
    touched.add(tokens.map((t) => `/${escapePointerToken(t)}`).join(""));
  }
  return { copy, touched };
}

/**
 * The walk's findings on `body` and the log-mode compile's on `target` (a copy of it, or itself), without repeats;
 * `skip` leaves out log-mode findings that the copy may have caused. Findings stop at `MAX_SCHEMA_FINDINGS`: once
 * the walk has that many, neither the rest of the walk nor the log-mode compile can add one, so neither runs (a
 * schema with 5,000 unknown keywords costs its first 100, not a compile of all of them), and log-mode messages
 * past the cap are not positioned.
 */
function collectStrictFindings(
  body: Record<string, unknown>,
  target: Record<string, unknown>,
  dialect: Dialect,
  at: string,
  hasId: boolean,
  skip: (finding: StrictFinding) => boolean = () => false,
): { found: StrictFinding[]; error: string | undefined; refs: Array<{ value: string; path: string }> } {
  const found: StrictFinding[] = [];
  let refs: Array<{ value: string; path: string }> = [];
  let unknownFormats: string[] = [];
  try {
    const walk = walkStrictSchema(body, dialect, at, { stopWhenFull: true });
    found.push(...walk.findings);
    refs = walk.refs;
    unknownFormats = walk.unknownFormats;
  } catch {
    // An exotic value: Ajv's own diagnosis below still runs.
  }
  // A full list takes no other finding (`addFinding`): the compile's messages and error could only be dropped.
  if (found.length >= MAX_SCHEMA_FINDINGS) return { found, error: undefined, refs };
  const { warnings, error } = logModeMessages(target, dialect, unknownFormats, hasId);
  for (const message of warnings) {
    if (found.length >= MAX_SCHEMA_FINDINGS) break;
    const finding = locate(message, body, dialect, at, refs);
    if (finding !== undefined && !skip(finding)) addFinding(found, finding);
  }
  return { found, error, refs };
}

/** Adds `finding` unless one at the same pointer (or, for a message without a location, the same message) exists. */
function addFinding(found: StrictFinding[], finding: StrictFinding | undefined): void {
  if (finding === undefined || found.length >= MAX_SCHEMA_FINDINGS) return;
  if (found.some((f) => f.path === finding.path)) return;
  if (!finding.message.includes(" at ") && found.some((f) => f.message === finding.message)) return;
  found.push(finding);
}

function toIssues(found: readonly StrictFinding[], label: string): Issue[] {
  return found.map((f) => ({
    code: "schema_unsupported",
    message: `unsupported tool schema: ${label}: ${f.message}`,
    path: f.path,
    hint: f.hint,
  }));
}

/** The pointer of the schema object holding the keyword at `path`. */
function parentPointer(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** Unknown format names a cached diagnostic instance may accumulate before it is replaced by a fresh one. */
const MAX_DIAGNOSTIC_FORMATS = 256;

type Diagnostic = { ajv: AjvCore; formats: Set<string>; sink: string[] };
const diagnostics = new Map<Dialect, Diagnostic>();

/** An Ajv of `dialect` whose strict checks log into `sink` instead of throwing (cached unless `fresh`). */
function diagnosticAjv(dialect: Dialect, fresh: boolean): Diagnostic {
  const cached = fresh ? undefined : diagnostics.get(dialect);
  if (cached !== undefined && cached.formats.size <= MAX_DIAGNOSTIC_FORMATS) return cached;
  const sink: string[] = [];
  const push = (...args: unknown[]) => {
    sink.push(args.map(String).join(" "));
  };
  const ajv = createAjv(dialect, { strict: "log", logger: { log() {}, warn: push, error: push } });
  const created = { ajv, formats: new Set<string>(), sink };
  if (!fresh) diagnostics.set(dialect, created);
  return created;
}

/**
 * Compiles `body` with an Ajv whose strict checks log instead of throwing, and returns every message logged and
 * the error that stopped the compile, if any. Unknown formats (which Ajv refuses even in log mode) are declared as
 * accepting anything on that diagnostic instance, so the compile goes on past them. A schema with an `$id` gets a
 * fresh instance (ids must not collide); the compiled schema is removed again, so nothing of it is retained.
 */
function logModeMessages(
  body: Record<string, unknown>,
  dialect: Dialect,
  formats: readonly string[],
  hasId: boolean,
): { warnings: string[]; error: string | undefined } {
  const diagnostic = diagnosticAjv(dialect, hasId);
  const { ajv, sink } = diagnostic;
  const declare = (name: string) => {
    if (diagnostic.formats.has(name)) return;
    diagnostic.formats.add(name);
    ajv.addFormat(name, true);
  };
  for (const name of formats) declare(name);
  for (let attempt = 0; attempt <= MAX_FORMAT_RETRIES; attempt++) {
    sink.length = 0;
    try {
      ajv.compile(body);
      return { warnings: [...sink], error: undefined };
    } catch (error) {
      const message = thrownMessage(error);
      const format = /^unknown format "(.*)" ignored in schema at path /.exec(message)?.[1];
      if (format !== undefined && !diagnostic.formats.has(format)) {
        declare(format);
        continue;
      }
      return { warnings: [...sink], error: message };
    } finally {
      ajv.removeSchema(body);
    }
  }
  return { warnings: [...sink], error: undefined };
}

/** Positions one of Ajv's compile messages at the keyword it is about, with a hint; undefined for no message. */
function locate(
  message: string,
  body: Record<string, unknown>,
  dialect: Dialect,
  at: string,
  refs: ReadonlyArray<{ value: string; path: string }>,
): StrictFinding | undefined {
  const where = /at (?:path )?"[^"#]*#([^"]*)"/.exec(message)?.[1];
  const rel = rebase(
    body,
    where === undefined ? undefined : fragmentToPointer(where),
    probeKeyword(message),
    refs,
  );
  const schemaAt = rel === undefined ? at : at + rel;
  let m = /missing type "([^"]+)" for keyword "([^"]+)"/.exec(message);
  if (m) {
    return {
      message,
      path: `${schemaAt}/${escapePointerToken(m[2] as string)}`,
      hint: `"${m[2]}" applies to ${m[1]} values only: add "type": "${(m[1] as string).split(",")[0]}" to this schema (or to the schema around its anyOf/oneOf/allOf)`,
    };
  }
  if (message.includes("use allowUnionTypes")) {
    const node = nodeAt(body, rel);
    const types = isPlainObject(node) && Array.isArray(node.type) ? node.type.map(String) : [];
    return { message, path: `${schemaAt}/type`, hint: unionTypeHint(types) };
  }
  m = /type "([^"]+)" not allowed by context "([^"]*)"/.exec(message);
  if (m) {
    return {
      message,
      path: `${schemaAt}/type`,
      hint: `the enclosing schema allows only "${m[2]}" here: make this "type" one of those, or widen the enclosing "type"`,
    };
  }
  m = /required property "(.*)" is not defined at /.exec(message);
  if (m) return requiredFinding(message, m[1] as string, body, rel, schemaAt);
  m = /unknown format "(.*)" ignored/.exec(message);
  if (m)
    return { message, path: `${schemaAt}/format`, hint: unknownFormatHint(m[1] as string, knownFormats()) };
  m = /^strict mode: "(items|prefixItems)" is (\d+)-tuple/.exec(message);
  if (m) {
    return {
      message,
      path: `${schemaAt}/${m[1]}`,
      hint: `a tuple needs "minItems": ${m[2]} and "maxItems": ${m[2]} beside "${m[1]}"`,
    };
  }
  m = /^strict mode: unknown keyword: "(.*)"$/.exec(message);
  if (m) {
    const key = m[1] as string;
    return {
      message,
      path: `${at}/${escapePointerToken(key)}`,
      hint: unknownKeywordHint(key, schemaKeywords(dialect), dialect),
    };
  }
  m = /^can't resolve reference (\S+)/.exec(message);
  if (m) {
    const ref = refs.find((r) => r.value === m?.[1]);
    return {
      message,
      path: ref?.path ?? at,
      hint: `nothing exists at ${m[1]}: define the schema there (for example under "$defs") or fix the pointer`,
    };
  }
  return { message, path: schemaAt, hint: GENERIC_HINT };
}

function requiredFinding(
  message: string,
  name: string,
  body: Record<string, unknown>,
  rel: string | undefined,
  schemaAt: string,
): StrictFinding {
  const node = nodeAt(body, rel);
  const required = isPlainObject(node) && Array.isArray(node.required) ? node.required : [];
  const index = required.indexOf(name);
  const declared = isPlainObject(node) && isPlainObject(node.properties) ? Object.keys(node.properties) : [];
  const near = nearestName(name, declared);
  const path = index >= 0 ? `${schemaAt}/required/${index}` : `${schemaAt}/required`;
  const hint =
    near !== undefined
      ? `did you mean "${near}"? Every name in "required" must be declared in "properties" beside it`
      : `declare "${name}" in "properties" beside "required" (for example "${name}": { "type": "string" }), or remove it from "required"`;
  return { message, path, hint };
}

/** The keyword a located compile message is about, so that its schema can be found in the document. */
function probeKeyword(message: string): string | undefined {
  const missing = /missing type "[^"]+" for keyword "([^"]+)"/.exec(message);
  if (missing) return missing[1];
  if (/allowUnionTypes|not allowed by context/.test(message)) return "type";
  if (message.includes("(strictRequired)")) return "required";
  if (message.startsWith("unknown format")) return "format";
  return /^strict mode: "(items|prefixItems)" is \d+-tuple/.exec(message)?.[1];
}

/**
 * Ajv prints the schema path of a separately compiled `$ref` target (a recursive definition) relative to that
 * target. A path that does not lead to a schema holding `keyword` is therefore tried under each local `$ref` target.
 */
function rebase(
  body: Record<string, unknown>,
  rel: string | undefined,
  keyword: string | undefined,
  refs: ReadonlyArray<{ value: string }>,
): string | undefined {
  if (rel === undefined) return undefined;
  const holds = (candidate: string): boolean => {
    const node = nodeAt(body, candidate);
    return isPlainObject(node) && (keyword === undefined || Object.hasOwn(node, keyword));
  };
  if (holds(rel)) return rel;
  for (const ref of refs) {
    if (!ref.value.startsWith("#/")) continue;
    const base = fragmentToPointer(ref.value.slice(1));
    if (base !== undefined && holds(base + rel)) return base + rel;
  }
  return rel;
}

/** The value at a pointer relative to the schema root (`""` is the root), or undefined. */
function nodeAt(body: Record<string, unknown>, rel: string | undefined): unknown {
  const tokens = rel === undefined ? undefined : parsePointer(rel);
  return tokens === undefined ? undefined : valueAtPointer(body, tokens);
}

/** Ajv's schema-path fragment (`/properties/a%20b`) as a JSON Pointer; undefined when it is not one. */
function fragmentToPointer(fragment: string): string | undefined {
  if (fragment === "") return "";
  if (!fragment.startsWith("/")) return undefined;
  try {
    return fragment
      .slice(1)
      .split("/")
      .map((t) => `/${decodeURIComponent(t)}`)
      .join("");
  } catch {
    return undefined;
  }
}

/**
 * The findings of a strict-profile schema whose compile stops before Ajv runs (a remote `$ref`, `$async`, a root
 * that is not `type: "object"`), so that one run reports them all: the schema is diagnosed as if the keywords at
 * `stopped` (the pointers of the issues that stopped the compile: `$ref` and `$async` keys) were not there, so every
 * keyword value of the wrong type (the meta-schema check) and every strict-mode violation (unknown keywords with the
 * nearest valid one, union types, unknown formats, untyped nested `properties`, ...) is reported, at its keyword.
 * A finding at a pointer in `stopped` is left out. Never throws.
 */
export function staticSchemaIssues(
  body: Record<string, unknown>,
  dialect: Dialect,
  label: string,
  at: string,
  stopped: ReadonlySet<string>,
  metaErrorsOf: (dialect: Dialect, body: Record<string, unknown>) => readonly ErrorObject[],
  hasId = false,
): Issue[] {
  try {
    const copy = structuredClone(body);
    for (const path of stopped) {
      const tokens = path.startsWith(at) ? parsePointer(path.slice(at.length)) : undefined;
      const key = tokens?.pop();
      if (tokens === undefined || key === undefined) continue;
      const parent = valueAtPointer(copy, tokens);
      if (isPlainObject(parent)) delete parent[key];
    }
    // A root without "type" is reported as such; its object keywords are not reported again as untyped.
    if (stopped.has(`${at}/type`) && copy.type === undefined) copy.type = "object";
    const metaErrors = metaErrorsOf(dialect, copy);
    if (metaErrors.length > 0) {
      return metaFailureIssues(copy, dialect, label, at, metaErrors, hasId).filter(
        (issue) => !stopped.has(issue.path ?? at),
      );
    }
    const { found, error, refs } = collectStrictFindings(copy, copy, dialect, at, hasId);
    if (error !== undefined) addFinding(found, locate(error, copy, dialect, at, refs));
    return sortByDocumentOrder(
      toIssues(
        found.filter((f) => !stopped.has(f.path)),
        label,
      ),
      copy,
      at,
    );
  } catch {
    // An exotic value (or one structuredClone refuses): the issues that stopped the compile alone are reported.
    return [];
  }
}
