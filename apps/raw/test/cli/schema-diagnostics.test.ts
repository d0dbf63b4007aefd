/**
 * Issue 13 items 1–2 through the CLI: a tool.json whose `input_schema` and `effects_schema` hold eight planted
 * mistakes gives all eight in one `raw validate` run, each at the file:line:col of the offending keyword, with its
 * hint, in the text, json and github formats.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lines, raw, tempDir } from "./helpers.js";

// Line numbers are 1-based; the column is the opening quote of the keyword. Kept literal so positions are exact.
const MANIFEST = `{
  "api_version": 2,
  "id": "touch",
  "version": "0.1.0",
  "name": "touch",
  "description": "Appends one line to a file.",
  "entry": "./index.mjs",
  "condition_sources": ["arguments", "effects"],
  "input_schema": {
    "type": "object",
    "requried": ["path"],
    "properties": {
      "path": { "type": "string", "format": "file-path" },
      "mode": { "type": ["boolean", "string"] },
      "line": { "type": "string", "maxLenght": 80 },
      "count": { "type": "integr" }
    },
    "required": ["path", "lien"]
  },
  "effects_schema": {
    "type": "object",
    "properties": {
      "files": {
        "type": "array",
        "prefixItems": [{ "type": "string" }],
        "items": { "properties": { "path": { "type": "string" } } }
      }
    }
  }
}
`;

type Expected = { line: number; column: number; pointer: string; message: string; hint: string };

const ARGS = "unsupported tool schema: arguments of touch: ";
const EFFECTS = "unsupported tool schema: effects of touch: ";
const EXPECTED: Expected[] = [
  {
    line: 11,
    column: 5,
    pointer: "/input_schema/requried",
    message: `${ARGS}strict mode: unknown keyword: "requried"`,
    hint: 'did you mean "required"?',
  },
  {
    line: 13,
    column: 35,
    pointer: "/input_schema/properties/path/format",
    message: `${ARGS}unknown format "file-path" ignored in schema at path "#/properties/path"`,
    hint: 'known formats: date, time, date-time, iso-time, iso-date-time, duration, uri, uri-reference, uri-template, url, email, hostname, ipv4, ipv6, regex, uuid, json-pointer, json-pointer-uri-fragment, relative-json-pointer, byte, int32, int64, float, double, password, binary; or remove "format" and describe the expected text in "description"',
  },
  {
    line: 14,
    column: 17,
    pointer: "/input_schema/properties/mode/type",
    message: `${ARGS}strict mode: use allowUnionTypes to allow union type keyword at "#/properties/mode" (strictTypes)`,
    hint: 'write "anyOf": [{ "type": "boolean" }, { "type": "string" }] instead; a "type" list is accepted only as one type paired with "null", such as ["string", "null"]',
  },
  {
    line: 15,
    column: 35,
    pointer: "/input_schema/properties/line/maxLenght",
    message: `${ARGS}strict mode: unknown keyword: "maxLenght"`,
    hint: 'did you mean "maxLength"?',
  },
  {
    line: 16,
    column: 18,
    pointer: "/input_schema/properties/count/type",
    message: `${ARGS}schema is invalid: data/properties/count/type must be equal to one of the allowed values`,
    hint: 'did you mean "integer"? JSON Schema types are "string", "number", "integer", "boolean", "object", "array", "null"',
  },
  {
    line: 18,
    column: 26,
    pointer: "/input_schema/required/1",
    message: `${ARGS}strict mode: required property "lien" is not defined at "#" (strictRequired)`,
    hint: 'did you mean "line"? Every name in "required" must be declared in "properties" beside it',
  },
  {
    line: 25,
    column: 9,
    pointer: "/effects_schema/properties/files/prefixItems",
    message: `${EFFECTS}strict mode: "prefixItems" is 1-tuple, but minItems or maxItems/items are not specified or different at path "#/properties/files"`,
    hint: 'a tuple of 1 item needs "minItems": 1 and either "maxItems": 1 or "items": false beside "prefixItems"; for a list of any length write "items": <one schema> instead',
  },
  {
    line: 26,
    column: 20,
    pointer: "/effects_schema/properties/files/items/properties",
    message: `${EFFECTS}strict mode: missing type "object" for keyword "properties" at "#/properties/files/items" (strictTypes)`,
    hint: '"properties" applies to object values only: add "type": "object" to this schema (or to the schema around its anyOf/oneOf/allOf)',
  },
];

/** A tool folder made by `raw init tool`, with the manifest above in place of its own. */
function brokenTool(): string {
  const cwd = tempDir();
  expect(raw(["init", "tool", "tools/touch"], { cwd }).status).toBe(0);
  writeFileSync(join(cwd, "tools/touch/tool.json"), MANIFEST);
  return cwd;
}

