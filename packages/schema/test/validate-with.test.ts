import Type from "typebox";
import { describe, expect, it } from "vitest";
import { serializeJsonSchema, validateWith } from "../src/index.js";

const Point = Type.Object(
  { x: Type.Number(), y: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

describe("validateWith", () => {
  it("validates against a TypeBox schema with pointer paths", () => {
    expect(validateWith(Point, { x: 1 })).toEqual([]);
    expect(validateWith(Point, { x: "1", z: 0 })).toEqual([
      { code: "schema_violation", message: "must NOT have additional properties", path: "" },
      { code: "schema_violation", message: "must be number", path: "/x" },
    ]);
  });
});

describe("serializeJsonSchema", () => {
  it("puts $schema and $id first and ends with a newline", () => {
    const text = serializeJsonSchema(Point, "https://raw.tlelabs.com/schemas/test/point.schema.json");
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed).slice(0, 2)).toEqual(["$schema", "$id"]);
    expect(parsed.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(text.endsWith("}\n")).toBe(true);
    expect(parsed.properties.x).toEqual({ type: "number" });
  });
});
