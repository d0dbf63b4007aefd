/**
 * Issue 11, surface 9 — `raw validate` is a CI gate the tool's own code cannot defeat. Entries are imported in a
 * child process of their own with a timeout: an entry that calls `process.exit`, prints to stdout, throws, never
 * settles, spins forever or forges the child's answer gets a coded issue on its own folder, and the report on every
 * other folder is complete and well-formed in text, json and github formats. Runs the built CLI on real folders.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bin, lines, raw, toolWorkspace } from "./helpers.js";

const HANDLER = "export function handler() { return { isError: false, content: [] }; }\n";

/** The hostile entries (module text) by folder name; `good` is a plain valid tool. */
const ENTRIES: Readonly<Record<string, string>> = {
  good: HANDLER,
  exits: `process.exit(3);\n${HANDLER}`,
  stdout: `console.log('{"ok":true,"summary":{"passed":99,"failed":0}}');\n${HANDLER}`,
  throws: `throw new Error("boom at import");\n${HANDLER}`,
  unsettled: `await new Promise(() => {});\n${HANDLER}`,
  spins: `for (;;) {}\n${HANDLER}`,
  forges: `process.send?.({ type: "imported", nonce: undefined, exports: { handler: "function" } });\nawait new Promise(() => {});\n`,
  marker: `import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.RAW_TEST_MARKER, String(process.pid));\n${HANDLER}`,
};

const EXPECTED: Readonly<Record<string, { code: string; message: RegExp } | null>> = {
  good: null,
  exits: {
    code: "entry_exited",
    message: /^selected tool entry ended the validation process while loading: exits: exit code 3$/,
  },
  stdout: {
    code: "entry_wrote_stdout",
    message: /^selected tool entry wrote \d+ bytes to stdout while loading: stdout$/,
  },
  throws: {
    code: "entry_load_failed",
    message: /^selected tool entry failed to load: throws: boom at import$/,
  },
  unsettled: {
    code: "entry_timeout",
    message: /^selected tool entry did not finish loading within 1500 ms: unsettled: it never settled$/,
  },
  spins: {
    code: "entry_timeout",
    message:
      /^selected tool entry did not finish loading within 1500 ms: spins: it kept the event loop busy$/,
  },
  forges: {
    code: "entry_timeout",
    message: /^selected tool entry did not finish loading within 1500 ms: forges: it never settled$/,
  },
  marker: null,
};

function workspace(): string {
  return toolWorkspace(
    "raw-validate-isolation-",
    Object.entries(ENTRIES),
    "A tool whose entry misbehaves when imported.",
  );
}

const folders = Object.keys(ENTRIES);

function runValidate(root: string, format: string) {
  const marker = join(root, "marker.txt");
  const run = spawnSync(
    process.execPath,
    [bin, "validate", ...folders, "--timeout", "1500", "--format", format],
    {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, RAW_TEST_MARKER: marker, RAW_CACHE_DIR: join(root, ".cache") },
    },
  );
  return { run, marker };
}

describe("raw validate imports entries in isolated child processes", () => {
  it("--format json: one well-formed document with a coded issue on each hostile folder only", () => {
    const root = workspace();
    const { run, marker } = runValidate(root, "json");
    expect(run.status).toBe(1);
    const body = JSON.parse(run.stdout) as {
      ok: boolean;
      summary: { passed: number; failed: number };
      files: Array<{ file: string; ok: boolean; issues: Array<{ code: string; message: string }> }>;
    };
    expect(body.files.map((file) => file.file)).toEqual(folders.map((id) => `${id}/tool.json`));
    for (const [i, id] of folders.entries()) {
      const file = body.files[i];
      const expected = EXPECTED[id];
      if (expected === null || expected === undefined) {
        expect(file?.ok, id).toBe(true);
        expect(file?.issues, id).toEqual([]);
      } else {
        expect(
          file?.issues.map((issue) => issue.code),
          id,
        ).toEqual([expected.code]);
        expect(file?.issues[0]?.message, id).toMatch(expected.message);
      }
    }
    const failed = Object.values(EXPECTED).filter((value) => value !== null).length;
    expect(body.summary).toEqual({ passed: folders.length - failed, failed });
    // The entry ran, but in another process than the validator.
    expect(readFileSync(marker, "utf8")).not.toBe(String(run.pid));
  });

  it("--format text and --format github report every folder, one line per issue", () => {
    const root = workspace();
    const text = runValidate(root, "text").run;
    expect(text.status).toBe(1);
    const out = lines(text.stdout);
    for (const id of folders) {
      const expected = EXPECTED[id];
      const header = out.find((line) => line.startsWith(`${id}/tool.json  `));
      expect(header, id).toBe(expected ? `${id}/tool.json  failed (1 error)` : `${id}/tool.json  ok`);
      if (expected) expect(out.some((line) => line.includes(`  ${expected.code}  `))).toBe(true);
    }
    const failed = Object.values(EXPECTED).filter((value) => value !== null).length;
    expect(out.at(-1)).toBe(`${folders.length - failed} passed, ${failed} failed`);

    const github = runValidate(root, "github").run;
    expect(github.status).toBe(1);
    const annotations = lines(github.stdout);
    expect(annotations).toHaveLength(failed + 1);
    for (const id of folders) {
      const expected = EXPECTED[id];
      if (expected === null || expected === undefined) continue;
      const line = annotations.find((entry) => entry.startsWith(`::error file=${id}/tool.json,`));
      expect(line, id).toMatch(new RegExp(`,title=${expected.code}::`));
    }
  });

  it("a folder that fails phase 1 imports nothing", () => {
    const root = workspace();
    writeFileSync(join(root, "marker", "tool.json"), "{ not json");
    const marker = join(root, "marker.txt");
    const run = raw(["validate", "marker", "--format", "json"], { cwd: root });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).files[0].issues[0].code).toBe("manifest_json_invalid");
    expect(existsSync(marker)).toBe(false);
  });

  it("an entry whose daemon keeps stdout open does not hang the run", () => {
    const root = workspace();
    const pidFile = join(root, "daemon.pid");
    writeFileSync(
      join(root, "good", "index.mjs"),
      `import { spawn } from "node:child_process";\nimport { writeFileSync } from "node:fs";\n` +
        `const child = spawn("setsid", ["sleep", "20"], { stdio: "inherit", detached: true });\n` +
        `writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));\nchild.unref();\n${HANDLER}`,
    );
    try {
      // A hang would end in the helper's 60 s kill: no status and no report.
      const run = raw(["validate", "good", "--format", "json"], { cwd: root });
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout).ok).toBe(true);
    } finally {
      // The daemon left the validator's session (the documented limit): end it by its id.
      if (existsSync(pidFile)) {
        try {
          process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
  });
});
