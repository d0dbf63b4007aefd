import { deepFreeze } from "@raw/schema";

/** Deepest plain-JSON nesting copied by the fast path; deeper (or cyclic) values take the structured clone. */
const MAX_FAST_DEPTH = 64;

const FALLBACK = Symbol("fallback");

function copy(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) {
    // Functions and symbols cannot be cloned: the structured clone reports them.
    if (typeof value === "function" || typeof value === "symbol") throw FALLBACK;
    return value;
  }
  if (depth > MAX_FAST_DEPTH) throw FALLBACK;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw FALLBACK;
    const length = value.length;
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) out[i] = copy(value[i], depth + 1);
    return Object.freeze(out);
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw FALLBACK;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = copy((value as Record<string, unknown>)[key], depth + 1);
    if (key === "__proto__") {
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = item;
    }
  }
  return Object.freeze(out);
}

/**
 * A deep-frozen structured clone of `value` (tool-api.md §7.4); `value` is never mutated. Plain JSON data is
 * copied and frozen in one pass; anything else (class instances, dates, cycles, very deep values) goes through
 * `structuredClone` and `deepFreeze`. Throws when the value cannot be cloned (functions, symbols, ...).
 */
export function frozenClone<T>(value: T): T {
  try {
    return copy(value, 0) as T;
  } catch (error) {
    if (error !== FALLBACK) throw error;
  }
  return deepFreeze(structuredClone(value));
}
