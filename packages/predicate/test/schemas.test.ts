import { validateWith } from "@raw/schema";
import { checkCommittedSchemas } from "@raw/test-support/committed-schemas";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type PredicateJson,
  PredicateSchema,
  type PredicateSource,
  safeCompilePredicate,
} from "../src/index.js";
import { type PredicateJsonSource, PredicateSchemaSource } from "./schema-source.js";

const files = [
  [
    "predicate.schema.json",
    PredicateSchemaSource,
    PredicateSchema,
    "https://raw.tlelabs.com/schemas/raw.tool-api/2/predicate.schema.json",
  ],
] as const;

describe("the committed JSON Schema, generated at build time from its TypeBox source", () => {
  checkCommittedSchemas(files, import.meta.url);

  it("the plain types are the ones TypeBox derives from the source", () => {
    expectTypeOf<PredicateJson>().toEqualTypeOf<PredicateJsonSource>();
    expectTypeOf<PredicateSource>().toEqualTypeOf<PredicateJsonSource["source"]>();
    expect(PredicateSchema.properties.source.enum).toEqual([
      "arguments",
      "effects",
    ] satisfies PredicateSource[]);
  });
});

describe("PredicateSchema agrees with compilePredicate on shape", () => {
  it.each([
    [{ source: "arguments", any: "commands[*].command", regex: "rm" }, true],
    [{ source: "effects", any: Array.from({ length: 16 }, () => "a").join("."), regex: " " }, true],
    [{ source: "effects", any: Array.from({ length: 17 }, () => "a").join("."), regex: "x" }, false],
    [{ source: "effects", any: "a".repeat(257), regex: "x" }, false],
    [{ any: "a", regex: "x" }, false],
    [{ source: "arguments", any: "a[*][*]", regex: "x" }, false],
    [{ source: "arguments", any: "a", regex: "" }, false],
    [{ source: "arguments", any: "a", regex: "x", extra: 1 }, false],
  ])("%j → %s", (value, expected) => {
    expect(validateWith(PredicateSchema, value).length === 0).toBe(expected);
    expect(safeCompilePredicate(value).ok).toBe(expected);
  });
});
