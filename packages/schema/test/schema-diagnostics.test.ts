/**
 * Issue 13 item 2 — every strict-mode violation of a schema in one run, each `schema_unsupported` issue at the
 * pointer of its offending keyword, with the validator's wording appended to the contract message and a hint.
 */
import { describe, expect, it } from "vitest";
import { compileObjectSchema, type Issue, safeCompileObjectSchema } from "../src/index.js";

const label = "arguments of demo";
const PREFIX = `unsupported tool schema: ${label}: `;
const issuesOf = (schema: unknown, pointer = "/input_schema"): Issue[] => {
  const result = safeCompileObjectSchema(schema, { name: label, pointer });
  return result.ok ? [] : result.issues;
};
/** The keyword rows of issues that all sit at the schema's pointer (tool-api.md §3.4). */
const rows = (issues: Issue[]) => {
  const at = issues[0]?.path ?? "";
  expect(issues.every((i) => i.path === at && (i.keywordPath ?? "").startsWith(`${at}/`))).toBe(true);
  return issues.map((i) => [i.keywordPath, i.message.slice(PREFIX.length), i.hint]);
};

describe("all strict-mode violations at once", () => {
  it("reports ten planted mistakes of one schema in one run, in document order, each at its keyword", () => {
    const schema = {
      type: "object",
      requried: ["path"],
      properties: {
        path: { type: "string", format: "file-path" },
        mode: { type: ["boolean", "string"] },
        when: { type: "string", format: "date-tme" },
        tags: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
        options: { properties: { force: { type: "boolean" } } },
        size: { type: "string", minimum: 0 },
        name: { type: "string", maxLenght: 64 },
        pick: { if: { type: "string" } },
      },
      required: ["path", "nmae"],
    };
    expect(rows(issuesOf(schema))).toEqual([
      ["/input_schema/requried", 'strict mode: unknown keyword: "requried"', 'did you mean "required"?'],
      [
        "/input_schema/properties/path/format",
        'unknown format "file-path" ignored in schema at path "#/properties/path"',
        expect.stringMatching(/^known formats: date, time, date-time, .*uri.*; or remove "format"/),
      ],
      [
        "/input_schema/properties/mode/type",
        'strict mode: use allowUnionTypes to allow union type keyword at "#/properties/mode" (strictTypes)',
        'write "anyOf": [{ "type": "boolean" }, { "type": "string" }] instead; a "type" list is accepted only as one type paired with "null", such as ["string", "null"]',
      ],
      [
        "/input_schema/properties/when/format",
        'unknown format "date-tme" ignored in schema at path "#/properties/when"',
        expect.stringMatching(/^did you mean "date-time"\? known formats: date, /),
      ],
      [
        "/input_schema/properties/tags/prefixItems",
        'strict mode: "prefixItems" is 2-tuple, but minItems or maxItems/items are not specified or different at path "#/properties/tags"',
        expect.stringContaining('needs "minItems": 2 and either "maxItems": 2 or "items": false'),
      ],
      [
        "/input_schema/properties/options/properties",
        'strict mode: missing type "object" for keyword "properties" at "#/properties/options" (strictTypes)',
        expect.stringContaining('add "type": "object" to this schema'),
      ],
      [
        "/input_schema/properties/size/minimum",
        'strict mode: missing type "number" for keyword "minimum" at "#/properties/size" (strictTypes)',
        expect.stringContaining('"minimum" applies to number values only: add "type": "number"'),
      ],
      [
        "/input_schema/properties/name/maxLenght",
        'strict mode: unknown keyword: "maxLenght"',
        'did you mean "maxLength"?',
      ],
      [
        "/input_schema/properties/pick/if",
        'strict mode: "if" without "then" and "else" is ignored',
        'add "then" and/or "else" beside "if", or remove "if"',
      ],
      [
        "/input_schema/required/1",
        'strict mode: required property "nmae" is not defined at "#" (strictRequired)',
        'did you mean "name"? Every name in "required" must be declared in "properties" beside it',
      ],
    ]);
  });

  it("reports invalid keyword values (meta-schema) each at its keyword, together with the strict findings", () => {
    const issues = issuesOf({
      type: "object",
      properties: {
        a: { type: "strng" },
        b: { type: ["boolean", "nul"] },
        c: { type: "integer", minimum: "0", descripton: "x" },
        d: { type: "array", items: 5 },
      },
      required: "a",
    });
    expect(rows(issues)).toEqual([
      [
        "/input_schema/properties/a/type",
        "schema is invalid: data/properties/a/type must be equal to one of the allowed values",
        'did you mean "string"? JSON Schema types are "string", "number", "integer", "boolean", "object", "array", "null"',
      ],
      [
        "/input_schema/properties/b/type/1",
        "schema is invalid: data/properties/b/type/1 must be equal to one of the allowed values",
        expect.stringMatching(/^did you mean "null"\? JSON Schema types are/),
      ],
      [
        "/input_schema/properties/c/minimum",
        "schema is invalid: data/properties/c/minimum must be number",
        'the value of "minimum" must be number',
      ],
      [
        "/input_schema/properties/c/descripton",
        'strict mode: unknown keyword: "descripton"',
        'did you mean "description"?',
      ],
      [
        "/input_schema/properties/d/items",
        "schema is invalid: data/properties/d/items must be object,boolean",
        'the value of "items" must be a schema (a JSON object such as { "type": "string" }, or true/false)',
      ],
      [
        "/input_schema/required",
        "schema is invalid: data/required must be array",
        '"required" is a list of distinct property names, such as ["path"]',
      ],
    ]);
  });

  it("an invalid keyword value does not hide the context checks (strictTypes, strictRequired) of the rest", () => {
    const issues = issuesOf({
      type: "object",
      properties: {
        count: { type: "strng", minLength: 1 },
        opts: { properties: { force: { type: "boolean" } } },
      },
      required: ["count", "lien"],
    });
    expect(issues.map((i) => [i.keywordPath, i.message.slice(PREFIX.length)])).toEqual([
      [
        "/input_schema/properties/count/type",
        "schema is invalid: data/properties/count/type must be equal to one of the allowed values",
      ],
      [
        "/input_schema/properties/opts/properties",
        'strict mode: missing type "object" for keyword "properties" at "#/properties/opts" (strictTypes)',
      ],
      [
        "/input_schema/required/1",
        'strict mode: required property "lien" is not defined at "#" (strictRequired)',
      ],
    ]);
  });

  it("reaches $ref targets and reports a violation inside a definition at the definition's pointer", () => {
    const issues = issuesOf(
      {
        type: "object",
        properties: { a: { $ref: "#/$defs/item" }, b: { $ref: "#/$defs/item" } },
        $defs: {
          item: { type: "object", properties: { n: { type: "number", exclusiveMinimun: 0 } } },
          unused: {},
        },
      },
      "",
    );
    expect(rows(issues)).toEqual([
      [
        "/$defs/item/properties/n/exclusiveMinimun",
        'strict mode: unknown keyword: "exclusiveMinimun"',
        'did you mean "exclusiveMinimum"?',
      ],
    ]);
  });

  it("a local $ref to nothing is reported at the $ref, with Ajv's wording and a hint", () => {
    const issues = issuesOf({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } });
    expect(issues).toEqual([
      {
        code: "schema_unsupported",
        message: expect.stringMatching(
          /^unsupported tool schema: arguments of demo: can't resolve reference #\/\$defs\/missing/,
        ),
        path: "/input_schema",
        keywordPath: "/input_schema/properties/a/$ref",
        hint: 'nothing exists at #/$defs/missing: define the schema there (for example under "$defs") or fix the pointer',
      },
    ]);
  });

  it("an unreferenced definition is not compiled, exactly as Ajv does", () => {
    expect(
      safeCompileObjectSchema({ type: "object", $defs: { unused: { bogus: 1 } } }, { name: label }).ok,
    ).toBe(true);
  });

  it("uses each dialect's own tuple spelling and vocabulary", () => {
    const draft07 = "http://json-schema.org/draft-07/schema#";
    expect(
      rows(
        issuesOf({
          $schema: draft07,
          type: "object",
          properties: {
            t: { type: "array", items: [{ type: "string" }] },
            u: { type: "array", prefixItems: [] },
          },
        }),
      ),
    ).toEqual([
      [
        "/input_schema/properties/t/items",
        'strict mode: "items" is 1-tuple, but minItems or maxItems/additionalItems are not specified or different at path "#/properties/t"',
        expect.stringContaining('"additionalItems": false'),
      ],
      [
        "/input_schema/properties/u/prefixItems",
        'strict mode: unknown keyword: "prefixItems"',
        expect.stringContaining('"prefixItems" is not a JSON Schema draft-07 keyword'),
      ],
    ]);
  });

  it("a required name that is declared elsewhere gets the nearest declared name, positioned at its entry", () => {
    const issues = issuesOf({
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "contnet"],
    });
    expect(issues.map((i) => [i.keywordPath, i.hint])).toEqual([
      [
        "/input_schema/required/1",
        'did you mean "content"? Every name in "required" must be declared in "properties" beside it',
      ],
    ]);
  });

  it("a context type conflict and a property matching a pattern are positioned with a hint", () => {
    const issues = issuesOf({
      type: "object",
      properties: { s: { type: "string", anyOf: [{ type: "number" }] } },
      patternProperties: { "^s": { type: "string" } },
    });
    expect(issues.map((i) => [i.keywordPath, i.message.slice(PREFIX.length)])).toEqual([
      [
        "/input_schema/properties/s/anyOf/0/type",
        'strict mode: type "number" not allowed by context "string" at "#/properties/s/anyOf/0" (strictTypes)',
      ],
      [
        "/input_schema/patternProperties/^s",
        "strict mode: property s matches pattern ^s (use allowMatchingProperties)",
      ],
    ]);
    expect(issues.every((i) => (i.hint ?? "").length > 0)).toBe(true);
  });

  it("the throwing form carries every issue and names the first one's code", () => {
    let caught: unknown;
    try {
      compileObjectSchema({ type: "object", a: 1, b: 2 }, { name: label });
    } catch (error) {
      caught = error;
    }
    expect((caught as { issues: Issue[] }).issues.map((i) => i.keywordPath)).toEqual(["/a", "/b"]);
  });

  it("a key with / and ~ is pointer-escaped in the issue path", () => {
    expect(
      issuesOf({ type: "object", properties: { "a/b~c": { type: "string", formt: "uri" } } }, ""),
    ).toEqual([
      {
        code: "schema_unsupported",
        message: `${PREFIX}strict mode: unknown keyword: "formt"`,
        path: "",
        keywordPath: "/properties/a~1b~0c/formt",
        hint: 'did you mean "format"?',
      },
    ]);
  });
});

