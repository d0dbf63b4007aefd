import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatReport, type ValidationReport, validatePaths } from "../src/index.js";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "raw-validate-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A tool folder named `name` with `tool.json` and its entry `index.mjs`. */
function toolFolder(
  name: string,
  manifest: object,
  entry = 'export async function handler() { return "ok"; }\n',
) {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "tool.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(folder, "index.mjs"), entry);
  return folder;
}

const GOOD = {
  api_version: 2,
  id: "greet",
  version: "1.0.0",
  name: "greet",
  description: "Greets someone.",
  input_schema: {
    type: "object",
    additionalProperties: false,
    properties: { who: { type: "string" } },
  },
  entry: "./index.mjs",
};

describe("validatePaths", () => {
  it("reports a good tool folder as ok, in the shape raw validate --format json prints", async () => {
    toolFolder("greet", GOOD);
    const report = await validatePaths(["greet"], { cwd: dir });
    expect(report.ok).toBe(true);
    expect(report.summary).toEqual({ passed: 1, failed: 0 });
    expect(report.files).toEqual([
      { file: "greet/tool.json", kind: "tool", ok: true, issues: [], warnings: [] },
    ]);
    expect(JSON.parse(formatReport(report, "json"))).toEqual(report);
  });

  it("imports the entry in a child process, never in the caller's", async () => {
    const marker = `RAW_VALIDATE_MARKER_${process.pid}`;
    toolFolder(
      "greet",
      GOOD,
      `globalThis.${marker} = true; process.env.${marker} = "1";\nexport async function handler() { return "ok"; }\n`,
    );
    const report = await validatePaths(["greet"], { cwd: dir });
    expect(report.ok).toBe(true);
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
    expect(process.env[marker]).toBeUndefined();
  });

  it("places every issue of a broken folder with file, line, column, code and message", async () => {
    toolFolder("broken", { ...GOOD, name: "Bad Name", description: 7 });
    const report = await validatePaths(["broken"], { cwd: dir });
    expect(report.ok).toBe(false);
    expect(report.summary).toEqual({ passed: 0, failed: 1 });
    const [file] = report.files as [ValidationReport["files"][number]];
    expect(file.file).toBe("broken/tool.json");
    expect(file.issues.length).toBeGreaterThanOrEqual(2);
    for (const issue of file.issues) {
      expect(issue.code).toMatch(/^[a-z][a-z0-9_.]*$/);
      expect(issue.line).toBeGreaterThan(1);
      expect(issue.column).toBeGreaterThanOrEqual(1);
      expect(issue.message.length).toBeGreaterThan(0);
    }
    const text = formatReport(report, "text");
    expect(text).toContain("broken/tool.json  failed");
    expect(text.endsWith("0 passed, 1 failed\n")).toBe(true);
  });

  it("formats GitHub annotations with the data and property escaping, A1-escaped", async () => {
    const report: ValidationReport = {
      ok: false,
      summary: { passed: 0, failed: 1 },
      files: [
        {
          file: "a,b:c.json",
          kind: "rules",
          ok: false,
          issues: [
            {
              code: "x",
              message: "50% done\r\nnext \u202e\x1b",
              pointer: null,
              line: 2,
              column: 3,
              hint: "h",
            },
          ],
          warnings: [],
        },
      ],
    };
    expect(formatReport(report, "github")).toBe(
      "::error file=a%2Cb%3Ac.json,line=2,col=3,title=x::50%25 done\\r%0Anext \\u202e\\x1b%0Ahint: h\n0 passed, 1 failed\n",
    );
  });

  it("gives a coded error for a bad argument, never a crash", async () => {
    const cases: Array<[unknown, unknown, string]> = [
      ["greet", undefined, "invalid_paths"],
      [[""], undefined, "invalid_paths"],
      [[7], undefined, "invalid_paths"],
      [["a\0b"], undefined, "invalid_paths"],
      [["greet"], "x", "invalid_options"],
      [["greet"], { cwd: "relative" }, "invalid_cwd"],
      [["greet"], { cwd: dir, timeoutMs: 0 }, "invalid_timeout"],
      [["greet"], { cwd: dir, timeoutMs: 1.5 }, "invalid_timeout"],
      [["greet"], { cwd: dir, signal: {} }, "invalid_signal"],
    ];
    for (const [paths, options, code] of cases) {
      await expect(validatePaths(paths as string[], options as undefined)).rejects.toMatchObject({
        name: "ValidateInputError",
        code,
      });
    }
    expect(() => formatReport({} as ValidationReport, "text")).toThrow(
      expect.objectContaining({ code: "invalid_report" }),
    );
    expect(() =>
      formatReport({ ok: true, summary: { passed: 0, failed: 0 }, files: [] }, "xml" as "text"),
    ).toThrow(expect.objectContaining({ code: "invalid_format" }));
  });

  it("rejects with validate_aborted when the signal is already aborted, and validates nothing", async () => {
    toolFolder("greet", GOOD);
    await expect(validatePaths(["greet"], { cwd: dir, signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: "validate_aborted",
    });
  });
});