describe("raw validate: every schema mistake in one run, at its keyword, with a hint", () => {
  it("the planted positions are where the keywords are (the fixture is checked, not trusted)", () => {
    const text = MANIFEST.split("\n");
    for (const e of EXPECTED) {
      const key = e.pointer.split("/").at(-1) as string;
      const token = /^\d+$/.test(key) ? '"lien"' : `"${key}"`;
      expect(
        text[e.line - 1]?.slice(e.column - 1).startsWith(token),
        `${e.pointer} at ${e.line}:${e.column}`,
      ).toBe(true);
    }
  });

  it("text: one line per mistake at file:line:col with the hint indented under it", () => {
    const run = raw(["validate", "tools/touch"], { cwd: brokenTool() });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("");
    expect(lines(run.stdout)).toEqual([
      `tools/touch/tool.json  failed (${EXPECTED.length} errors)`,
      ...EXPECTED.flatMap((e) => [
        `tools/touch/tool.json:${e.line}:${e.column}  schema_unsupported  ${e.message}`,
        `    hint: ${e.hint}`,
      ]),
      "",
      "0 passed, 1 failed",
    ]);
  });

  it("json: every issue with its pointer, line, column and hint", () => {
    const run = raw(["validate", "tools/touch", "--format", "json"], { cwd: brokenTool() });
    expect(run.status).toBe(1);
    const body = JSON.parse(run.stdout);
    expect(body.ok).toBe(false);
    expect(body.files[0].issues).toEqual(
      EXPECTED.map((e) => ({
        code: "schema_unsupported",
        message: e.message,
        // The contract's path is the schema's pointer (tool-api.md §3.4); the keyword's is beside it.
        pointer: `/${e.pointer.split("/")[1]}`,
        keywordPointer: e.pointer,
        line: e.line,
        column: e.column,
        hint: e.hint,
      })),
    );
  });

  it("github: one annotation per mistake at its line and column, the hint appended", () => {
    const run = raw(["validate", "tools/touch", "--format", "github"], { cwd: brokenTool() });
    expect(run.status).toBe(1);
    expect(lines(run.stdout)).toEqual([
      ...EXPECTED.map(
        (e) =>
          `::error file=tools/touch/tool.json,line=${e.line},col=${e.column},title=schema_unsupported::${e.message}%0Ahint: ${e.hint}`,
      ),
      "0 passed, 1 failed",
    ]);
  });

  it("fixing every reported mistake at once makes the folder pass in the next run", () => {
    const cwd = brokenTool();
    const file = join(cwd, "tools/touch/tool.json");
    const fixed = readFileSync(file, "utf8")
      .replace('"requried": ["path"],', '"additionalProperties": false,')
      .replace(', "format": "file-path"', "")
      .replace(
        '{ "type": ["boolean", "string"] }',
        '{ "anyOf": [{ "type": "boolean" }, { "type": "string" }] }',
      )
      .replace('"maxLenght"', '"maxLength"')
      .replace('"integr"', '"integer"')
      .replace('"lien"', '"line"')
      .replace('"prefixItems": [{ "type": "string" }],', '"minItems": 1,')
      .replace('"items": { "properties"', '"items": { "type": "object", "properties"');
    writeFileSync(file, fixed);
    const run = raw(["validate", "tools/touch"], { cwd });
    expect(run.stdout).toBe("tools/touch/tool.json  ok\n\n1 passed, 0 failed\n");
    expect(run.status).toBe(0);
  });
});
