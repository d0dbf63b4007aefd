import { describe, expect, it } from "vitest";
import {
  ContractError,
  compileObjectSchema,
  formatValidationIssues,
  isContractError,
  safeCompileObjectSchema,
} from "../src/index.js";

const label = "arguments of demo";
const compile = (schema: unknown, pointer?: string) =>
  safeCompileObjectSchema(schema, pointer === undefined ? { name: label } : { name: label, pointer });
const issuesOf = (schema: unknown, pointer?: string) => {
  const result = compile(schema, pointer);
  return result.ok ? [] : result.issues;
};

const REMOTE = (value: string) =>
  `remote tool schema reference is unsupported: ${value}; use a local reference such as "#/$defs/<name>" and put shared definitions under $defs`;

describe("compile rules (tool-api.md §3.1)", () => {
  it.each([
    ["null", null],
    ["an array", [{ type: "object" }]],
    ["a string", "object"],
    ["a number", 2],
    ["a boolean", true],
  ])("step 1: %s is schema_unsupported at the schema pointer and nothing more", (_name, schema) => {
    expect(issuesOf(schema, "/input_schema")).toEqual([
      { code: "schema_unsupported", message: `unsupported tool schema: ${label}`, path: "/input_schema" },
    ]);
  });

  it("step 2: every $async key is reported, even $async: false, at the key's pointer", () => {
    expect(
      issuesOf({ type: "object", $async: false, properties: { a: { type: "string", $async: true } } }),
    ).toEqual([
      { code: "schema_async", message: "async tool schema is unsupported", path: "/$async" },
      { code: "schema_async", message: "async tool schema is unsupported", path: "/properties/a/$async" },
    ]);
  });

  it.each([
    ["a remote URL", "https://example.com/s.json", '"https://example.com/s.json"'],
    ["a relative URI", "defs.json#/a", '"defs.json#/a"'],
    ["the bare root reference", "#", '"#"'],
    ["an anchor", "#node", '"#node"'],
    ["a number", 5, "5"],
    ["null", null, "null"],
  ])("step 2: $ref to %s is schema_remote_ref", (_name, ref, shown) => {
    expect(issuesOf({ type: "object", properties: { a: { $ref: ref } } }, "/effects_schema")).toEqual([
      { code: "schema_remote_ref", message: REMOTE(shown), path: "/effects_schema/properties/a/$ref" },
    ]);
  });

  it("step 2: the scan reaches values under const, enum, default, examples and unknown keywords", () => {
    const issues = issuesOf({
      type: "object",
      const: { $ref: "x" },
      enum: [{ $async: 1 }],
      default: { deep: [{ $ref: "#" }] },
      examples: [{ "a/b": { $ref: "y" } }],
    });
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ["schema_remote_ref", "/const/$ref"],
      ["schema_async", "/enum/0/$async"],
      ["schema_remote_ref", "/default/deep/0/$ref"],
      ["schema_remote_ref", "/examples/0/a~1b/$ref"],
    ]);
  });

  it("step 2: a local #/ reference is accepted", () => {
    const result = compile({
      type: "object",
      properties: { a: { $ref: "#/$defs/name" } },
      $defs: { name: { type: "string" } },
    });
    expect(result.ok).toBe(true);
  });

  it.each([
    ["missing", { properties: {} }],
    ["an array", { type: ["object"] }],
    ["another type", { type: "string" }],
  ])("step 3: a root type %s fails at <pointer>/type", (_name, schema) => {
    expect(issuesOf(schema, "/input_schema")).toEqual([
      {
        code: "schema_unsupported",
        message: `unsupported tool schema: ${label}: the root must declare "type": "object"`,
        path: "/input_schema/type",
      },
    ]);
  });

  it.each([
    ["draft-04", "http://json-schema.org/draft-04/schema#"],
    ["a non-string", 7],
    ["a near miss", "https://json-schema.org/draft/2020-12/schema##"],
  ])("step 4: $schema %s is schema_draft_unsupported", (_name, declared) => {
    expect(issuesOf({ type: "object", $schema: declared })).toEqual([
      {
        code: "schema_draft_unsupported",
        message: `unsupported tool schema draft: ${label}`,
        path: "/$schema",
      },
    ]);
  });

  it("step 5: steps 2-4 are all reported together, and compilation does not run", () => {
    const issues = issuesOf({
      $schema: "nope",
      $async: true,
      properties: { a: { $ref: "#" } },
      unknownKeyword: 1,
    });
    expect(issues.map((i) => i.code)).toEqual([
      "schema_async",
      "schema_remote_ref",
      "schema_unsupported",
      "schema_draft_unsupported",
    ]);
  });

  it.each([
    ["an unknown keyword", { type: "object", propertys: {} }, "unknown keyword", "/propertys", "properties"],
    [
      "a required entry with no declared property",
      { type: "object", required: ["a"], properties: {} },
      "required",
      "/required/0",
      'declare "a" in "properties"',
    ],
    [
      "object keywords without type object",
      { type: "object", properties: { a: { properties: { b: { type: "string" } } } } },
      "strict mode",
      "/properties/a/properties",
      '"type": "object"',
    ],
    [
      "a union type",
      { type: "object", properties: { a: { type: ["string", "number"] } } },
      "union",
      "/properties/a/type",
      '"anyOf": [{ "type": "string" }, { "type": "number" }]',
    ],
    [
      "an unknown format",
      { type: "object", properties: { a: { type: "string", format: "colour" } } },
      "unknown format",
      "/properties/a/format",
      "known formats: date, time, date-time",
    ],
    [
      "a tuple without bounds",
      { type: "object", properties: { a: { type: "array", prefixItems: [{ type: "string" }] } } },
      "strict",
      "/properties/a/prefixItems",
      '"minItems": 1',
    ],
    [
      "an invalid keyword value",
      { type: "object", properties: { a: { type: "strin" } } },
      "schema is invalid",
      "/properties/a/type",
      'did you mean "string"?',
    ],
  ])(
    "step 5: %s fails to compile at the schema pointer with the validator's message appended, the keyword's pointer and a hint",
    (_name, schema, fragment, keyword, hint) => {
      const issues = issuesOf(schema, "/input_schema");
      expect(issues).toHaveLength(1);
      expect(issues[0]?.code).toBe("schema_unsupported");
      expect(issues[0]?.path).toBe("/input_schema");
      expect(issues[0]?.keywordPath).toBe(`/input_schema${keyword}`);
      expect(issues[0]?.message.startsWith(`unsupported tool schema: ${label}: `)).toBe(true);
      expect(issues[0]?.message).toContain(fragment);
      expect(issues[0]?.hint).toContain(hint);
    },
  );

  it("accepts annotations, a nullable pair, formats and a branch type given by the enclosing schema", () => {
    const result = compile({
      type: "object",
      title: "t",
      description: "d",
      $comment: "c",
      default: {},
      examples: [{}],
      properties: {
        a: { type: ["string", "null"] },
        b: { type: "string", format: "date-time" },
      },
      oneOf: [
        { properties: { a: {} }, required: ["a"] },
        { properties: { b: {} }, required: ["b"] },
      ],
    });
    expect(result.ok).toBe(true);
  });
});

