import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { formatReport, validatePaths } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "..", "README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts (\w+)\n([\s\S]*?)```/g)].map((m) => ({
  kind: m[1] as string,
  code: m[2] as string,
}));
const scratch = join(here, ".readme");

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const GOOD = {
  api_version: 2,
  id: "greet",
  version: "1.0.0",
  name: "greet",
  description: "Greets someone.",
  input_schema: { type: "object", additionalProperties: false, properties: { who: { type: "string" } } },
  entry: "./index.mjs",
};

/** A project folder with `tools/greet` (good, or with an unknown schema keyword). */
function project(good: boolean): string {
  const tool = join(scratch, "tools", "greet");
  mkdirSync(tool, { recursive: true });
  const manifest = good
    ? GOOD
    : {
        ...GOOD,
        input_schema: { ...GOOD.input_schema, properties: { who: { type: "string", maxLenght: 3 } } },
      };
  writeFileSync(join(tool, "tool.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(join(tool, "index.mjs"), "export async function handler() { return 'hi'; }\n");
  return scratch;
}

describe("README", () => {
  it("the vitest example passes on a valid folder and fails with the text report on a broken one", async () => {
    const code = blocks.find((b) => b.kind === "test")?.code as string;
    expect(code).toContain('expect(report.ok, formatReport(report, "text")).toBe(true)');
    // The test body, run here against both folders (the `it` of the example is this file's own runner).
    const body = async (cwd: string) => {
      const report = await validatePaths(["tools/greet"], { cwd });
      expect(report.ok, formatReport(report, "text")).toBe(true);
    };
    await body(project(true));
    rmSync(scratch, { recursive: true, force: true });
    await expect(body(project(false))).rejects.toThrow(
      /tools\/greet\/tool\.json:\d+:\d+ {2}schema_unsupported/,
    );
  });

  it("the script example exits 0 on a valid folder and 1 with the report on a broken one", () => {
    const code = blocks.find((b) => b.kind === "script")?.code as string;
    for (const good of [true, false]) {
      const cwd = project(good);
      // The script imports the package by name: its node_modules links to this package (built dist).
      const nm = join(cwd, "node_modules", "@raw");
      mkdirSync(nm, { recursive: true });
      symlinkSync(join(here, ".."), join(nm, "validate"), "dir");
      writeFileSync(join(cwd, "check.mjs"), code);
      const run = spawnSync(process.execPath, ["check.mjs", "tools/greet"], {
        cwd,
        encoding: "utf8",
        env: { ...process.env, GITHUB_ACTIONS: "" },
      });
      expect(run.status, run.stderr).toBe(good ? 0 : 1);
      expect(run.stdout).toContain(good ? "1 passed, 0 failed" : "0 passed, 1 failed");
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
