/**
 * Issue 8 — schema compilation and validation on hostile input (tool-api.md §3). `safeCompileObjectSchema` answers
 * any value with a validator or `schema_*` issues (never throws; `compileObjectSchema` throws only `ContractError`);
 * a compiled validator answers any value with `schema_violation` issues or none, never throws, never rewrites the
 * value, and keeps nothing of it once it returns; nothing pollutes a prototype.
 */

import { DEEP_LEVELS, expectNoPollution, hostileArguments, MiB, retainedBytes } from "@raw/test-support";
import { describe, expect, it } from "vitest";
import {
  compileObjectSchema,
  formatValidationIssues,
  isContractError,
  type ObjectValidator,
  safeCompileObjectSchema,
  snapshotJson,
  validateWith,
} from "../../src/index.js";

const SCHEMA_CODES = new Set([
  "schema_unsupported",
  "schema_remote_ref",
  "schema_async",
  "schema_draft_unsupported",
]);

function nested(levels: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let node: Record<string, unknown> = leaf;
  for (let i = 0; i < levels; i++) node = { type: "object", properties: { a: node } };
  return node;
}

const VALIDATORS: Array<[string, ObjectValidator]> = [
  ["open", compileObjectSchema({ type: "object" }, { name: "open" })],
  [
    "strict",
    compileObjectSchema(
      {
        type: "object",
        additionalProperties: false,
        properties: {
          path: { type: "string", maxLength: 4096, pattern: "^[^\\u0000]*$" },
          paths: { type: "array", maxItems: 1000, items: { type: "string", format: "uri-reference" } },
          n: { type: "integer" },
        },
      },
      { name: "strict" },
    ),
  ],
  [
    "recursive",
    compileObjectSchema(
      {
        type: "object",
        $defs: {
          node: { type: "object", properties: { a: { $ref: "#/$defs/node" }, path: { type: "string" } } },
        },
        properties: {
          a: { $ref: "#/$defs/node" },
          paths: { type: "array", items: { $ref: "#/$defs/node" } },
        },
      },
      { name: "recursive" },
    ),
  ],
  [
    "draft-07 with prototype-named properties",
    compileObjectSchema(
      JSON.parse(
        '{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":' +
          '{"__proto__":{"type":"object"},"constructor":{"type":"object"},"prototype":{"type":"string"}}}',
      ),
      { name: "draft-07" },
    ),
  ],
];

describe("adversarial: compiled validators on hostile values", () => {
  it.each(hostileArguments().map((c) => [c.name, c] as const))("%s", (_name, hostile) => {
    for (const [label, validator] of VALIDATORS) {
      const value = hostile.make();
      let issues: ReturnType<ObjectValidator["validate"]> = [];
      let valid: boolean | undefined;
      expect(() => {
        issues = validator.validate(value);
        valid = validator.test(value);
      }).not.toThrow();
      expect(valid).toBe(issues.length === 0);
      expect(issues.filter((issue) => issue.code !== "schema_violation")).toEqual([]);
      expect(typeof formatValidationIssues(issues)).toBe("string");
      expectNoPollution(`${hostile.name} / ${label}`);
    }
  });

  it("a recursive schema against 10,000 levels reports a violation instead of overflowing", () => {
    const recursive = (VALIDATORS[2] as [string, ObjectValidator])[1];
    const deep = hostileArguments()[0]?.make();
    const issues = recursive.validate(deep);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: "schema_violation", path: "" });
    expect(issues[0]?.message).toMatch(/^cannot be validated: /);
    expect(recursive.test(deep)).toBe(false);
  });

  it("a failing value is never kept by the validator once it returned (its error list is dropped)", () => {
    const strict = (VALIDATORS[1] as [string, ObjectValidator])[1];
    strict.validate({ path: "warm-up" });
    const before = retainedBytes();
    // 200,000 failing items: every error is reported (allErrors), then released with the caller's copy.
    const count = strict.validate({
      paths: new Array(200_000).fill(7),
      extra: Array(50_000).fill("x"),
    }).length;
    expect(count).toBeGreaterThan(200_000);
    expect(strict.test({ paths: new Array(200_000).fill(7) })).toBe(false);
    expect(retainedBytes() - before).toBeLessThan(4 * MiB);
  });

  it("200,000 failing items behind a recursive $ref are all reported, in order, without quadratic merging", () => {
    // Ajv merges a non-inlined $ref call's errors with concat; the compile step rewrites that to an in-place append.
    // Without it this call copies about 2·10¹⁰ array slots (minutes); with it, it is linear.
    const recursive = (VALIDATORS[2] as [string, ObjectValidator])[1];
    const paths = Array.from({ length: 200_000 }, (_, i) => `f${i}`);
    const issues = recursive.validate({ paths, a: { a: { a: 1 } } });
    expect(issues).toHaveLength(200_001);
    expect(issues[0]).toEqual({ code: "schema_violation", message: "must be object", path: "/a/a/a" });
    expect(issues[1]).toEqual({ code: "schema_violation", message: "must be object", path: "/paths/0" });
    expect(issues[200_000]?.path).toBe("/paths/199999");
    // The same list as a plain merge would give, on a size where the quadratic merge is still fast.
    const small = recursive.validate({ paths: ["x", 1, { a: 2 }, { path: 3 }], a: { path: [] } });
    expect(small.map((issue) => `${issue.path} ${issue.message}`)).toEqual([
      "/a/path must be string",
      "/paths/0 must be object",
      "/paths/1 must be object",
      "/paths/2/a must be object",
      "/paths/3/path must be string",
    ]);
  });

  it("contract schemas validated with validateWith keep nothing either", () => {
    const schema = { type: "object", properties: { list: { type: "array", items: { type: "string" } } } };
    validateWith(schema, { list: [] });
    const before = retainedBytes();
    expect(validateWith(schema, { list: new Array(200_000).fill(1) }).length).toBe(200_000);
    expect(retainedBytes() - before).toBeLessThan(4 * MiB);
  });

  it("validation never rewrites the value (no coercion, defaults or removal)", () => {
    const validator = compileObjectSchema(
      {
        type: "object",
        additionalProperties: false,
        properties: { n: { type: "integer", default: 5 }, s: { type: "string" } },
      },
      { name: "no-rewrite" },
    );
    const value = JSON.parse('{"s":1,"extra":true,"__proto__":{"x":1}}');
    const text = JSON.stringify(value);
    expect(validator.validate(value).length).toBeGreaterThan(0);
    expect(JSON.stringify(value)).toBe(text);
    expectNoPollution("no-rewrite");
  });
});

