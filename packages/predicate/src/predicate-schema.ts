import committed from "../schemas/predicate.schema.json" with { type: "json" };

const { $schema: _dialect, $id: _id, ...schema } = committed;

/**
 * The predicate shape `{ source, any, regex }` (predicate.md §1) as a plain JSON Schema (2020-12) object: the
 * committed `schemas/predicate.schema.json` without `$schema` and `$id`, generated from its TypeBox source at build
 * time (`test/schema-source.ts`; `npm run schemas` regenerates it, a test fails on drift), so TypeBox is not needed at
 * run time. It expresses the shape, the `any` grammar and its limits (a valid path is ASCII, so characters are
 * bytes); the byte limit of `regex` and its RE2 validity are checked by `compilePredicate`, which is the authority.
 */
export const PredicateSchema = schema;

/** Where a predicate starts: the call's arguments or its intended effects. */
export type PredicateSource = "arguments" | "effects";

/** The JSON form of a predicate: `{ source, any, regex }`. */
export type PredicateJson = {
  /** Where the path starts: the call's validated arguments or its intended effects. No default. */
  source: PredicateSource;
  /** A dotted path with `[*]` on each array step, for example `commands[*].command`. */
  any: string;
  /** An RE2 pattern, searched unanchored in every string the path reaches. */
  regex: string;
};
