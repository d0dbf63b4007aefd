/**
 * The strict walk's `stopWhenFull` option (the diagnosis of a huge schema stops at the findings it reports) and the
 * pointers of its findings, spelled only when needed: same findings, same order, same pointers as the full walk.
 */
import { describe, expect, it } from "vitest";
import { MAX_SCHEMA_FINDINGS, walkStrictSchema } from "../src/strict-schema-walk.js";

/** 201 findings spread over maps, lists, a local `$ref` target and escaped keys (the cap keeps 100). */
function manyFindings(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let k = 0; k < 100; k++) {
    properties[`p/${k}~`] = {
      anyOf: [{ type: "string", formatt: k }, { $ref: "#/$defs/d" }],
      items: [{ type: ["string", "number"] }],
    };
  }
  return { type: "object", properties, $defs: { d: { type: "number", minimun: 0 } } };
}

describe("walkStrictSchema with stopWhenFull", () => {
  it("finds exactly what the full walk finds, in the same order, and walks no further", () => {
    const schema = manyFindings();
    const full = walkStrictSchema(schema, "2020-12", "/in");
    const stopped = walkStrictSchema(schema, "2020-12", "/in", { stopWhenFull: true });
    expect(full.findings).toHaveLength(MAX_SCHEMA_FINDINGS);
    expect(full.truncated).toBe(true);
    expect(stopped.findings).toEqual(full.findings);
    expect(stopped.truncated).toBe(true);
    // The full walk goes on to every `$ref`; the stopped one ends with its 100th finding.
    expect(full.refs).toHaveLength(100);
    expect(stopped.refs.length).toBeLessThan(full.refs.length);
    expect(stopped.refs).toEqual(full.refs.slice(0, stopped.refs.length));
    expect(full.findings.slice(0, 4).map((f) => f.path)).toEqual([
      "/in/properties/p~10~0/anyOf/0/formatt",
      "/in/$defs/d/minimun",
      "/in/properties/p~10~0/items/0/type",
      "/in/properties/p~11~0/anyOf/0/formatt",
    ]);
  });

  it("a schema with fewer findings than the cap is walked whole either way", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string", formt: "uri" } },
      anyOf: [{ minimun: 1 }],
    };
    const full = walkStrictSchema(schema, "2020-12");
    expect(walkStrictSchema(schema, "2020-12", "", { stopWhenFull: true })).toEqual(full);
    expect(full.findings.map((f) => [f.path, f.hint])).toEqual([
      ["/properties/a/formt", 'did you mean "format"?'],
      ["/anyOf/0/minimun", 'did you mean "minimum"?'],
    ]);
  });

  it("positions a finding 40,000 schemas deep at its full pointer (spelled without recursion)", () => {
    let node: Record<string, unknown> = { type: "string", formatt: 1 };
    for (let i = 0; i < 40_000; i++) node = { not: node };
    const walk = walkStrictSchema(node, "2020-12");
    expect(walk.truncated).toBe(false);
    expect(walk.findings.map((f) => f.path)).toEqual([`${"/not".repeat(40_000)}/formatt`]);
  });
});
