import { readdirSync, readFileSync } from "node:fs";
import { join, matchesGlob, relative } from "node:path";
import { bundledToolFolders } from "@raw/tools";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { appRoot, cli, fixtures, lines, tempDir } from "./helpers.js";

const repoRoot = join(appRoot, "..", "..");

/** Every document kind `raw validate` checks, with real documents of that kind from this repository. */
const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  tool: [
    ...bundledToolFolders().map((folder) => join(folder.dir, "tool.json")),
    join(fixtures, "validate", "good", "echo", "tool.json"),
  ],
  hook: readdirSync(join(appRoot, "hooks")).map((name) => join(appRoot, "hooks", name, "hook.json")),
  rules: [join(appRoot, "examples", "rules.json"), join(fixtures, "readme", "rules.json")],
  cases: [join(appRoot, "examples", "cases.json"), join(fixtures, "readme", "cases.json")],
  "panel-document": [join(fixtures, "panels", "ship.panel.json"), join(fixtures, "readme", "panel.json")],
};

/** Every committed JSON Schema of the packages and the CLI, by `$id`. */
function committedSchemas(): Map<string, Record<string, unknown>> {
  const byId = new Map<string, Record<string, unknown>>();
  const folders = [
    ...readdirSync(join(repoRoot, "packages")).map((name) => join(repoRoot, "packages", name, "schemas")),
    join(appRoot, "schemas"),
  ];
  for (const folder of folders) {
    let files: string[] = [];
    try {
      files = readdirSync(folder).filter((file) => file.endsWith(".schema.json"));
    } catch {
      continue;
    }
    for (const file of files) {
      const schema = JSON.parse(readFileSync(join(folder, file), "utf8")) as Record<string, unknown>;
      byId.set(String(schema.$id), schema);
    }
  }
  return byId;
}

interface Mapping {
  fileMatch: string[];
  url: string;
}

/** VS Code's reading of `fileMatch`: some pattern matches and no `!` pattern does (paths relative to the workspace). */
function matches(mapping: Mapping, path: string): boolean {
  const positive = mapping.fileMatch.filter((p) => !p.startsWith("!"));
  const negative = mapping.fileMatch.filter((p) => p.startsWith("!")).map((p) => p.slice(1));
  return positive.some((p) => matchesGlob(path, p)) && !negative.some((p) => matchesGlob(path, p));
}

/** A strict Ajv for draft 2020-12 with formats: the committed schemas must compile under it. */
function ajv() {
  const instance = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(instance);
  return instance;
}

/** Checks a printed setting: every kind mapped once, each example matched by its kind's entry only, and valid. */
function checkSetting(settings: Mapping[], schemaOf: (url: string) => Record<string, unknown>): void {
  expect(settings).toHaveLength(Object.keys(EXAMPLES).length);
  const validator = ajv();
  for (const [kind, files] of Object.entries(EXAMPLES)) {
    expect(files.length, kind).toBeGreaterThan(0);
    for (const file of files) {
      const path = relative(repoRoot, file);
      const matched = settings.filter((mapping) => matches(mapping, path));
      expect(matched, `${path} must be matched by exactly one entry`).toHaveLength(1);
      const schema = schemaOf((matched[0] as Mapping).url);
      const validate = validator.getSchema(String(schema.$id)) ?? validator.compile(schema);
      const document = JSON.parse(readFileSync(file, "utf8"));
      expect(validate(document), `${path} (${kind}): ${JSON.stringify(validate.errors)}`).toBe(true);
      // The schema is not trivially permissive: a document of another type fails it.
      expect(validate(Array.isArray(document) ? { not: "an array" } : [document]), path).toBe(false);
      expect(String(schema.$id), path).toMatch(new RegExp(`/${kind}\\.schema\\.json$`));
    }
  }
  // The schema files themselves are not mapped to a document schema.
  for (const name of ["rules", "cases", "panel-document", "tool", "hook"]) {
    const path = `.vscode/schemas/${name}.schema.json`;
    expect(
      settings.filter((mapping) => matches(mapping, path)),
      path,
    ).toEqual([]);
  }
}

describe("raw schema --vscode maps every document kind raw validate checks", () => {
  it("online: each url is the $id of a committed schema that validates real documents of its kind", async () => {
    const run = await cli(["schema", "--vscode"]);
    expect(run.status).toBe(0);
    const settings = JSON.parse(run.stdout)["json.schemas"] as Mapping[];
    const schemas = committedSchemas();
    checkSetting(settings, (url) => {
      const schema = schemas.get(url);
      expect(schema, url).toBeDefined();
      return schema as Record<string, unknown>;
    });
    expect(lines(run.stderr)).toEqual([
      "raw schema: the setting points at the published schema URLs (the editor needs the network); with --out <dir> it points at local copies and works offline",
    ]);
  });

  it("offline (--out): each url is a written file that validates real documents of its kind, and it says so", async () => {
    const cwd = tempDir();
    const run = await cli(["schema", "--vscode", "--out", ".vscode/schemas"], { cwd });
    expect(run.status).toBe(0);
    const settings = JSON.parse(run.stdout)["json.schemas"] as Mapping[];
    for (const mapping of settings)
      expect(mapping.url).toMatch(/^\.\/\.vscode\/schemas\/[a-z-]+\.schema\.json$/);
    checkSetting(settings, (url) => JSON.parse(readFileSync(join(cwd, url), "utf8")));
    expect(readdirSync(join(cwd, ".vscode", "schemas")).sort()).toEqual([
      "cases.schema.json",
      "hook.schema.json",
      "panel-document.schema.json",
      "rules.schema.json",
      "tool.schema.json",
    ]);
    expect(lines(run.stderr).at(-1)).toBe(
      "raw schema: offline setting: it points at the schema files written to .vscode/schemas (no network needed; run this again after upgrading raw)",
    );
  });

  it("the file names of the setting are the names raw validate detects each kind by", async () => {
    const settings = JSON.parse((await cli(["schema", "--vscode"])).stdout)["json.schemas"] as Mapping[];
    const schemas = committedSchemas();
    for (const files of Object.values(EXAMPLES)) {
      for (const file of files) {
        const report = JSON.parse((await cli(["validate", file, "--format", "json"])).stdout).files[0];
        const path = relative(repoRoot, file);
        const mapping = settings.find((m) => matches(m, path)) as Mapping;
        const title = String(schemas.get(mapping.url)?.$id);
        expect(title.endsWith(`/${report.kind}.schema.json`), `${path}: ${report.kind} vs ${title}`).toBe(
          true,
        );
      }
    }
  });
});
