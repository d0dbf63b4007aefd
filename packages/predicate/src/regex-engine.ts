import { RE2JS } from "re2js";

/** A compiled pattern: `test` is an unanchored search (true when the pattern matches any substring). */
export interface CompiledRegex {
  /** True when the pattern is found anywhere in `text`. */
  test(text: string): boolean;
}

/**
 * An RE2 implementation behind the small interface of predicate.md §5: `compile` throws an error carrying a
 * message for an invalid pattern. Hosts pass another engine as `{ engine }`; nothing is installed globally.
 */
export interface RegexEngine {
  /** Compiles `pattern` with RE2 syntax and default flags (none); throws an `Error` with a message when invalid. */
  compile(pattern: string): CompiledRegex;
}

/**
 * The default engine: re2js with no flags. The compiled `RE2JS` object is returned as is, since its `test` is the
 * fastest unanchored search re2js offers (it skips the `Matcher` and capture bookkeeping).
 */
export const re2jsEngine: RegexEngine = Object.freeze({
  compile(pattern: string): CompiledRegex {
    return RE2JS.compile(pattern);
  },
});
