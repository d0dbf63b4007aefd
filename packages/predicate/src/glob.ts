import { utf8Bytes } from "@raw/schema";
import { MAX_GLOB_BYTES } from "./limits.js";
import { type CompiledRegex, type RegexEngine, re2jsEngine } from "./regex-engine.js";

/** A compiled identity glob (predicate.md §8): `test` matches the whole identity, case-sensitively. */
export interface CompiledGlob {
  /** The glob as given (untrimmed). */
  readonly pattern: string;
  /** True when the glob matches the whole of `identity`; false for a non-string. Never throws. */
  test(identity: string): boolean;
}

/** Options of `compileGlob`: the RE2 engine to compile with (default `re2jsEngine`). */
export interface CompileGlobOptions {
  /** The regex engine; defaults to `re2jsEngine`. */
  engine?: RegexEngine | undefined;
}

/**
 * True for a valid identity glob: a string of 1 to 256 UTF-8 bytes that is not entirely whitespace (whitespace as
 * `String.prototype.trim` removes it). The glob itself is never trimmed.
 */
export function isValidGlob(value: unknown): value is string {
  return (
    typeof value === "string" && value.length > 0 && utf8Bytes(value) <= MAX_GLOB_BYTES && value.trim() !== ""
  );
}

const WORD = /^[A-Za-z0-9_]$/;

/** The RE2 source of a glob: `*` → `.*`, `?` → `.`, every other code point escaped; anchored, dot matches newline. */
export function globToRegex(pattern: string): string {
  let body = "";
  for (const char of pattern) {
    if (char === "*") body += ".*";
    else if (char === "?") body += ".";
    else if (WORD.test(char)) body += char;
    else body += `\\x{${(char.codePointAt(0) as number).toString(16)}}`;
  }
  return `(?s)^${body}$`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A glob whose only wildcard is one trailing `*` is a prefix test, unless the prefix ends inside a surrogate pair. */
function literalPrefix(pattern: string): string | undefined {
  const prefix = pattern.slice(0, -1);
  if (!pattern.endsWith("*") || prefix.includes("*") || prefix.includes("?")) return undefined;
  if (prefix.length > 0 && isHighSurrogate(prefix.charCodeAt(prefix.length - 1))) return undefined;
  return prefix;
}

function makeGlob(pattern: string, test: (identity: string) => boolean): CompiledGlob {
  return Object.freeze({ pattern, test });
}

/**
 * Compiles an identity glob once (predicate.md §8): anchored at both ends, case-sensitive, `*` any sequence
 * (including `/` and line breaks), `?` exactly one code point, everything else literal. Validity (`isValidGlob`) is
 * the caller's check; any string compiles.
 */
export function compileGlob(pattern: string, options?: CompileGlobOptions): CompiledGlob {
  if (typeof pattern !== "string") throw new TypeError("glob pattern must be a string");
  if (!pattern.includes("*") && !pattern.includes("?")) {
    return makeGlob(pattern, (identity) => identity === pattern);
  }
  const prefix = literalPrefix(pattern);
  if (prefix !== undefined) {
    return makeGlob(pattern, (identity) => typeof identity === "string" && identity.startsWith(prefix));
  }
  const regex: CompiledRegex = (options?.engine ?? re2jsEngine).compile(globToRegex(pattern));
  return makeGlob(pattern, (identity) => {
    if (typeof identity !== "string") return false;
    try {
      return regex.test(identity);
    } catch {
      return false;
    }
  });
}

const MAX_CACHED_GLOBS = 512;
const cache = new Map<string, CompiledGlob>();

/** Matches `identity` against `pattern` (predicate.md §8); compiled globs are cached (a bounded cache). */
export function matchGlob(pattern: string, identity: string): boolean {
  let glob = cache.get(pattern);
  if (!glob) {
    glob = compileGlob(pattern);
    if (cache.size >= MAX_CACHED_GLOBS) cache.clear();
    cache.set(pattern, glob);
  }
  return glob.test(identity);
}
