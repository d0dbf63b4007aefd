import { type Predicate, WALK } from "./compile-predicate.js";
import type { PathSegment } from "./path.js";
import type { CompiledRegex } from "./regex-engine.js";

/** The values one call offers a predicate: the frozen arguments and, when the tool has a descriptor, its effects. */
export interface PredicateInput {
  /** The call's validated arguments. */
  readonly arguments?: unknown;
  /** The call's intended effects. */
  readonly effects?: unknown;
}

/**
 * Depth-first form of the walk of predicate.md §7: it stops at the first matching string, which gives the same
 * answer as collecting every reached value first, without building any list.
 */
function reachesMatch(
  value: unknown,
  segments: readonly PathSegment[],
  i: number,
  pattern: CompiledRegex,
): boolean {
  if (i === segments.length) return typeof value === "string" && pattern.test(value);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const segment = segments[i] as PathSegment;
  const key = segment.key;
  if (!Object.hasOwn(value, key)) return false;
  const taken = (value as Record<string, unknown>)[key];
  if (!segment.star) return reachesMatch(taken, segments, i + 1, pattern);
  if (!Array.isArray(taken)) return false;
  for (let j = 0; j < taken.length; j++) {
    if (reachesMatch(taken[j], segments, i + 1, pattern)) return true;
  }
  return false;
}

/**
 * Evaluates a compiled predicate against one call (predicate.md §7): own properties only, arrays spread only at
 * `[*]`, non-strings ignored, unanchored search. An absent source or field gives false. Never throws.
 */
export function matchPredicate(predicate: Predicate, input: PredicateInput): boolean {
  try {
    const start = predicate.source === "effects" ? input.effects : input.arguments;
    if (start === undefined) return false;
    const walk = (predicate as { [WALK]?: (value: unknown) => boolean })[WALK];
    return walk ? walk(start) : reachesMatch(start, predicate.segments, 0, predicate.pattern);
  } catch {
    return false;
  }
}