// How their cost grows with the schema is the pair of bench rows "schema diagnostics" (bench/suites/10-bounds.mjs).
describe("bounded on hostile schemas", () => {
  it("a schema with 5,000 unknown keywords gives at most 100 issues", () => {
    const schema: Record<string, unknown> = { type: "object" };
    for (let i = 0; i < 5000; i++) schema[`k${i}`] = i;
    const issues = issuesOf(schema);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.length).toBeLessThanOrEqual(101);
    expect(issues.every((i) => i.code === "schema_unsupported")).toBe(true);
  });

  it("a schema with 20,000 invalid keyword values gives at most 100 issues", () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) properties[`p${i}`] = { type: "strng", minimum: "0" };
    const issues = issuesOf({ type: "object", properties });
    expect(issues.length).toBe(100);
    expect(issues[0]?.keywordPath).toBe("/input_schema/properties/p0/type");
  });

  it("a deeply nested schema answers with issues or a validator, never a throw", () => {
    let node: Record<string, unknown> = { type: "string", formatt: "x" };
    for (let i = 0; i < 3000; i++) node = { type: "object", properties: { a: node } };
    const result = safeCompileObjectSchema(node, { name: label });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.length).toBeGreaterThan(0);
  });

  it("formats declared while diagnosing never make the strict compile accept an unknown format", () => {
    const withFormat = (format: string) => ({
      type: "object",
      properties: { a: { type: "string", format } },
    });
    for (let i = 0; i < 300; i++) {
      const first = safeCompileObjectSchema(withFormat(`leaky-${i}`), { name: label });
      expect(first.ok).toBe(false);
    }
    for (const i of [0, 150, 299]) {
      const again = safeCompileObjectSchema(withFormat(`leaky-${i}`), { name: label });
      expect(again.ok).toBe(false);
      if (!again.ok) expect(again.issues.map((issue) => issue.keywordPath)).toEqual(["/properties/a/format"]);
    }
  });

  it("a cyclic schema object answers with issues, never a throw", () => {
    const cyclic: Record<string, unknown> = { type: "object", properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    (cyclic.properties as Record<string, unknown>).bad = { type: "string", foo: 1 };
    const result = safeCompileObjectSchema(cyclic, { name: label });
    expect(result.ok).toBe(false);
  });
});

