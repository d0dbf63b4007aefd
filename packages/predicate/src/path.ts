/** One step of a `when.any` path: the property `key`, spread over its array elements when `star` is true. */
export interface PathSegment {
  /** The property name (an identifier-like key). */
  readonly key: string;
  /** True for a `key[*]` segment: the property must be an array and the walk continues with each element. */
  readonly star: boolean;
}

/** The grammar every dot-separated segment of `when.any` must match (predicate.md §4). */
export const ANY_SEGMENT_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\[\*\])?$/;

const STAR_SUFFIX = "[*]";

/** Parses one segment that matches `ANY_SEGMENT_PATTERN` into a frozen `PathSegment`; undefined when it does not. */
export function parseSegment(text: string): PathSegment | undefined {
  if (!ANY_SEGMENT_PATTERN.test(text)) return undefined;
  const star = text.endsWith(STAR_SUFFIX);
  return Object.freeze({ key: star ? text.slice(0, -STAR_SUFFIX.length) : text, star });
}
