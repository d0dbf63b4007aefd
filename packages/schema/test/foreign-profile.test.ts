import { describe, expect, it } from "vitest";
import { compileObjectSchema, isContractError, safeCompileObjectSchema } from "../src/index.js";

const name = "arguments of mcp/fs/write_file";
const foreign = (schema: unknown) => safeCompileObjectSchema(schema, { name, profile: "foreign" });
const strict = (schema: unknown) => safeCompileObjectSchema(schema, { name });
const codes = (r: ReturnType<typeof foreign>) => (r.ok ? [] : r.issues.map((i) => i.code));

describe("the foreign profile (MCP inputSchema the host cannot fix)", () => {
  it("accepts union types that strict mode rejects, and validates them", () => {
    const schema = { type: "object", properties: { n: { type: ["string", "number"] } } };
    expect(strict(schema).ok).toBe(false);
    const v = compileObjectSchema(schema, { name, profile: "foreign" });
    expect(v.validate({ n: 1 })).toEqual([]);
    expect(v.validate({ n: "x" })).toEqual([]);
    expect(v.validate({ n: true }).map((i) => i.path)).toEqual(["/n"]);
  });

  it("accepts unknown formats (they do not constrain) and keeps known formats checked", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string", format: "x-vendor-thing" }, b: { type: "string", format: "uri" } },
    };
    expect(codes(strict(schema))).toEqual(["schema_unsupported"]);
    const v = compileObjectSchema(schema, { name, profile: "foreign" });
    expect(v.validate({ a: "anything at all", b: "https://example.com/" })).toEqual([]);
    expect(v.validate({ a: "x", b: "not a uri" }).map((i) => i.path)).toEqual(["/b"]);
  });

  it("accepts unknown keywords and ignores them", () => {
    const schema = {
      type: "object",
      "x-ui-hint": { widget: "slider" },
      properties: { a: { type: "integer", deprecatedReason: "use b", minimum: 0 } },
      required: ["a"],
    };
    expect(strict(schema).ok).toBe(false);
    const v = compileObjectSchema(schema, { name, profile: "foreign" });
    expect(v.validate({ a: 3 })).toEqual([]);
    expect(v.validate({ a: -1 }).length).toBe(1);
    expect(v.validate({}).map((i) => i.message)).toEqual(["must have required property 'a'"]);
  });

  it("still never fetches a remote $ref: schema_remote_ref naming the reference", () => {
    const r = foreign({ type: "object", properties: { a: { $ref: "https://example.com/s.json" } } });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues[0]?.code).toBe("schema_remote_ref");
      expect(r.issues[0]?.message).toContain("https://example.com/s.json");
    }
  });

  it("still requires a root object, refuses $async and unknown dialects, and checks the meta-schema", () => {
    expect(codes(foreign({ type: "string" }))).toEqual(["schema_unsupported"]);
    expect(codes(foreign({ type: "object", $async: true }))).toEqual(["schema_async"]);
    expect(codes(foreign({ type: "object", $schema: "http://example.com/my-dialect" }))).toEqual([
      "schema_draft_unsupported",
    ]);
    expect(codes(foreign({ type: "object", properties: { a: { type: 5 } } }))).toEqual([
      "schema_unsupported",
    ]);
  });

  it("never coerces or fills defaults, and reports all errors", () => {
    const v = compileObjectSchema(
      { type: "object", properties: { a: { type: "number", default: 1 }, b: { type: "string" } } },
      { name, profile: "foreign" },
    );
    const value = { a: "2", b: 3 };
    expect(v.validate(value).map((i) => i.path)).toEqual(["/a", "/b"]);
    expect(value).toEqual({ a: "2", b: 3 });
  });

  it("does not relax the strict profile compiled afterwards (separate engines)", () => {
    const schema = { type: "object", properties: { n: { type: ["string", "null"], format: "x-y" } } };
    expect(foreign(schema).ok).toBe(true);
    expect(strict(schema).ok).toBe(false);
    expect(foreign({ ...schema, $id: "https://example.com/a" }).ok).toBe(true);
    try {
      compileObjectSchema(schema, { name });
      expect.unreachable();
    } catch (error) {
      expect(isContractError(error)).toBe(true);
    }
  });
});
