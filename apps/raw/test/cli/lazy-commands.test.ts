import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { appRoot, bin, fixtures, tempDir } from "./helpers.js";

/** Source files no `raw validate` run may load: the server, MCP and the web page's code. */
const FOREIGN =
  /src\/serve\/|src\/commands\/(serve|mcp|demo-web)\.ts|packages\/(mcp|panel-web)\/|@modelcontextprotocol/;

/** The sources bundled into each `dist/` file the built binary loaded for `args` (read from the source maps). */
function loadedSources(args: readonly string[]): { files: string[]; sources: string[] } {
  const log = join(tempDir(), "loads.txt");
  const run = spawnSync(
    process.execPath,
    ["--import", join(fixtures, "startup", "log-loads.mjs"), bin, ...args],
    { cwd: appRoot, encoding: "utf8", env: { ...process.env, RAW_LOAD_LOG: log }, timeout: 60_000 },
  );
  expect(run.status, run.stderr).not.toBeNull();
  const files = readFileSync(log, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file:"))
    .map((url) => fileURLToPath(url))
    .filter((path) => path.startsWith(join(appRoot, "dist")));
  const sources = files.flatMap(
    (file) => (JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sources: string[] }).sources,
  );
  return { files: files.map((file) => basename(file)), sources };
}

describe("commands are imported lazily (startup of the built binary)", () => {
  it("raw validate loads no server, MCP or web code", () => {
    const { files, sources } = loadedSources(["validate", "examples/rules.json"]);
    expect(files).toContain("bin.js");
    expect(sources.some((source) => source.endsWith("src/commands/validate.ts"))).toBe(true);
    expect(sources.filter((source) => FOREIGN.test(source))).toEqual([]);
  });

  it("raw help validate loads no command module at all", () => {
    const { sources } = loadedSources(["help", "validate"]);
    expect(sources.filter((source) => /src\/commands\/(?!definitions)[a-z-]+\.ts$/.test(source))).toEqual([]);
  });

  it("the same check sees the serve command when raw serve runs (so it can fail)", () => {
    // `raw serve` with a missing rules file loads the serve command and stops before listening.
    const { sources } = loadedSources(["serve", "--rules", "missing-rules.json"]);
    expect(sources.some((source) => source.endsWith("src/commands/serve.ts"))).toBe(true);
  });
});
