/**
 * Issue 17 — the copies `raw validate` imports entries from stay in `validate-snapshots` under Raw's cache for the
 * next run, and the folder stays bounded: a run cleans it fully when the last full clean is older than
 * `VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS` (or it holds more copies than its entry bound), and otherwise only counts the
 * copies, so validating one folder does not look at every copy an earlier run left. Runs the built CLI.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VALIDATE_SNAPSHOT_BOUNDS, VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS } from "@raw/validate";
import { describe, expect, it } from "vitest";
import { appRoot, bin, toolWorkspace } from "./helpers.js";

const HANDLER = "export function handler() { return { isError: false, content: [] }; }\n";
const DAY = 24 * 60 * 60 * 1000;

function validate(ws: string): number | null {
  return spawnSync(process.execPath, [bin, "validate", "a_tool", "--format", "json"], {
    cwd: ws,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, RAW_CACHE_DIR: join(ws, ".cache") },
  }).status;
}

/** Sets the modification time of `path` to `ago` milliseconds before now. */
function age(path: string, ago: number): void {
  const at = (Date.now() - ago) / 1000;
  utimesSync(path, at, at);
}

describe("raw validate keeps its copies bounded", () => {
  it("copies hook folders apart from the hosts' hook-snapshots, and tool folders apart from tool-snapshots", () => {
    const ws = toolWorkspace("raw-validate-snapshots-", [["a_tool", HANDLER]], "A tool whose copy is kept.");
    cpSync(join(appRoot, "hooks", "notify"), join(ws, "notify"), { recursive: true });
    const run = spawnSync(process.execPath, [bin, "validate", "a_tool", "notify", "--format", "json"], {
      cwd: ws,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, RAW_CACHE_DIR: join(ws, ".cache") },
    });
    expect(run.status, run.stdout).toBe(0);
    expect(readdirSync(join(ws, ".cache")).sort()).toEqual(["validate-hook-snapshots", "validate-snapshots"]);
    const homes = (folder: string) =>
      readdirSync(join(ws, ".cache", folder)).filter((name) => /^[0-9a-f]{64}$/.test(name));
    expect(homes("validate-hook-snapshots")).toHaveLength(1);
    expect(homes("validate-snapshots")).toHaveLength(1);
  });

  it("cleans fully at most once per interval: a stale copy goes on the first run after the interval", () => {
    const ws = toolWorkspace("raw-validate-snapshots-", [["a_tool", HANDLER]], "A tool whose copy is kept.");
    const folder = join(ws, ".cache", "validate-snapshots");
    expect(validate(ws)).toBe(0);
    const marker = join(folder, "last-clean");
    expect(statSync(marker).isFile()).toBe(true);

    // A copy unused for longer than the age bound, left by an earlier run.
    const stale = join(folder, "f".repeat(64));
    mkdirSync(join(stale, "root"), { recursive: true });
    writeFileSync(join(stale, "package.json"), "{}\n");
    age(stale, VALIDATE_SNAPSHOT_BOUNDS.maxAgeMs + DAY);

    // Cleaned a minute ago: this run only counts the copies.
    age(marker, 60_000);
    expect(validate(ws)).toBe(0);
    expect(readdirSync(folder)).toContain("f".repeat(64));

    // The last full clean is older than the interval: this run cleans, and says so.
    age(marker, VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS + 60_000);
    expect(validate(ws)).toBe(0);
    expect(readdirSync(folder)).not.toContain("f".repeat(64));
    expect(Date.now() - statSync(marker).mtimeMs).toBeLessThan(VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS);
    // The run's own copy stays.
    expect(readdirSync(folder).filter((name) => /^[0-9a-f]{64}$/.test(name))).toHaveLength(1);
  });
});