// Past the cap of 100 findings nothing more is diagnosed (the walk and Ajv's log-mode compile stop, hints are worded
// for kept findings only, each object's keys are read once by the sort): what is reported stays what the same
// schema cut to its first findings reports, in the same order.
describe("the cap keeps the first findings, in order", () => {
  /** A root with `n` unknown keywords; every tenth one a near miss whose hint names the keyword meant. */
  const unknownKeywords = (n: number) => {
    const schema: Record<string, unknown> = { type: "object" };
    for (let k = 0; k < n; k++) schema[k % 10 === 3 ? `maxLenght${k % 7 === 0 ? "" : k}` : `k${k}`] = k;
    return schema;
  };
  /** `n` properties, each with two invalid keyword values (meta-schema errors). */
  const invalidValues = (names: string[]) => {
    const properties: Record<string, unknown> = {};
    for (const name of names) properties[name] = { type: "strng", minimum: "0" };
    return { type: "object", properties };
  };
  const names = (n: number) => Array.from({ length: n }, (_, k) => `p${k}`);

  it("5,000 unknown keywords report what their first 100 report, hints included", () => {
    const issues = issuesOf(unknownKeywords(5000));
    expect(issues).toHaveLength(100);
    expect(issues).toEqual(issuesOf(unknownKeywords(100)));
    expect(issues.map((i) => i.keywordPath)).toEqual(
      Object.keys(unknownKeywords(100))
        .slice(1)
        .map((key) => `/input_schema/${key}`),
    );
    expect(issues.find((i) => i.keywordPath === "/input_schema/maxLenght")?.hint).toBe(
      'did you mean "maxLength"?',
    );
  });

  it("unknown keywords and formats deep in lists and maps: the first 100 in document order, as for a cut schema", () => {
    const nested = (n: number) => {
      const properties: Record<string, unknown> = {};
      for (let k = 0; k < n; k++) {
        properties[`p${k}`] = {
          anyOf: [
            { type: "string", format: `colour${k}` },
            { type: "number", minimun: 0 },
          ],
        };
      }
      return { type: "object", properties };
    };
    const issues = issuesOf(nested(3000), "");
    expect(issues).toHaveLength(100);
    expect(issues).toEqual(issuesOf(nested(50), ""));
    expect(issues.slice(0, 2).map((i) => i.keywordPath)).toEqual([
      "/properties/p0/anyOf/0/format",
      "/properties/p0/anyOf/1/minimun",
    ]);
    expect(issues[99]?.keywordPath).toBe("/properties/p49/anyOf/1/minimun");
  });

  it("20,000 invalid keyword values report what the first 50 properties report, in document order", () => {
    const issues = issuesOf(invalidValues(names(20_000)));
    expect(issues).toHaveLength(100);
    expect(issues).toEqual(issuesOf(invalidValues(names(50))));
  });

  it("issues are sorted by the keys' order in the document, not by their names, in a map of 20,000", () => {
    // Declared from p19999 down to p0: the first 50 declared are reported, in declaration order.
    const declared = names(20_000).reverse();
    const issues = issuesOf(invalidValues(declared));
    expect(issues.map((i) => i.keywordPath)).toEqual(
      declared
        .slice(0, 50)
        .flatMap((name) => [
          `/input_schema/properties/${name}/type`,
          `/input_schema/properties/${name}/minimum`,
        ]),
    );
  });

  it("an invalid value among strict findings in a large map: both kinds, merged in document order", () => {
    const properties: Record<string, unknown> = {};
    for (let k = 0; k < 20_000; k++) {
      properties[`p${k}`] =
        k % 1000 === 0 ? { type: "strng" } : k % 1000 === 1 ? { type: "string", formatt: 1 } : {};
    }
    const issues = issuesOf({ type: "object", properties });
    expect(issues.map((i) => i.keywordPath)).toEqual(
      Array.from({ length: 20 }, (_, j) => [
        `/input_schema/properties/p${j * 1000}/type`,
        `/input_schema/properties/p${j * 1000 + 1}/formatt`,
      ]).flat(),
    );
  });

  it("a remote $ref and $async under escaped keys and list items are reported at their own pointers", () => {
    const issues = issuesOf({
      type: "object",
      properties: { "a/b~c": { anyOf: [{ type: "string" }, { $ref: "http://x" }, { $async: true }] } },
    });
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ["schema_remote_ref", "/input_schema/properties/a~1b~0c/anyOf/1/$ref"],
      ["schema_async", "/input_schema/properties/a~1b~0c/anyOf/2/$async"],
    ]);
  });
});
