/**
 * The starter folders (`toolScaffold`, `hookScaffold`): valid as written, their own `node:test` tests pass, and their
 * editor hint names the committed schema's `$id` (amendment A9).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  HOOK_MANIFEST_SCHEMA_URL,
  hookScaffold,
  SCAFFOLD_HOOK_NAME,
  SCAFFOLD_TOOL_ID,
  type Scaffold,
  TOOL_MANIFEST_SCHEMA_URL,
  toolScaffold,
  validatePaths,
} from "../src/index.js";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "raw-scaffold-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, files: Scaffold): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  for (const [file, content] of files) writeFileSync(join(folder, file), content, { flag: "wx" });
  return folder;
}

function schemaId(relative: string): string {
  return JSON.parse(readFileSync(new URL(`../../${relative}`, import.meta.url), "utf8")).$id;
}

describe("toolScaffold", () => {
  it("writes a tool folder that validates clean and whose own test passes", async () => {
    const folder = write("append_line", toolScaffold("append_line"));
    expect(toolScaffold("append_line").map(([file]) => file)).toEqual(["tool.json", "index.mjs", "test.mjs"]);
    const report = await validatePaths([folder], { cwd: dir });
    expect(report.ok, JSON.stringify(report.files)).toBe(true);
    expect(report.files.map((file) => [file.kind, file.ok, file.warnings.length])).toEqual([
      ["tool", true, 0],
    ]);
    const manifest = JSON.parse(readFileSync(join(folder, "tool.json"), "utf8"));
    expect([manifest.id, manifest.name, manifest.$schema]).toEqual([
      "append_line",
      "append_line",
      TOOL_MANIFEST_SCHEMA_URL,
    ]);
    expect(TOOL_MANIFEST_SCHEMA_URL).toBe(schemaId("tool-api/schemas/tool.schema.json"));
    const test = spawnSync(process.execPath, ["--test", join(folder, "test.mjs")], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/# pass 3\n/);
  });

  it("accepts as ids only what a manifest accepts as a model-facing name", () => {
    expect(["touch", "append_line", "a-1"].every((id) => SCAFFOLD_TOOL_ID.test(id))).toBe(true);
    expect(["Touch", "1a", "", "a".repeat(65), "a/b", "../x"].some((id) => SCAFFOLD_TOOL_ID.test(id))).toBe(
      false,
    );
  });
});

describe("hookScaffold", () => {
  it("writes a hook folder that validates clean and whose own test passes", async () => {
    const folder = write("no-rm", hookScaffold("no-rm"));
    const report = await validatePaths([folder], { cwd: dir });
    expect(report.ok, JSON.stringify(report.files)).toBe(true);
    expect(report.files.map((file) => [file.kind, file.ok])).toEqual([["hook", true]]);
    const manifest = JSON.parse(readFileSync(join(folder, "hook.json"), "utf8"));
    expect([manifest.name, manifest.$schema]).toEqual(["no-rm", HOOK_MANIFEST_SCHEMA_URL]);
    expect(HOOK_MANIFEST_SCHEMA_URL).toBe(schemaId("hook-protocol/schemas/hook.schema.json"));
    const test = spawnSync(process.execPath, ["--test", join(folder, "test.mjs")], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/# pass 2\n/);
    expect(SCAFFOLD_HOOK_NAME.test("No-rm")).toBe(false);
  });
});
