import type { Predicate } from "./compile-predicate.js";
import { MAX_MERGE_GROUP } from "./limits.js";
import { matchPredicate, type PredicateInput } from "./match-predicate.js";
import { type CompiledRegex, type RegexEngine, re2jsEngine } from "./regex-engine.js";
import { compileWalker, type Walker } from "./walker.js";

/** Several predicates evaluated together: "does any of them match this call?" in one pass per distinct path. */
export interface PredicateSet {
  /** The predicates, in the order given. */
  readonly predicates: readonly Predicate[];
  /** True when at least one predicate matches (the same answer as `predicates.some(p => matchPredicate(p, input))`). */
  matchAny(input: PredicateInput): boolean;
}

/** Options of `compilePredicateSet`. */
export interface CompilePredicateSetOptions {
  /** The engine the merged patterns are compiled with; use the engine the predicates were compiled with. */
  engine?: RegexEngine | undefined;
}

interface Group {
  readonly source: "arguments" | "effects";
  readonly walk: Walker;
}

/** `\Q` opens a quoted run that an unmatched `\E` would not close inside a group: such patterns are never merged. */
const QUOTE = /\\Q/;

/**
 * Merges `list` (predicates of one source and path, none using `\Q`) into alternations of at most
 * `MAX_MERGE_GROUP` branches each, in order. A chunk whose alternation does not compile keeps its predicates as
 * separate patterns. Returns the compiled patterns the path's strings are tested against.
 */
function mergeChunks(list: readonly Predicate[], engine: RegexEngine): CompiledRegex[] {
  const patterns: CompiledRegex[] = [];
  for (let start = 0; start < list.length; start += MAX_MERGE_GROUP) {
    const chunk = list.slice(start, start + MAX_MERGE_GROUP);
    if (chunk.length === 1) {
      patterns.push((chunk[0] as Predicate).pattern);
      continue;
    }
    try {
      patterns.push(engine.compile(chunk.map((p) => `(?:${p.regex})`).join("|")));
    } catch {
      for (const p of chunk) patterns.push(p.pattern);
    }
  }
  return patterns;
}

/** One pattern, or "any of these patterns is found", as one `CompiledRegex`. */
function anyOf(patterns: readonly CompiledRegex[]): CompiledRegex {
  if (patterns.length === 1) return patterns[0] as CompiledRegex;
  return {
    test(text: string): boolean {
      for (let i = 0; i < patterns.length; i++) if ((patterns[i] as CompiledRegex).test(text)) return true;
      return false;
    },
  };
}

/**
 * Compiles predicates for "any of them matches". Predicates that share a source and a path are walked once, and
 * their patterns are merged into alternations `(?:p1)|(?:p2)|...` of at most `MAX_MERGE_GROUP` branches: an
 * unanchored RE2 search for an alternation is true exactly when one of its branches is found, and inline flags stay
 * scoped to their group, so the answer is unchanged while each reached string is scanned once per chunk instead of
 * once per predicate. The bound keeps each alternation's automaton small: one alternation of hundreds of patterns
 * outgrows the engine's state cache and rebuilds states on every new string, so the per-call cost on unseen
 * strings grows at most linearly with the number of predicates on a path. A chunk whose merged pattern does not
 * compile (and every predicate using `\Q` quoting) keeps its patterns separate. Never throws for compiled
 * predicates.
 */
export function compilePredicateSet(
  predicates: readonly Predicate[],
  options: CompilePredicateSetOptions = {},
): PredicateSet {
  const engine = options.engine ?? re2jsEngine;
  const byPath = new Map<string, Predicate[]>();
  for (const predicate of predicates) {
    const key = `${predicate.source}\u0000${predicate.any}`;
    const list = byPath.get(key);
    if (list) list.push(predicate);
    else byPath.set(key, [predicate]);
  }
  const groups: Group[] = [];
  const separate: Predicate[] = [];
  for (const list of byPath.values()) {
    const first = list[0] as Predicate;
    if (list.length === 1) {
      separate.push(first);
      continue;
    }
    const mergeable = list.filter((p) => !QUOTE.test(p.regex));
    const patterns = mergeChunks(mergeable, engine);
    for (const p of list) if (QUOTE.test(p.regex)) patterns.push(p.pattern);
    groups.push({ source: first.source, walk: compileWalker(first.segments, anyOf(patterns)) });
  }
  const frozen = Object.freeze([...predicates]);
  return Object.freeze({
    predicates: frozen,
    matchAny(input: PredicateInput): boolean {
      for (let i = 0; i < groups.length; i++) {
        const group = groups[i] as Group;
        try {
          if (group.walk(group.source === "effects" ? input.effects : input.arguments)) return true;
        } catch {
          // A hostile value (a throwing getter or proxy trap) matches nothing on this path, as in matchPredicate;
          // the other paths are still walked.
        }
      }
      for (let i = 0; i < separate.length; i++)
        if (matchPredicate(separate[i] as Predicate, input)) return true;
      return false;
    },
  });
}