describe("dialects (tool-api.md §3.2)", () => {
  const spellings = [
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft-07/schema",
    "https://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft/2019-09/schema",
    "https://json-schema.org/draft/2019-09/schema#",
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
  ];
  it.each(spellings)("%s compiles and validates", (declared) => {
    const schema = {
      $schema: declared,
      type: "object",
      required: ["a"],
      properties: { a: { type: "string" } },
    };
    const validator = compileObjectSchema(schema, { name: label });
    expect(validator.validate({ a: "x" })).toEqual([]);
    expect(validator.validate({ a: 1 })).toEqual([
      { code: "schema_violation", message: "must be string", path: "/a" },
    ]);
    expect(validator.schema).toBe(schema);
    expect(schema.$schema).toBe(declared);
  });

  it("selects the dialect's engine: draft-07 ignores prefixItems-era keywords, 2020-12 knows them", () => {
    expect(compileObjectSchema({ type: "object" }, { name: label }).dialect).toBe("2020-12");
    expect(
      compileObjectSchema(
        { $schema: "http://json-schema.org/draft-07/schema#", type: "object" },
        { name: label },
      ).dialect,
    ).toBe("draft-07");
    const draft07 = safeCompileObjectSchema(
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        $defs: {},
        dependentRequired: {},
      },
      { name: label },
    );
    expect(draft07.ok).toBe(false);
  });

  it("two schemas with the same $id compile independently", () => {
    const a = compileObjectSchema(
      { $id: "https://x/s", type: "object", properties: { a: { type: "string" } } },
      { name: label },
    );
    const b = compileObjectSchema(
      { $id: "https://x/s", type: "object", properties: { a: { type: "number" } } },
      { name: label },
    );
    expect(a.test({ a: "s" })).toBe(true);
    expect(b.test({ a: "s" })).toBe(false);
  });
});

describe("validating a value (tool-api.md §3.5)", () => {
  const validator = compileObjectSchema(
    {
      type: "object",
      required: ["payload"],
      properties: { payload: { type: "object", properties: { value: { type: "string" } } } },
    },
    { name: label },
  );

  it("reports every error with the instance pointer, formatted as the dispatcher's lines", () => {
    expect(formatValidationIssues(validator.validate({ payload: { value: 3 } }))).toBe(
      "/payload/value: must be string",
    );
    expect(formatValidationIssues(validator.validate({}))).toBe(
      "(root): must have required property 'payload'",
    );
  });

  it("reports all errors, not just the first", () => {
    const v = compileObjectSchema(
      { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } } },
      { name: label },
    );
    expect(v.validate({ a: 1, b: "x" }).map((i) => i.path)).toEqual(["/a", "/b"]);
  });

  it("never rewrites data: no coercion, no defaults, no removal", () => {
    const v = compileObjectSchema(
      { type: "object", additionalProperties: false, properties: { n: { type: "number", default: 4 } } },
      { name: label },
    );
    const value = { n: "1", extra: true };
    expect(v.validate(value).map((i) => i.message)).toEqual([
      "must NOT have additional properties",
      "must be number",
    ]);
    expect(value).toEqual({ n: "1", extra: true });
    const empty = {};
    expect(v.validate(empty)).toEqual([]);
    expect(empty).toEqual({});
  });
});

describe("the throwing form", () => {
  it("throws a ContractError carrying every issue with pointers relative to the schema root", () => {
    let caught: unknown;
    try {
      compileObjectSchema({ $async: true, properties: {} }, { name: label });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContractError);
    expect(isContractError(caught)).toBe(true);
    const error = caught as ContractError;
    expect(error.code).toBe("schema_async");
    expect(error.issues.map((i) => i.path)).toEqual(["/$async", "/type"]);
  });
});
