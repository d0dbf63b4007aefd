import { describe, expect, it } from "vitest";
import { parseToolManifest } from "../src/index.js";

const base = {
  api_version: 2,
  id: "touch",
  version: "1.0.0",
  name: "touch",
  description: "Creates empty files. The result lists one status row per path.",
  input_schema: {
    type: "object",
    additionalProperties: false,
    required: ["paths"],
    properties: { paths: { type: "array", minItems: 1, items: { type: "string" } } },
  },
  entry: "./index.mjs",
} as const;

const effectsSchema = {
  type: "object",
  required: ["files"],
  properties: { files: { type: "array", items: { type: "string" } } },
};

type Patch = Record<string, unknown>;
const withFields = (patch: Patch, omit: string[] = []): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...base, ...patch };
  for (const key of omit) delete out[key];
  return out;
};

const ok = (value: unknown, expectedId?: string) => {
  const result = parseToolManifest(value, expectedId === undefined ? {} : { expectedId });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result;
};
const issuesOf = (value: unknown, expectedId?: string) => {
  const result = parseToolManifest(value, expectedId === undefined ? {} : { expectedId });
  if (result.ok) throw new Error("expected issues");
  return result.issues;
};

describe("parseToolManifest: one valid and one invalid case per rule (tool-api.md §2)", () => {
  const cases: Array<{
    rule: string;
    valid: Patch;
    invalid: Patch;
    omit?: string[];
    code: string;
    message: string;
    path: string;
  }> = [
    {
      rule: "api_version is the number 2",
      valid: { api_version: 2 },
      invalid: { api_version: "2" },
      code: "manifest_api_version_unsupported",
      message: "api_version must be the number 2 (raw.tool-api/2)",
      path: "/api_version",
    },
    {
      rule: "id pattern",
      valid: { id: "a-b_9" },
      invalid: { id: "Touch" },
      code: "manifest_invalid_id",
      message: "id must match ^[a-z][a-z0-9_-]{0,63}$",
      path: "/id",
    },
    {
      rule: "version pattern",
      valid: { version: "10.0.3" },
      invalid: { version: "1.0.0-beta" },
      code: "manifest_invalid_version",
      message: "version must be major.minor.patch without leading zeros",
      path: "/version",
    },
    {
      rule: "name pattern",
      valid: { name: "_Touch-2" },
      invalid: { name: "touch files" },
      code: "manifest_invalid_name",
      message: "name must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
      path: "/name",
    },
    {
      rule: "description non-empty after trim",
      valid: { description: " x " },
      invalid: { description: " \n\t " },
      code: "manifest_invalid_description",
      message: "description must be a non-empty string of at most 8192 bytes",
      path: "/description",
    },
    {
      rule: "description at most 8192 bytes",
      valid: { description: "é".repeat(4096) },
      invalid: { description: "é".repeat(4097) },
      code: "manifest_invalid_description",
      message: "description must be a non-empty string of at most 8192 bytes",
      path: "/description",
    },
    {
      rule: "input_schema is a plain object",
      valid: { input_schema: { type: "object" } },
      invalid: { input_schema: [] },
      code: "schema_unsupported",
      message: "unsupported tool schema: arguments of touch",
      path: "/input_schema",
    },
    {
      rule: "input_schema root type is object",
      valid: { input_schema: { type: "object", properties: {} } },
      invalid: { input_schema: { type: ["object"] } },
      code: "schema_unsupported",
      message: 'unsupported tool schema: arguments of touch: the root must declare "type": "object"',
      path: "/input_schema/type",
    },
    {
      rule: "input_schema local refs only",
      valid: {
        input_schema: {
          type: "object",
          $defs: { s: { type: "string" } },
          properties: { a: { $ref: "#/$defs/s" } },
        },
      },
      invalid: { input_schema: { type: "object", properties: { a: { $ref: "#" } } } },
      code: "schema_remote_ref",
      message:
        'remote tool schema reference is unsupported: "#"; use a local reference such as "#/$defs/<name>" and put shared definitions under $defs',
      path: "/input_schema/properties/a/$ref",
    },
    {
      rule: "input_schema dialect",
      valid: { input_schema: { $schema: "https://json-schema.org/draft-07/schema#", type: "object" } },
      invalid: { input_schema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" } },
      code: "schema_draft_unsupported",
      message: "unsupported tool schema draft: arguments of touch",
      path: "/input_schema/$schema",
    },
    {
      rule: "entry pattern",
      valid: { entry: "./lib/main.cjs" },
      invalid: { entry: "index.mjs" },
      code: "manifest_invalid_entry",
      message: "entry must be a ./ relative path ending in .mjs, .js or .cjs",
      path: "/entry",
    },
    {
      rule: "entry has no empty segment",
      valid: { entry: "./a/b.js" },
      invalid: { entry: ".//b.js" },
      code: "manifest_invalid_entry",
      message: "entry must be a ./ relative path ending in .mjs, .js or .cjs",
      path: "/entry",
    },
    {
      rule: "condition_sources: 1 or 2 distinct known values",
      valid: { condition_sources: ["arguments", "effects"], effects_schema: effectsSchema },
      invalid: { condition_sources: ["arguments", "arguments"] },
      code: "manifest_invalid_condition_sources",
      message: "condition_sources must hold 1 or 2 distinct values from arguments, effects",
      path: "/condition_sources",
    },
    {
      rule: "effects_schema required with effects condition source",
      valid: { condition_sources: ["effects"], effects_schema: effectsSchema },
      invalid: { condition_sources: ["effects"] },
      code: "manifest_missing_effects_schema",
      message: "effects_schema is required when condition_sources includes effects",
      path: "/effects_schema",
    },
    {
      rule: "effects_schema compiles under effects of <id>",
      valid: { effects_schema: effectsSchema },
      invalid: { effects_schema: { type: "object", properties: { a: { $async: false } } } },
      code: "schema_async",
      message: "async tool schema is unsupported",
      path: "/effects_schema/properties/a/$async",
    },
    {
      rule: "panels is an array of at most 4",
      valid: { panels: [{ id: "a", title: "A" }] },
      invalid: { panels: [1, 2, 3, 4, 5] },
      code: "manifest_invalid_panels",
      message: "panels must be an array of at most 4 declarations",
      path: "/panels",
    },
    {
      rule: "panel declarations follow panels.md §2",
      valid: { panels: [{ id: "a", title: "A", placement: "chat" }] },
      invalid: { panels: [{ id: "a", title: "" }] },
      code: "panel_invalid",
      message: "/panels/0/title: must not be empty",
      path: "/panels/0/title",
    },
    {
      rule: "panel ids are distinct",
      valid: {
        panels: [
          { id: "a", title: "A" },
          { id: "b", title: "B" },
        ],
      },
      invalid: {
        panels: [
          { id: "a", title: "A" },
          { id: "a", title: "B" },
        ],
      },
      code: "manifest_invalid_panels",
      message: 'duplicate panel id "a"',
      path: "/panels/1/id",
    },
    {
      rule: "unknown fields, including a non-string $schema (A9)",
      valid: { $schema: "https://example.com/tool.json" },
      invalid: { $schema: 7 },
      code: "manifest_unknown_field",
      message: 'unknown field "$schema"',
      path: "/$schema",
    },
    {
      rule: "unknown fields other than $schema (A9)",
      valid: { $schema: "" },
      invalid: { schema: "https://example.com/tool.json" },
      code: "manifest_unknown_field",
      message: 'unknown field "schema"',
      path: "/schema",
    },
  ];

  it.each(cases)("$rule", ({ valid, invalid, code, message, path }) => {
    expect(ok(withFields(valid)).manifest.id).toBe((valid.id as string | undefined) ?? "touch");
    expect(issuesOf(withFields(invalid))).toEqual([{ code, message, path }]);
  });

  it.each(["api_version", "id", "version", "name", "description", "input_schema", "entry"])(
    "missing required field %s",
    (field) => {
      expect(issuesOf(withFields({}, [field]))).toEqual([
        { code: "manifest_missing_field", message: `missing required field "${field}"`, path: `/${field}` },
      ]);
    },
  );

  it("rejects every non-object value with one manifest_not_object issue", () => {
    for (const value of [null, [], "x", 2, true, undefined]) {
      expect(issuesOf(value)).toEqual([
        { code: "manifest_not_object", message: "tool manifest must be a JSON object", path: "" },
      ]);
    }
  });

  it("rejects every api_version but the number 2", () => {
    for (const api_version of [1, 3, "2", "2.0", null, 2.5]) {
      expect(issuesOf(withFields({ api_version }))[0]?.code).toBe("manifest_api_version_unsupported");
    }
  });

  it("checks manifest_id_mismatch only for a valid id with an expected id", () => {
    expect(issuesOf(withFields({}), "other")).toEqual([
      { code: "manifest_id_mismatch", message: 'id "touch" must equal the folder name "other"', path: "/id" },
    ]);
    expect(ok(withFields({}), "touch").manifest.id).toBe("touch");
    expect(issuesOf(withFields({ id: "Bad" }), "other")).toEqual([
      { code: "manifest_invalid_id", message: "id must match ^[a-z][a-z0-9_-]{0,63}$", path: "/id" },
    ]);
  });

  it("labels schemas with the expected id when the manifest id is invalid", () => {
    expect(issuesOf(withFields({ id: "Bad", input_schema: 1 }), "folder")).toEqual([
      { code: "manifest_invalid_id", message: "id must match ^[a-z][a-z0-9_-]{0,63}$", path: "/id" },
      {
        code: "schema_unsupported",
        message: "unsupported tool schema: arguments of folder",
        path: "/input_schema",
      },
    ]);
  });

  it("skips the missing-effects_schema check when condition_sources is invalid", () => {
    expect(issuesOf(withFields({ condition_sources: ["effects", "effects"] }))).toEqual([
      {
        code: "manifest_invalid_condition_sources",
        message: "condition_sources must hold 1 or 2 distinct values from arguments, effects",
        path: "/condition_sources",
      },
    ]);
  });

  it("accepts effects_schema without effects in condition_sources", () => {
    expect(ok(withFields({ effects_schema: effectsSchema })).manifest.effects_schema).toEqual(effectsSchema);
  });

  it("reports all issues at once: unknown fields in key order, then fields in table order", () => {
    const value = { zeta: 1, api_version: 1, "a/b~c": 2, id: "X", version: "01.0.0", name: "", entry: "x" };
    expect(issuesOf(value)).toEqual([
      { code: "manifest_unknown_field", message: 'unknown field "zeta"', path: "/zeta" },
      { code: "manifest_unknown_field", message: 'unknown field "a/b~c"', path: "/a~1b~0c" },
      {
        code: "manifest_api_version_unsupported",
        message: "api_version must be the number 2 (raw.tool-api/2)",
        path: "/api_version",
      },
      { code: "manifest_invalid_id", message: "id must match ^[a-z][a-z0-9_-]{0,63}$", path: "/id" },
      {
        code: "manifest_invalid_version",
        message: "version must be major.minor.patch without leading zeros",
        path: "/version",
      },
      {
        code: "manifest_invalid_name",
        message: "name must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
        path: "/name",
      },
      {
        code: "manifest_missing_field",
        message: 'missing required field "description"',
        path: "/description",
      },
      {
        code: "manifest_missing_field",
        message: 'missing required field "input_schema"',
        path: "/input_schema",
      },
      {
        code: "manifest_invalid_entry",
        message: "entry must be a ./ relative path ending in .mjs, .js or .cjs",
        path: "/entry",
      },
    ]);
  });

  it("reports several schema issues of one schema field", () => {
    const issues = issuesOf(
      withFields({
        input_schema: {
          type: "string",
          $schema: 7,
          properties: { a: { $ref: "x.json" }, b: { $async: true } },
        },
      }),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ["schema_remote_ref", "/input_schema/properties/a/$ref"],
      ["schema_async", "/input_schema/properties/b/$async"],
      ["schema_unsupported", "/input_schema/type"],
      ["schema_draft_unsupported", "/input_schema/$schema"],
    ]);
    expect(issues).toHaveLength(4);
  });

  it("uses own-property presence", () => {
    // An object with another prototype is still an object: its own fields decide (an inherited entry is absent).
    const inherited = Object.assign(Object.create({ entry: "./index.mjs" }), withFields({}, ["entry"]));
    expect(issuesOf(inherited)).toEqual([
      { code: "manifest_missing_field", message: 'missing required field "entry"', path: "/entry" },
    ]);
    const complete = Object.assign(
      Object.create({ inherited: 1, condition_sources: ["effects"] }),
      withFields({}),
    );
    const parsed = parseToolManifest(complete);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(Object.hasOwn(parsed.manifest, "inherited")).toBe(false);
    class Manifest {
      constructor(fields: Record<string, unknown>) {
        Object.assign(this, fields);
      }
    }
    expect(parseToolManifest(new Manifest(withFields({}))).ok).toBe(true);
    expect(issuesOf(new Manifest({}))).toHaveLength(7);
    expect(issuesOf(new Manifest({})).every((i) => i.code === "manifest_missing_field")).toBe(true);
    const nullProto = Object.assign(Object.create(null), withFields({}, ["entry"]));
    expect(issuesOf(nullProto)).toEqual([
      { code: "manifest_missing_field", message: 'missing required field "entry"', path: "/entry" },
    ]);
  });

  it("reports each declaration's first failure, then duplicates", () => {
    const issues = issuesOf(
      withFields({
        panels: [
          { id: "a", title: "A", x: 1 },
          { id: "a", title: "A" },
          { id: "B", title: "" },
        ],
      }),
    );
    expect(issues).toEqual([
      { code: "panel_invalid", message: "/panels/0/x: unknown field", path: "/panels/0/x" },
      {
        code: "panel_invalid",
        message: "/panels/2/id: must match ^[a-z][a-z0-9_-]{0,31}$",
        path: "/panels/2/id",
      },
      { code: "manifest_invalid_panels", message: 'duplicate panel id "a"', path: "/panels/1/id" },
    ]);
  });

  it("normalizes panel declarations and returns unknown icons as warnings", () => {
    const result = ok(withFields({ panels: [{ id: "todo", title: "Todo", icon: "rocket" }] }));
    expect(result.manifest.panels).toEqual([
      {
        id: "todo",
        title: "Todo",
        icon: "panel",
        open: "never",
        context: "none",
        placement: "sidebar",
        acp_plan: false,
        actions: [],
      },
    ]);
    expect(result.warnings).toStrictEqual([
      { code: "panel_icon_unknown", message: '/panels/0: unknown icon "rocket" falls back to "panel"' },
    ]);
    expect(result.warnings[0]?.path).toBe("/panels/0/icon");
  });

  it("allIssues reports every failing field of a panel declaration; the default keeps the first", () => {
    const value = withFields({ panels: [{ id: "Bad", title: "", placement: "top" }] });
    const first = parseToolManifest(value);
    expect(!first.ok && first.issues.map((issue) => issue.message)).toEqual([
      "/panels/0/id: must match ^[a-z][a-z0-9_-]{0,31}$",
    ]);
    const all = parseToolManifest(value, { allIssues: true });
    expect(!all.ok && all.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["panel_invalid", "/panels/0/id"],
      ["panel_invalid", "/panels/0/title"],
      ["panel_invalid", "/panels/0/placement"],
    ]);
  });

  it("returns the manifest unchanged otherwise, without mutating the input", () => {
    const input = withFields({ condition_sources: ["arguments"] });
    const snapshot = structuredClone(input);
    const result = ok(input);
    expect(result.manifest).toEqual(snapshot);
    expect(input).toEqual(snapshot);
    expect(result.warnings).toEqual([]);
  });
});

