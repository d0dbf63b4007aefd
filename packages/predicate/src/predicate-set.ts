import type { Predicate } from "./compile-predicate.js";
import { matchPredicate, type PredicateInput } from "./match-predicate.js";
import { type RegexEngine, re2jsEngine } from "./regex-engine.js";
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
 * Compiles predicates for "any of them matches". Predicates that share a source and a path are merged into one
 * walk with one alternation `(?:p1)|(?:p2)|...`: an unanchored RE2 search for an alternation is true exactly when
 * one of its branches is found, and inline flags stay scoped to their group, so the answer is unchanged while each
 * reached string is scanned once instead of once per predicate. A group whose merged pattern does not compile
 * (or that uses `\Q` quoting) keeps its predicates separate. Never throws for compiled predicates.
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
    if (list.length === 1 || list.some((p) => QUOTE.test(p.regex))) {
      separate.push(...list);
      continue;
    }
    try {
      const merged = engine.compile(list.map((p) => `(?:${p.regex})`).join("|"));
      groups.push({ source: first.source, walk: compileWalker(first.segments, merged) });
    } catch {
      separate.push(...list);
    }
  }
  const frozen = Object.freeze([...predicates]);
  return Object.freeze({
    predicates: frozen,
    matchAny(input: PredicateInput): boolean {
      try {
        for (let i = 0; i < groups.length; i++) {
          const group = groups[i] as Group;
          if (group.walk(group.source === "effects" ? input.effects : input.arguments)) return true;
        }
      } catch {
        // A hostile value (a throwing getter or proxy trap) matches nothing, as in matchPredicate.
      }
      for (let i = 0; i < separate.length; i++)
        if (matchPredicate(separate[i] as Predicate, input)) return true;
      return false;
    },
  });
}
