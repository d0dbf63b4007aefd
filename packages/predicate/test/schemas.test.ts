import { readFileSync, writeFileSync } from "node:fs";
import { serializeJsonSchema, validateWith } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { PredicateSchema, safeCompilePredicate } from "../src/index.js";

const files = [
  [
    "predicate.schema.json",
    PredicateSchema,
    "https://raw.tlelabs.com/schemas/raw.tool-api/2/predicate.schema.json",
  ],
] as const;

it.each(files)("schemas/%s matches its TypeBox source", (file, schema, id) => {
  const url = new URL(`../schemas/${file}`, import.meta.url);
  const text = serializeJsonSchema(schema, id);
  if (process.env.RAW_WRITE_SCHEMAS) writeFileSync(url, text);
  expect(readFileSync(url, "utf8")).toBe(text);
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