describe("amendment A9: $schema editor hint", () => {
  const base = {
    api_version: 2,
    id: "touch",
    version: "1.0.0",
    name: "touch",
    description: "Touches a file.",
    input_schema: { type: "object" },
    entry: "./index.mjs",
  };

  it("accepts and ignores a string $schema", () => {
    const result = parseToolManifest({ $schema: "https://raw.tlelabs.com/schemas/x.json", ...base });
    expect(result.ok).toBe(true);
    if (result.ok) expect(Object.hasOwn(result.manifest, "$schema")).toBe(false);
  });

  it("rejects a non-string $schema and other unknown fields", () => {
    const result = parseToolManifest({ ...base, $schema: null, $id: "x" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => i.path)).toEqual(["/$schema", "/$id"]);
  });
});

describe("hints beside the contract text", () => {
  it("suggests the nearest known field for an unknown manifest field", () => {
    const result = parseToolManifest({ descripton: "x", inputSchema: {}, zzzzzzzz: 1 });
    const unknown = result.ok ? [] : result.issues.filter((i) => i.code === "manifest_unknown_field");
    expect(unknown).toEqual([
      {
        code: "manifest_unknown_field",
        message: 'unknown field "descripton"',
        path: "/descripton",
        hint: "did you mean `description`?",
      },
      {
        code: "manifest_unknown_field",
        message: 'unknown field "inputSchema"',
        path: "/inputSchema",
        hint: "did you mean `input_schema`?",
      },
      { code: "manifest_unknown_field", message: 'unknown field "zzzzzzzz"', path: "/zzzzzzzz" },
    ]);
  });
});
