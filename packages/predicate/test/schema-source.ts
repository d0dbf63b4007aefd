import Type, { type Static } from "typebox";
import { MAX_ANY_BYTES, MAX_ANY_SEGMENTS, MAX_REGEX_BYTES } from "../src/limits.js";

const SEGMENT = "[A-Za-z_][A-Za-z0-9_]*(\\[\\*\\])?";

// The TypeBox source of the committed JSON Schema. It is used at build time only (by test/schemas.test.ts, which
// writes schemas/*.schema.json with `npm run schemas` and fails when they drift); the package ships the JSON.

/**
 * The predicate shape `{ source, any, regex }` (predicate.md §1) as a TypeBox schema. It expresses the shape, the
 * `any` grammar and its limits (a valid path is ASCII, so characters are bytes); the byte limit of `regex` and its
 * RE2 validity are checked by `compilePredicate`, which is the authority.
 */
export const PredicateSchemaSource = Type.Object(
  {
    source: Type.Enum(["arguments", "effects"], {
      description:
        "Where the path starts: the call's validated arguments or its intended effects. No default.",
    }),
    any: Type.String({
      minLength: 1,
      maxLength: MAX_ANY_BYTES,
      pattern: `^${SEGMENT}(\\.${SEGMENT}){0,${MAX_ANY_SEGMENTS - 1}}$`,
      description: "A dotted path with [*] on each array step, for example commands[*].command.",
    }),
    regex: Type.String({
      minLength: 1,
      maxLength: MAX_REGEX_BYTES,
      description: `An RE2 pattern of at most ${MAX_REGEX_BYTES} UTF-8 bytes, searched unanchored in every string the path reaches.`,
    }),
  },
  {
    additionalProperties: false,
    title: "Raw predicate",
    description: "A conditional predicate (raw.tool-api/2).",
  },
);

/** The static type TypeBox derives from the source; `PredicateJson` must equal it. */
export type PredicateJsonSource = Static<typeof PredicateSchemaSource>;
