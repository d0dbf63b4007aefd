/**
 * Issue 13 item 2 — property: over generated schemas (valid keywords, typos, union types, known and unknown formats,
 * tuples, conditionals, required lists, nested applicators, `$defs` and local `$ref`s), the strict compile
 * (a) never throws, (b) accepts exactly what stock Ajv strict (with its own meta-schema check) accepts, (c) answers a
 * rejection with issues that each carry a hint and point at a value that exists in the schema, and (d) the walk
 * alone never reports a violation in a schema that Ajv accepts.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import * as formatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePointer, safeCompileObjectSchema } from "../../src/index.js";
import { walkStrictSchema } from "../../src/strict-schema-walk.js";

const SEED = 20_261_213;
const RUNS = 400;
type Plugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((formatsModule as unknown as { default?: Plugin }).default ??
  formatsModule) as unknown as Plugin;

const stock = addFormats(new Ajv2020({ strict: true, allErrors: true, logger: false }));
function stockAccepts(schema: object): boolean {
  try {
    stock.compile(schema);
    return true;
  } catch {
    return false;
  } finally {
    stock.removeSchema(schema);
  }
}

function exists(root: unknown, path: string): boolean {
  const tokens = parsePointer(path);
  if (tokens === undefined) return false;
  let node = root;
  for (const token of tokens) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, token)) return false;
    node = (node as Record<string, unknown>)[token];
  }
  return true;
}

const NAMES = ["path", "content", "mode", "n"];
const name = fc.constantFrom(...NAMES);
const typeName = fc.constantFrom(
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "null",
  "strng",
);
const typeValue = fc.oneof(
  typeName,
  fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 }),
  fc.constant(["string", "null"]),
);
const format = fc.constantFrom("uri", "date-time", "email", "colour", "date-tme", "file-path");

/** A generated subschema of at most `depth` levels, with at most 4 keywords (so schemas stay small). */
function schemaOf(depth: number): fc.Arbitrary<Record<string, unknown>> {
  const leaf = {
    type: typeValue,
    format,
    minimum: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant("0")),
    maxLength: fc.nat(10),
    maxLenght: fc.nat(10),
    requried: fc.array(name, { maxLength: 2 }),
    description: fc.string({ maxLength: 5 }),
    "x-vendor": fc.constant(true),
    nullable: fc.boolean(),
    required: fc.uniqueArray(name, { maxLength: 3 }),
    minItems: fc.nat(2),
    maxItems: fc.nat(2),
    minContains: fc.nat(2),
    $ref: fc.constantFrom("#/$defs/a", "#/$defs/missing"),
  };
  const sub = depth <= 0 ? fc.constant({ type: "string" }) : schemaOf(depth - 1);
  const nested = {
    properties: fc.dictionary(name, sub, { maxKeys: 2 }),
    anyOf: fc.array(sub, { minLength: 1, maxLength: 2 }),
    items: sub,
    prefixItems: fc.array(sub, { maxLength: 2 }),
    if: sub,
    then: sub,
    contains: sub,
  };
  const all: Record<string, fc.Arbitrary<unknown>> = { ...leaf, ...(depth > 0 ? nested : {}) };
  const keys = Object.keys(all);
  return fc
    .uniqueArray(fc.constantFrom(...keys), { maxLength: 4 })
    .chain((chosen) =>
      fc.record(Object.fromEntries(chosen.map((k) => [k, all[k] as fc.Arbitrary<unknown>]))),
    );
}
const schema = schemaOf(2);

const rootSchema = fc
  .record(
    {
      properties: fc.dictionary(name, schema, { maxKeys: 3 }),
      required: fc.uniqueArray(name, { maxLength: 2 }),
      $defs: fc.record({ a: schema }, { requiredKeys: [] }),
      additionalProperties: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .map((s) => ({ type: "object", ...s }));

describe("the strict compile and its walk agree with Ajv", () => {
  it("never throws, accepts exactly what Ajv accepts, and positions every rejection with a hint", () => {
    let rejected = 0;
    fc.assert(
      fc.property(rootSchema, (s) => {
        const result = safeCompileObjectSchema(s, { name: "arguments of p" });
        expect(result.ok).toBe(stockAccepts(s));
        const walk = walkStrictSchema(s, "2020-12");
        if (walk.findings.length > 0) expect(result.ok).toBe(false);
        if (!result.ok) {
          rejected++;
          expect(result.issues.length).toBeGreaterThan(0);
          for (const issue of result.issues) {
            expect(issue.code).toMatch(/^schema_/);
            if (issue.code === "schema_unsupported") expect(issue.hint ?? "").not.toBe("");
            expect(exists(s, issue.path ?? "")).toBe(true);
          }
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The generator exercises both outcomes.
    expect(rejected).toBeGreaterThan(RUNS / 10);
    expect(rejected).toBeLessThan(RUNS);
  }, 60_000);
});
