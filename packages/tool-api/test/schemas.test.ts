import { validateWith } from "@raw/schema";
import { checkCommittedSchemas } from "@raw/test-support/committed-schemas";
import { describe, expect, it } from "vitest";
import { ToolManifestSchema, ToolRuleSchema, ToolRulesSchema } from "../src/index.js";
import { ToolManifestSchemaSource, ToolRuleSchemaSource, ToolRulesSchemaSource } from "./schema-source.js";

/** Each committed file: its TypeBox source (build time), the plain object the package exports (run time), its id. */
const files = [
  [
    "tool.schema.json",
    ToolManifestSchemaSource,
    ToolManifestSchema,
    "https://raw.tlelabs.com/schemas/raw.tool-api/2/tool.schema.json",
  ],
  [
    "rules.schema.json",
    ToolRulesSchemaSource,
    ToolRulesSchema,
    "https://raw.tlelabs.com/schemas/raw.tool-api/2/rules.schema.json",
  ],
] as const;

checkCommittedSchemas(files, import.meta.url);

it("ToolRuleSchema is the items schema of ToolRulesSchema and its TypeBox source", () => {
  expect(ToolRuleSchema).toBe(ToolRulesSchema.items);
  expect(JSON.stringify(ToolRuleSchema)).toBe(JSON.stringify(ToolRuleSchemaSource));
});

const manifest = {
  api_version: 2,
  id: "touch",
  version: "1.0.0",
  name: "touch",
  description: "Creates empty files.",
  input_schema: { type: "object" },
  entry: "./index.mjs",
};

describe("ToolManifestSchema (editor convenience)", () => {
  it("accepts a valid manifest and encodes the field rules", () => {
    expect(validateWith(ToolManifestSchema, manifest)).toEqual([]);
    expect(validateWith(ToolManifestSchema, { ...manifest, panels: [{ id: "p", title: "P" }] })).toEqual([]);
    const bad = (patch: Record<string, unknown>) =>
      validateWith(ToolManifestSchema, { ...manifest, ...patch });
    expect(bad({ api_version: "2" }).length).toBeGreaterThan(0);
    expect(bad({ id: "Touch" }).length).toBeGreaterThan(0);
    expect(bad({ version: "01.0.0" }).length).toBeGreaterThan(0);
    expect(bad({ name: "9x" }).length).toBeGreaterThan(0);
    expect(bad({ description: "   " }).length).toBeGreaterThan(0);
    expect(bad({ entry: "index.mjs" }).length).toBeGreaterThan(0);
    expect(bad({ entry: "./a\\b.mjs" }).length).toBeGreaterThan(0);
    expect(bad({ condition_sources: ["arguments", "arguments"] }).length).toBeGreaterThan(0);
    expect(bad({ condition_sources: ["effects"] }).length).toBeGreaterThan(0);
    expect(bad({ condition_sources: ["effects"], effects_schema: { type: "object" } })).toEqual([]);
    expect(bad({ $schema: "x" })).toEqual([]);
    expect(bad({ $schema: 1 }).length).toBeGreaterThan(0);
    expect(bad({ schema: "x" }).length).toBeGreaterThan(0);
  });
});

describe("ToolRulesSchema (editor convenience)", () => {
  it("accepts rules and rejects a conditional non-ask rule", () => {
    const when = { source: "arguments", any: "a", regex: "x" };
    expect(
      validateWith(ToolRulesSchema, [
        { match: "*", effect: "allow" },
        { match: "a", effect: "ask", when },
      ]),
    ).toEqual([]);
    expect(validateWith(ToolRulesSchema, [{ match: "a", effect: "deny", when }]).length).toBeGreaterThan(0);
    expect(validateWith(ToolRulesSchema, [{ match: " ", effect: "deny" }]).length).toBeGreaterThan(0);
    expect(validateWith(ToolRulesSchema, [{ match: "a", effect: "deny", x: 1 }]).length).toBeGreaterThan(0);
  });
});
