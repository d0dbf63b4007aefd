/**
 * Issue 8 — property: the linear error merge that replaces Ajv's `concat` for non-inlined `$ref` calls reports
 * exactly the errors, in exactly the order, that unmodified Ajv reports, for arbitrary JSON against schemas with
 * recursive and chained references, combinators and arrays.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileObjectSchema, issuesFromAjv } from "../../src/index.js";

const SEED = 20_261_209;

const SCHEMAS = [
  {
    type: "object",
    $defs: {
      node: {
        type: "object",
        properties: {
          a: { $ref: "#/$defs/node" },
          path: { type: "string" },
          list: { type: "array", items: { $ref: "#/$defs/node" } },
        },
      },
    },
    properties: { a: { $ref: "#/$defs/node" }, paths: { type: "array", items: { $ref: "#/$defs/node" } } },
  },
  {
    type: "object",
    $defs: {
      a: { type: "object", required: ["b"], properties: { b: { $ref: "#/$defs/b" } } },
      b: { anyOf: [{ type: "string", minLength: 2 }, { $ref: "#/$defs/c" }] },
      c: { type: "array", maxItems: 3, items: { $ref: "#/$defs/a" } },
    },
    properties: { x: { type: "array", items: { $ref: "#/$defs/a" } }, y: { $ref: "#/$defs/b" } },
  },
  {
    type: "object",
    $defs: { t: { oneOf: [{ type: "integer" }, { type: "array", items: { $ref: "#/$defs/t" } }] } },
    additionalProperties: { $ref: "#/$defs/t" },
  },
];

const plain = new Ajv2020({ strict: true, allErrors: true, addUsedSchema: false });
const pairs = SCHEMAS.map((schema, i) => ({
  ours: compileObjectSchema(schema, { name: `s${i}` }),
  reference: plain.compile(structuredClone(schema)),
}));

describe("property: the linear error merge equals Ajv's own", () => {
  it("same issues, same order, for arbitrary JSON", () => {
    const value = fc.dictionary(
      fc.constantFrom("a", "paths", "path", "list", "x", "y", "b", "z"),
      fc.jsonValue({ maxDepth: 5 }),
      { maxKeys: 5 },
    );
    let merged = 0;
    fc.assert(
      fc.property(value, (input) => {
        for (const { ours, reference } of pairs) {
          const expected = reference(input) ? [] : issuesFromAjv(reference.errors);
          expect(ours.validate(input)).toEqual(expected);
          if (expected.length > 1) merged++;
        }
      }),
      { seed: SEED, numRuns: 1000 },
    );
    // The runs are not vacuous: many inputs fail in several referenced subschemas at once.
    expect(merged).toBeGreaterThan(300);
  });
});
