/** Code of every predicate compile issue (predicate.md §3). */
export const PREDICATE_INVALID = "predicate_invalid";

/** Code of a binding failure (predicate.md §6). */
export const PREDICATE_UNBOUND = "predicate_unbound";

/** Longest `when.any` path, in UTF-8 bytes (predicate.md §3, check 4a). */
export const MAX_ANY_BYTES = 256;

/** Most dot-separated segments in a `when.any` path (predicate.md §3, check 4b). */
export const MAX_ANY_SEGMENTS = 16;

/** Longest `when.regex` pattern, in UTF-8 bytes (predicate.md §3, check 5a). */
export const MAX_REGEX_BYTES = 1024;

/** Deepest branch the binding walk follows, in nested `reach` steps below the root (predicate.md §6.1). */
export const MAX_BIND_DEPTH = 128;

/** Longest identity glob, in UTF-8 bytes (predicate.md §8). */
export const MAX_GLOB_BYTES = 256;

/**
 * Most predicates of one path `compilePredicateSet` merges into one alternation. Larger alternations outgrow the
 * RE2 engine's state cache: each new string then rebuilds states at a cost that grows with the alternation, so
 * merging stops at this size and a path with more predicates gets several alternations (bounded merge groups).
 */
export const MAX_MERGE_GROUP = 16;
