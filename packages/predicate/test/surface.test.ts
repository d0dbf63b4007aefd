import { expect, it } from "vitest";
import * as api from "../src/index.js";

it("pins the public export names", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "ANY_SEGMENT_PATTERN",
      "DEFAULT_CONDITION_SOURCES",
      "MAX_ANY_BYTES",
      "MAX_ANY_SEGMENTS",
      "MAX_BIND_DEPTH",
      "MAX_GLOB_BYTES",
      "MAX_MERGE_GROUP",
      "MAX_REGEX_BYTES",
      "PREDICATE_INVALID",
      "PREDICATE_UNBOUND",
      "PredicateSchema",
      "bindPredicate",
      "compileGlob",
      "compilePredicate",
      "compilePredicateSet",
      "globCovers",
      "isValidGlob",
      "matchGlob",
      "matchPredicate",
      "re2jsEngine",
      "safeBindPredicate",
      "safeCompilePredicate",
    ]
  `);
});
