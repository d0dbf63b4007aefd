import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { casesSchemaText, displayPath } from "@raw/validate";
import { parseCommand, stringOption } from "../support/args.js";
import { CliFailure, type CliIo, cwdOf, EXIT_OK } from "../support/io.js";
import { displayLine } from "../support/present.js";

/** The schemas `raw schema` knows: the committed files of the packages (read through their `schemas/*` export). */
const SCHEMAS = {
  tool: { module: "@raw/tool-api/schemas/tool.schema.json", file: "tool.schema.json" },
  hook: { module: "@raw/hook-protocol/schemas/hook.schema.json", file: "hook.schema.json" },
  rules: { module: "@raw/tool-api/schemas/rules.schema.json", file: "rules.schema.json" },
  "panel-document": {
    module: "@raw/panel/schemas/panel-document.schema.json",
    file: "panel-document.schema.json",
  },
  cases: { module: undefined, file: "cases.schema.json" },
  "mcp-proxy-config": {
    module: "@raw/mcp/schemas/proxy-config.schema.json",
    file: "mcp-proxy-config.schema.json",
  },
} as const;

type SchemaName = keyof typeof SCHEMAS;

/**
 * Which file names the editor setting maps to which schema: every document kind `raw validate` checks, with the
 * same precedence as its detection by name (`rules` before `cases` before `panel`); the schema files themselves
 * (`*.schema.json`) are left out. The `!` patterns are VS Code's exclusions.
 */
export const EDITOR_MAPPINGS: ReadonlyArray<{ fileMatch: string[]; schema: SchemaName }> = [
  { fileMatch: ["**/tool.json"], schema: "tool" },
  { fileMatch: ["**/hook.json"], schema: "hook" },
  { fileMatch: ["**/*rules*.json", "!**/*.schema.json"], schema: "rules" },
  { fileMatch: ["**/*cases*.json", "!**/*rules*.json", "!**/*.schema.json"], schema: "cases" },
  {
    fileMatch: ["**/*panel*.json", "!**/*rules*.json", "!**/*cases*.json", "!**/*.schema.json"],
    schema: "panel-document",
  },
];

/** The exact text of a schema file. */
async function schemaText(name: SchemaName): Promise<string> {
  const entry = SCHEMAS[name];
  if (entry.module === undefined) return casesSchemaText();
  const path = createRequire(import.meta.url).resolve(entry.module);
  return readFile(path, "utf8");
}

function idOf(text: string): string {
  const id = (JSON.parse(text) as { $id?: unknown }).$id;
  if (typeof id !== "string") throw new CliFailure("schema_invalid", "a committed schema has no $id");
  return id;
}

async function writeSchema(dir: string, name: SchemaName, cwd: string, io: CliIo): Promise<string> {
  const path = join(dir, SCHEMAS[name].file);
  await writeFile(path, await schemaText(name));
  io.stdout.write(`wrote ${displayLine(displayPath(path, cwd))}\n`);
  return path;
}

async function makeDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new CliFailure(
      "out_unwritable",
      `cannot create ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/**
 * `raw schema <tool|hook|rules|panel-document|cases|mcp-proxy-config> [--out dir]` prints (or writes) a JSON Schema;
 * `raw schema --vscode [--out dir]` prints the `json.schemas` setting that maps every document kind `raw validate`
 * checks to its schema (`EDITOR_MAPPINGS`): with `--out`, to the schema files written there (works offline, and
 * standard error says so); otherwise to their published `$id` URLs (the editor fetches them).
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("schema", argv);
  const cwd = cwdOf(io);
  const out = stringOption(args, "out");
  const outDir = out === undefined ? undefined : resolve(cwd, out);
  if (args.values.vscode === true) {
    if (outDir !== undefined) await makeDir(outDir);
    const schemas = [];
    for (const mapping of EDITOR_MAPPINGS) {
      let url: string;
      if (outDir !== undefined) {
        const path = await writeSchema(outDir, mapping.schema, cwd, { ...io, stdout: io.stderr });
        url = `./${relative(cwd, path).split("\\").join("/")}`;
      } else {
        url = idOf(await schemaText(mapping.schema));
      }
      schemas.push({ fileMatch: mapping.fileMatch, url });
    }
    io.stdout.write(`${JSON.stringify({ "json.schemas": schemas }, null, 2)}\n`);
    io.stderr.write(
      outDir === undefined
        ? "raw schema: the setting points at the published schema URLs (the editor needs the network); " +
            "with --out <dir> it points at local copies and works offline\n"
        : `raw schema: offline setting: it points at the schema files written to ${displayLine(displayPath(outDir, cwd))} ` +
            "(no network needed; run this again after upgrading raw)\n",
    );
    return EXIT_OK;
  }
  const name = args.positionals[0] as string;
  if (outDir === undefined) {
    io.stdout.write(await schemaText(name as SchemaName));
    return EXIT_OK;
  }
  await makeDir(outDir);
  await writeSchema(outDir, name as SchemaName, cwd, io);
  return EXIT_OK;
}
