import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { validatePaths } from "../src/index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "raw-validate-schema-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The tool.json text with six static mistakes in its input schema and a remote `$ref` that stops the compile. */
const TOOL_JSON = `{
  "api_version": 2,
  "id": "six",
  "version": "1.0.0",
  "name": "six",
  "description": "Six mistakes and a remote reference.",
  "input_schema": {
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "remote": { "$ref": "https://example.com/schema.json" },
      "a": { "type": "string", "maxLenght": 5 },
      "b": { "type": ["string", "number"] },
      "c": { "type": "string", "format": "no-such-format" },
      "d": { "properties": { "x": { "type": "string" } } },
      "e": { "type": "string", "minLength": "3" },
      "f": { "type": "integer", "minimun": 1 }
    }
  },
  "entry": "./index.mjs"
}
`;

describe("a schema whose compile stops early (remote $ref)", () => {
  it("still reports its six static mistakes in the same run, each at its line and column", async () => {
    const folder = join(dir, "six");
    mkdirSync(folder);
    writeFileSync(join(folder, "tool.json"), TOOL_JSON);
    writeFileSync(join(folder, "index.mjs"), "export async function handler() { return 'ok'; }\n");
    const report = await validatePaths(["six"], { cwd: dir });
    expect(report.ok).toBe(false);
    const issues = report.files[0]?.issues ?? [];
    const lines = (await import("node:fs")).readFileSync(join(folder, "tool.json"), "utf8").split("\n");
    const lineOf = (needle: string) => lines.findIndex((line) => line.includes(needle)) + 1;
    const at = (needle: string) => issues.find((issue) => issue.line === lineOf(needle));
    expect(at('"$ref"')?.code).toBe("schema_remote_ref");
    expect(at('"maxLenght"')?.message).toContain("maxLenght");
    expect(at('"maxLenght"')?.hint).toContain("maxLength");
    expect(at('"minimun"')?.hint).toContain("minimum");
    expect(at('["string", "number"]')?.code).toBe("schema_unsupported");
    expect(at('"no-such-format"')?.message).toContain("no-such-format");
    expect(at('"d": {')?.code).toBe("schema_unsupported");
    expect(at('"minLength": "3"')?.code).toBeDefined();
    expect(issues.length).toBeGreaterThanOrEqual(7);
    for (const issue of issues) expect(issue.column).toBeGreaterThan(1);
  });
});
