import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatReports, MAX_INPUT_BYTES, REPORT_FORMATS, validatePath } from "@raw/validate";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { raw, tempDir } from "./helpers.js";

/** A tool folder, a hook folder and a rules file whose JSON files hold `bytes`. */
function plant(root: string, bytes: Uint8Array | string): string[] {
  mkdirSync(join(root, "t"), { recursive: true });
  mkdirSync(join(root, "h"), { recursive: true });
  writeFileSync(join(root, "t", "tool.json"), bytes);
  writeFileSync(join(root, "t", "index.mjs"), "export function handler() {}\n");
  writeFileSync(join(root, "h", "hook.json"), bytes);
  writeFileSync(join(root, "rules.json"), bytes);
  return ["t", "h", "rules.json"];
}

/** Checks a JSON report: one document, every file reported, failed, every issue positioned. */
function checkReport(stdout: string, files: number): void {
  const body = JSON.parse(stdout) as {
    ok: boolean;
    files: Array<{ ok: boolean; issues: Array<{ code: string; line: number; column: number }> }>;
  };
  expect(body.ok).toBe(false);
  expect(body.files).toHaveLength(files);
  for (const file of body.files) {
    expect(file.ok).toBe(false);
    expect(file.issues.length).toBeGreaterThan(0);
    for (const issue of file.issues) {
      expect(issue.code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(issue.line).toBeGreaterThanOrEqual(1);
      expect(issue.column).toBeGreaterThanOrEqual(1);
    }
  }
}

describe("raw validate: any file, however broken, gives a bounded, positioned report and exit 1", () => {
  it.each([
    ["binary", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 97 + 13) % 256))],
    ["not UTF-8 (Latin-1)", Buffer.from('{"name": "caf\xe9"}', "latin1")],
    ["deeply nested", `${'{"a":'.repeat(200_000)}1${"}".repeat(200_000)}`],
    ["deeply nested, broken", `${"[".repeat(200_000)}1,${"]".repeat(200_000)}`],
    ["empty", ""],
    ["a NUL and controls", '{"name": "\u0000\u001b[31m"}'],
  ])("%s", (_name, bytes) => {
    const root = tempDir();
    const paths = plant(root, bytes);
    for (const format of REPORT_FORMATS) {
      const run = raw(["validate", ...paths, "--format", format], { cwd: root });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe("");
      if (format === "json") checkReport(run.stdout, 3);
      else expect(run.stdout).toMatch(/\n0 passed, 3 failed\n$/);
      expect(run.stdout).not.toMatch(/is not valid JSON/);
    }
  });

  it("a file over the size limit is refused before it is read whole", () => {
    const root = tempDir();
    const huge = Buffer.alloc(MAX_INPUT_BYTES + 1, 0x20);
    huge[0] = 0x5b;
    const paths = plant(root, huge);
    const run = raw(["validate", ...paths, "--format", "json"], { cwd: root });
    expect(run.status).toBe(1);
    checkReport(run.stdout, 3);
    const codes = (JSON.parse(run.stdout) as { files: Array<{ issues: Array<{ code: string }> }> }).files.map(
      (file) => file.issues[0]?.code,
    );
    expect(codes).toEqual(["file_too_large", "hook_manifest_too_large", "file_too_large"]);
  });

  it("never throws and always positions, on 1,000 generated texts (fast-check, in process)", async () => {
    const root = tempDir();
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 80 }),
      fc.json().map((json) => json.slice(0, Math.max(0, json.length - 1))),
      fc.json().map((json) => `\uFEFF${json}`),
      fc
        .jsonValue()
        .map((value) => JSON.stringify({ api_version: 2, id: "t", entry: "./index.mjs", x: value })),
    );
    await fc.assert(
      fc.asyncProperty(text, async (content) => {
        const paths = plant(root, content);
        const reports = (await Promise.all(paths.map((path) => validatePath(path, root)))).flat();
        expect(reports).toHaveLength(3);
        for (const report of reports) {
          for (const issue of [...report.issues, ...report.warnings]) {
            expect(Number.isSafeInteger(issue.line) && issue.line >= 1).toBe(true);
            expect(Number.isSafeInteger(issue.column) && issue.column >= 1).toBe(true);
          }
        }
        expect(formatReports(reports, "text")).toMatch(/\n0 passed, 3 failed\n$/);
        expect(formatReports(reports, "github")).toMatch(/\n0 passed, 3 failed\n$/);
        expect(JSON.parse(formatReports(reports, "json")).summary).toEqual({ passed: 0, failed: 3 });
      }),
      { seed: 20261203, numRuns: 1000 },
    );
  }, 120_000);
});