/** Hostile schemas: each compiles to a validator or to `schema_*` issues. */
const SCHEMAS: Array<[string, () => unknown]> = [
  ...hostileArguments().map((c) => [c.name, () => c.make()] as [string, () => unknown]),
  ["a schema nested 10,000 levels", () => nested(DEEP_LEVELS, { type: "string" })],
  [
    "a schema nested 10,000 levels with a remote $ref at the bottom",
    () => nested(DEEP_LEVELS, { $ref: "https://x/y" }),
  ],
  ["$ref to the root", () => ({ type: "object", properties: { a: { $ref: "#" } } })],
  ["$ref with an anchor", () => ({ type: "object", properties: { a: { $ref: "#node" } } })],
  ["$ref to a file", () => ({ type: "object", properties: { a: { $ref: "file:///etc/passwd" } } })],
  ["$ref under const", () => ({ type: "object", const: { $ref: "https://x" } })],
  ["$async false", () => ({ type: "object", $async: false })],
  ["$async deep inside examples", () => ({ type: "object", examples: [{ a: [{ $async: true }] }] })],
  [
    "a cyclic schema",
    () => {
      const schema: Record<string, unknown> = { type: "object", properties: {} };
      (schema.properties as Record<string, unknown>).self = schema;
      return schema;
    },
  ],
  ["__proto__ as a keyword", () => JSON.parse('{"type":"object","__proto__":{"type":"string"}}')],
  [
    "__proto__ as a property name",
    () => JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
  ],
  [
    "constructor.prototype keyword",
    () => JSON.parse('{"type":"object","constructor":{"prototype":{"polluted":1}}}'),
  ],
  ["an unknown $schema", () => ({ type: "object", $schema: "http://json-schema.org/draft-04/schema#" })],
  ["a $schema that is an object", () => ({ type: "object", $schema: { $ref: "x" } })],
  ["root type as an array", () => ({ type: ["object"] })],
  [
    "a catastrophic pattern (Ajv uses the u flag)",
    () => ({ type: "object", properties: { s: { type: "string", pattern: "(a+)+$" } } }),
  ],
  ["an invalid pattern", () => ({ type: "object", properties: { s: { type: "string", pattern: "(" } } })],
  ["an unknown format", () => ({ type: "object", properties: { s: { type: "string", format: "evil" } } })],
  ["a $id pointing elsewhere", () => ({ $id: "https://evil.example/s.json", type: "object" })],
  [
    "200,000 enum values",
    () => ({ type: "object", properties: { s: { enum: Array.from({ length: 200_000 }, (_, i) => i) } } }),
  ],
  [
    "a lone surrogate property name",
    () => ({ type: "object", properties: { "\ud800": { type: "string" } } }),
  ],
  ["a NUL property name", () => ({ type: "object", properties: { "a\u0000b": { type: "string" } } })],
];

describe("adversarial: compiling hostile schemas", () => {
  it.each(SCHEMAS)("%s", (name, make) => {
    let result: ReturnType<typeof safeCompileObjectSchema> | undefined;
    expect(() => {
      result = safeCompileObjectSchema(make(), { name: "arguments of t", pointer: "/input_schema" });
    }).not.toThrow();
    if (result && !result.ok) {
      expect(result.issues.length).toBeGreaterThan(0);
      expect(result.issues.filter((issue) => !SCHEMA_CODES.has(issue.code))).toEqual([]);
    }
    try {
      compileObjectSchema(make(), { name: "arguments of t" });
    } catch (error) {
      expect(isContractError(error)).toBe(true);
    }
    expectNoPollution(name);
  });

  it("a remote $ref 10,000 levels down is found (or the walk fails closed), never fetched", () => {
    const result = safeCompileObjectSchema(nested(DEEP_LEVELS, { $ref: "https://x/y" }), { name: "t" });
    expect(result.ok).toBe(false);
  });
});

describe("adversarial: snapshotJson", () => {
  it.each(hostileArguments().map((c) => [c.name, c] as const))(
    "%s gives a snapshot or a reason",
    (_name, hostile) => {
      const snapshot = snapshotJson(hostile.make(), { maxBytes: 65_536 });
      if (snapshot.ok) expect(Buffer.byteLength(JSON.stringify(snapshot.value))).toBeLessThanOrEqual(65_536);
      else expect(["unserializable", "undefined", "too_large"]).toContain(snapshot.reason);
      expectNoPollution(hostile.name);
    },
  );
});
