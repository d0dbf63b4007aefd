import type { Predicate } from "./compile-predicate.js";
import { MAX_MERGE_GROUP } from "./limits.js";
import { literalGate } from "./literal-gate.js";
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

/**
 * One pattern, or "any of these patterns is found", as one `CompiledRegex`. When every pattern tells the literals
 * one of which each of its matches contains (`requiredLiterals`), and they are few enough for one gate, a string
 * holding none of them is rejected by one native scan before any pattern is tested; the result then tells the
 * union of those literals in turn.
 */
function anyOf(patterns: readonly CompiledRegex[]): CompiledRegex {
  if (patterns.length === 1) return patterns[0] as CompiledRegex;
  let literals: string[] | undefined = [];
  for (const pattern of patterns) {
    const required = pattern.requiredLiterals;
    if (required === undefined) {
      literals = undefined;
      break;
    }
    literals.push(...required);
  }
  const gate = literals === undefined ? undefined : literalGate(literals);
  const all = (text: string): boolean => {
    for (let i = 0; i < patterns.length; i++) if ((patterns[i] as CompiledRegex).test(text)) return true;
    return false;
  };
  if (gate === undefined || literals === undefined) return { test: all };
  return Object.freeze({
    test: (text: string) => gate(text) && all(text),
    requiredLiterals: Object.freeze(literals),
  });
}

/**
 * The patterns of one path (predicates of one source and path). Patterns that tell their required literals are
 * tested one by one (each behind its own literal check) in chunks of at most `MAX_MERGE_GROUP`, each chunk behind
 * one gate on the union of its literals: a string that holds none of them costs one native scan per chunk, and
 * one that holds a few enters the engine only for the patterns whose literals it holds. The other patterns are
 * merged into bounded alternations (`mergeChunks`), and `\Q` patterns stay separate.
 */
function pathPatterns(list: readonly Predicate[], engine: RegexEngine): CompiledRegex[] {
  const gated: CompiledRegex[] = [];
  const mergeable: Predicate[] = [];
  const quoted: CompiledRegex[] = [];
  for (const p of list) {
    if (p.pattern.requiredLiterals !== undefined) gated.push(p.pattern);
    else if (QUOTE.test(p.regex)) quoted.push(p.pattern);
    else mergeable.push(p);
  }
  const patterns: CompiledRegex[] = [];
  for (let start = 0; start < gated.length; start += MAX_MERGE_GROUP)
    patterns.push(anyOf(gated.slice(start, start + MAX_MERGE_GROUP)));
  patterns.push(...mergeChunks(mergeable, engine), ...quoted);
  return patterns;
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
    const patterns = pathPatterns(list, engine);
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
