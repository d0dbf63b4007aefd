import type { PathSegment } from "./path.js";
import type { CompiledRegex } from "./regex-engine.js";

/** A compiled `any` walk: true when some string the path reaches contains a match. */
export type Walker = (value: unknown) => boolean;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Compiles the evaluation walk of predicate.md §7 for one path into a chain of small functions, built once at
 * predicate compile time: each step reads one own property of a plain (non-array) object, `[*]` steps spread
 * arrays, and the last step tests strings only. Depth-first with early exit, which gives the same answer as
 * collecting every reached value first. Each step reads the property first and rejects on its type, so the
 * own-property check only runs for values that could match.
 */
export function compileWalker(segments: readonly PathSegment[], pattern: CompiledRegex): Walker {
  const last = segments[segments.length - 1] as PathSegment;
  let next: Walker;
  let i = segments.length - 1;
  if (last.star) {
    next = (value) => typeof value === "string" && pattern.test(value);
  } else {
    // The common `...key` ending reads and tests the string in one step.
    const key = last.key;
    next = (value) => {
      if (typeof value !== "object" || value === null) return false;
      const text = (value as Record<string, unknown>)[key];
      if (typeof text !== "string" || Array.isArray(value) || !hasOwn.call(value, key)) return false;
      return pattern.test(text);
    };
    i--;
  }
  for (; i >= 0; i--) {
    const { key, star } = segments[i] as PathSegment;
    const after = next;
    next = star
      ? (value) => {
          if (typeof value !== "object" || value === null) return false;
          const taken = (value as Record<string, unknown>)[key];
          if (!Array.isArray(taken) || Array.isArray(value) || !hasOwn.call(value, key)) return false;
          for (let j = 0; j < taken.length; j++) if (after(taken[j])) return true;
          return false;
        }
      : (value) => {
          if (typeof value !== "object" || value === null) return false;
          const taken = (value as Record<string, unknown>)[key];
          if (taken === undefined || Array.isArray(value) || !hasOwn.call(value, key)) return false;
          return after(taken);
        };
  }
  return next;
}
