import {
  ContractError,
  escapePointerToken,
  type Issue,
  isObjectRecord,
  thrownMessage,
  utf8Bytes,
} from "@raw/schema";
import { MAX_ANY_BYTES, MAX_ANY_SEGMENTS, MAX_REGEX_BYTES, PREDICATE_INVALID } from "./limits.js";
import { type PathSegment, parseSegment } from "./path.js";
import type { PredicateJson, PredicateSource } from "./predicate-schema.js";
import { type CompiledRegex, type RegexEngine, re2jsEngine } from "./regex-engine.js";
import { compileWalker, type Walker } from "./walker.js";

/** Where a compiled predicate keeps its walk (not part of its JSON or its enumerable fields). */
export const WALK: unique symbol = Symbol("raw.predicate.walk");

/** Options of `compilePredicate`: the RE2 engine to compile `regex` with (default `re2jsEngine`). */
export interface CompilePredicateOptions {
  /** The regex engine; defaults to `re2jsEngine`. */
  engine?: RegexEngine | undefined;
}

/** A compiled, immutable predicate: its JSON fields, its parsed path and its regex, compiled once. */
export interface Predicate {
  /** `"arguments"` or `"effects"`. */
  readonly source: PredicateSource;
  /** The path as written. */
  readonly any: string;
  /** The RE2 pattern as written. */
  readonly regex: string;
  /** The parsed path, one entry per dot-separated segment (1 to 16). */
  readonly segments: readonly PathSegment[];
  /** The compiled pattern (unanchored search). */
  readonly pattern: CompiledRegex;
  /** The JSON form `{ source, any, regex }`. */
  toJSON(): PredicateJson;
}

/** Result of `safeCompilePredicate`. */
export type PredicateCompileResult = { ok: true; predicate: Predicate } | { ok: false; issues: Issue[] };

const FIELDS: ReadonlySet<string> = new Set(["source", "any", "regex"]);

class CompiledPredicate implements Predicate {
  readonly source: PredicateSource;
  readonly any: string;
  readonly regex: string;
  readonly segments: readonly PathSegment[];
  readonly pattern: CompiledRegex;
  declare readonly [WALK]: Walker;

  constructor(
    source: PredicateSource,
    any: string,
    regex: string,
    segments: readonly PathSegment[],
    pattern: CompiledRegex,
  ) {
    this.source = source;
    this.any = any;
    this.regex = regex;
    this.segments = segments;
    this.pattern = pattern;
    Object.defineProperty(this, WALK, { value: compileWalker(segments, pattern) });
    Object.freeze(this);
  }

  toJSON(): PredicateJson {
    return { source: this.source, any: this.any, regex: this.regex };
  }
}
Object.freeze(CompiledPredicate.prototype);

function issue(message: string, path: string): Issue {
  return { code: PREDICATE_INVALID, message, path };
}

function ownValue(input: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(input, key) ? input[key] : undefined;
}

/** Checks 4a–4c of predicate.md §3; returns the parsed segments or the first failing issue. */
function checkAny(any: unknown): readonly PathSegment[] | Issue {
  if (typeof any !== "string" || any.length === 0 || utf8Bytes(any) > MAX_ANY_BYTES) {
    return issue("when.any must be a bounded path", "/any");
  }
  const parts = any.split(".");
  if (parts.length > MAX_ANY_SEGMENTS) return issue("when.any path is too deep", "/any");
  const segments: PathSegment[] = [];
  for (const part of parts) {
    const segment = parseSegment(part);
    if (!segment) return issue(`invalid when.any path: ${any}`, "/any");
    segments.push(segment);
  }
  return Object.freeze(segments);
}

/** Checks 5a–5b of predicate.md §3; returns the compiled pattern or the first failing issue. */
function checkRegex(regex: unknown, engine: RegexEngine): { pattern: CompiledRegex } | Issue {
  if (typeof regex !== "string" || regex.length === 0 || utf8Bytes(regex) > MAX_REGEX_BYTES) {
    return issue(`when.regex must be a nonempty pattern of at most ${MAX_REGEX_BYTES} bytes`, "/regex");
  }
  try {
    return { pattern: engine.compile(regex) };
  } catch (error) {
    return issue(`invalid RE2 when.regex: ${thrownMessage(error)}`, "/regex");
  }
}

function compileChecked(input: unknown, engine: RegexEngine): PredicateCompileResult {
  if (!isObjectRecord(input)) return { ok: false, issues: [issue("when must be an object", "")] };
  const issues: Issue[] = [];
  for (const key of Object.keys(input)) {
    if (!FIELDS.has(key)) issues.push(issue(`unknown when field: ${key}`, `/${escapePointerToken(key)}`));
  }
  const source = ownValue(input, "source");
  if (source !== "arguments" && source !== "effects") {
    issues.push(issue("when.source must be arguments or effects", "/source"));
  }
  const any = ownValue(input, "any");
  const segments = checkAny(any);
  if (!Array.isArray(segments)) issues.push(segments as Issue);
  const regex = ownValue(input, "regex");
  const compiled = checkRegex(regex, engine);
  if (!("pattern" in compiled)) issues.push(compiled);
  if (issues.length > 0 || !Array.isArray(segments) || !("pattern" in compiled)) return { ok: false, issues };
  const predicate = new CompiledPredicate(
    source as PredicateSource,
    any as string,
    regex as string,
    segments as readonly PathSegment[],
    compiled.pattern,
  );
  return { ok: true, predicate };
}

/**
 * Validates a predicate by every check of predicate.md §3 and compiles its regex once. Never throws: returns the
 * predicate or every issue (code `predicate_invalid`, paths relative to the predicate).
 */
export function safeCompilePredicate(
  input: unknown,
  options?: CompilePredicateOptions,
): PredicateCompileResult {
  try {
    return compileChecked(input, options?.engine ?? re2jsEngine);
  } catch {
    // Only an exotic value (a throwing getter or proxy trap) gets here: it is not a JSON object.
    return { ok: false, issues: [issue("when must be an object", "")] };
  }
}

/**
 * Compiles a predicate (predicate.md §3). Throws a `ContractError` with code `predicate_invalid`, every issue, and
 * the issue messages joined with `; `.
 */
export function compilePredicate(input: unknown, options?: CompilePredicateOptions): Predicate {
  const result = safeCompilePredicate(input, options);
  if (!result.ok) throw ContractError.fromIssues(result.issues, PREDICATE_INVALID);
  return result.predicate;
}
