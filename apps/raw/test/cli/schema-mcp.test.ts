/**
 * Issue 13, "How it is checked", bullet 2: real MCP tool schemas. The `tools/list` answers of the official servers
 * installed in this repository (captured once by fixtures/mcp-schemas/capture.mjs and committed) are compiled with
 * the strict profile: each passes, or every rejection carries a hint with the accepted spelling. The foreign profile
 * (what @raw/mcp mounts them with) accepts them all. The two spellings real servers use and strict mode refuses (a
 * union `type`, an unknown `format`) are then planted into those real schemas, through the CLI as well.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Issue, safeCompileObjectSchema } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { fixtures, raw, tempDir } from "./helpers.js";

type Tool = { name: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> };
type Capture = { package: string; packageVersion: string; serverInfo: { name: string }; tools: Tool[] };

const CAPTURES: Array<[string, Capture]> = ["filesystem", "everything"].map((name) => [
  name,
  JSON.parse(readFileSync(join(fixtures, "mcp-schemas", `${name}.tools.json`), "utf8")) as Capture,
]);

/** The accepted spelling a hint must name for each kind of strict-mode refusal. */
function acceptedSpelling(issue: Issue): RegExp {
  if (issue.message.includes("union type")) return /"anyOf": \[\{ "type": .*\}\].*\["string", "null"\]/;
  if (issue.message.includes("unknown format")) return /known formats: date, time, date-time, .*uri/;
  if (issue.message.includes("unknown keyword")) return /did you mean|is not a JSON Schema .* keyword/;
  return /./;
}

function strictIssues(schema: unknown, name: string): Issue[] {
  const result = safeCompileObjectSchema(schema, { name });
  return result.ok ? [] : result.issues;
}

describe("real MCP tool schemas (tools/list of the installed official servers)", () => {
  it("the captures are real answers: every tool has a name and an object inputSchema", () => {
    for (const [, capture] of CAPTURES) {
      expect(capture.tools.length).toBeGreaterThan(10);
      for (const tool of capture.tools) {
        expect(typeof tool.name).toBe("string");
        expect(tool.inputSchema.type).toBe("object");
      }
    }
    expect(CAPTURES.map(([, c]) => c.package)).toEqual([
      "@modelcontextprotocol/server-filesystem",
      "@modelcontextprotocol/server-everything",
    ]);
  });

  it.each(CAPTURES)(
    "%s: strict passes or every rejection has a hint with the accepted spelling",
    (_name, capture) => {
      let compiled = 0;
      for (const tool of capture.tools) {
        for (const [kind, schema] of [
          ["arguments", tool.inputSchema],
          ["output", tool.outputSchema],
        ] as const) {
          if (schema === undefined) continue;
          compiled++;
          for (const issue of strictIssues(schema, `${kind} of ${tool.name}`)) {
            expect(issue.hint, `${tool.name}: ${issue.message}`).toMatch(acceptedSpelling(issue));
            expect(issue.path).toMatch(/^\//);
          }
        }
      }
      expect(compiled).toBeGreaterThanOrEqual(capture.tools.length);
    },
  );

  it.each(CAPTURES)("%s: the foreign profile (@raw/mcp) accepts every schema", (_name, capture) => {
    for (const tool of capture.tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        if (schema === undefined) continue;
        const result = safeCompileObjectSchema(schema, { name: tool.name, profile: "foreign" });
        expect(result.ok, tool.name).toBe(true);
      }
    }
  });

  it("a union type and an unknown format planted in every real inputSchema are each reported with the spelling", () => {
    for (const [, capture] of CAPTURES) {
      for (const tool of capture.tools) {
        const schema = structuredClone(tool.inputSchema);
        const properties = { ...(schema.properties as Record<string, unknown>) };
        properties.raw_union = { type: ["boolean", "string"] };
        properties.raw_format = { type: "string", format: "path" };
        schema.properties = properties;
        const issues = strictIssues(schema, `arguments of ${tool.name}`);
        expect(issues.map((i) => i.keywordPath)).toEqual([
          "/properties/raw_union/type",
          "/properties/raw_format/format",
        ]);
        expect(issues[0]?.hint).toBe(
          'write "anyOf": [{ "type": "boolean" }, { "type": "string" }] instead; a "type" list is accepted only as one type paired with "null", such as ["string", "null"]',
        );
        expect(issues[1]?.hint).toMatch(/^known formats: date, time, date-time, .*uri.*; or remove "format"/);
        expect(safeCompileObjectSchema(schema, { name: tool.name, profile: "foreign" }).ok).toBe(true);
      }
    }
  });

  it("raw validate positions those refusals inside a real schema used as a tool's input_schema", () => {
    const capture = CAPTURES[0]?.[1] as Capture;
    const edit = capture.tools.find((t) => t.name === "edit_file") as Tool;
    const schema = structuredClone(edit.inputSchema);
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    properties.dryRun = { ...properties.dryRun, type: ["boolean", "string"] };
    properties.path = { ...properties.path, format: "path" };
    const cwd = tempDir();
    expect(raw(["init", "tool", "tools/edit"], { cwd }).status).toBe(0);
    const file = join(cwd, "tools/edit/tool.json");
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    manifest.input_schema = schema;
    manifest.condition_sources = ["arguments"];
    delete manifest.effects_schema;
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    writeFileSync(file, text);
    const run = raw(["validate", "tools/edit", "--format", "json"], { cwd });
    expect(run.status).toBe(1);
    const issues = JSON.parse(run.stdout).files[0].issues as Array<Record<string, unknown>>;
    // Where the keywords are in the file written above: the line of `"format": "path"`, and of the dryRun "type"
    // (the first `"type": [` line, the only list-valued type in the file).
    const fileLines = text.split("\n");
    const formatLine = fileLines.findIndex((l) => l.includes('"format": "path"')) + 1;
    const unionLine = fileLines.findIndex((l) => /"type": \[$/.test(l)) + 1;
    expect(formatLine).toBeGreaterThan(0);
    expect(unionLine).toBeGreaterThan(0);
    expect(issues.map((i) => [i.keywordPointer, i.line])).toEqual(
      [
        ["/input_schema/properties/path/format", formatLine],
        ["/input_schema/properties/dryRun/type", unionLine],
      ].sort((a, b) => (a[1] as number) - (b[1] as number)),
    );
    for (const issue of issues) expect(String(issue.hint)).toMatch(/anyOf|known formats/);
  });
});
