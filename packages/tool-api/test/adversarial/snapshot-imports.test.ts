/**
 * Issue 11, amendment A8 — a module imported from a tool snapshot resolves every bare specifier to the file the
 * original folder would resolve it to, never to a package planted next to the snapshot location (the old default
 * was `<os tmpdir>/raw-tool-snapshots/<digest>`, so `<os tmpdir>/node_modules/<pkg>` won). The snapshot cache is a
 * private folder (0700, owned by the user) under `$RAW_CACHE_DIR`, `$XDG_CACHE_HOME/raw` or `~/.cache/raw`, and it
 * is bounded and cleaned. Every test here imports real modules from real folders.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isContractError } from "@raw/schema";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolRegistry, loadToolFolder, validateToolFolder } from "../../src/index.js";

const base = realpathSync(mkdtempSync(join(tmpdir(), "raw-tool-api-a8-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const savedEnv = { ...process.env };
afterEach(() => {
  for (const key of ["TMPDIR", "XDG_CACHE_HOME", "RAW_CACHE_DIR", "HOME"]) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

let work: string;
let counter = 0;
beforeEach(() => {
  counter++;
  work = join(base, `case-${counter}`);
  mkdirSync(work, { recursive: true });
});

/** Writes `node_modules/<name>` under `dir`: a package whose default export (ESM and CJS) is `value`. */
function plantPackage(dir: string, name: string, value: string): void {
  const pkg = join(dir, "node_modules", name);
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name, version: "1.0.0", main: "index.js" }));
  writeFileSync(join(pkg, "index.js"), `module.exports = ${JSON.stringify(value)};\n`);
}

/** A tool folder `<project>/tools/<id>` whose entry reports the value of the bare import `dep`. */
function toolFolder(project: string, id: string, entry = "./index.mjs", source?: string): string {
  const dir = join(project, "tools", id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "tool.json"),
    JSON.stringify({
      api_version: 2,
      id,
      version: "1.0.0",
      name: id,
      description: "Reports which copy of its dependency it got.",
      input_schema: { type: "object" },
      entry,
    }),
  );
  const esm =
    'import dep from "dep";\nexport function handler() { return { isError: false, content: [{ type: "text", text: dep }] }; }\n';
  writeFileSync(join(dir, entry), source ?? esm);
  return dir;
}

async function resultText(dir: string, cacheDir?: string): Promise<string> {
  const loaded = await loadToolFolder(dir, cacheDir === undefined ? {} : { cacheDir });
  const registry = createToolRegistry();
  registry.register(loaded.registration);
  const result = await registry.dispatch({ name: loaded.registration.name, arguments: {} }, { cwd: work });
  const first = result.content[0];
  return first?.type === "text" ? first.text : JSON.stringify(result);
}

describe("A8: bare imports from a snapshot resolve as from the original folder", () => {
  it("ignores a package planted in <tmpdir>/node_modules (the old default snapshot location)", async () => {
    const tmp = join(work, "tmp");
    mkdirSync(tmp);
    process.env.TMPDIR = tmp;
    process.env.XDG_CACHE_HOME = join(work, "xdg");
    delete process.env.RAW_CACHE_DIR;
    plantPackage(tmp, "dep", "planted");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    const dir = toolFolder(project, "own_dep");
    expect(await resultText(dir)).toBe("own");
  });

  it("ignores a package planted next to an explicit cache directory (ESM entry)", async () => {
    const cacheDir = join(work, "cache");
    plantPackage(work, "dep", "planted");
    plantPackage(cacheDir, "dep", "planted-in-cache");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    expect(await resultText(toolFolder(project, "esm_dep"), cacheDir)).toBe("own");
  });

  it("resolves require() of a CommonJS entry the same way", async () => {
    const cacheDir = join(work, "cache");
    plantPackage(work, "dep", "planted");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    const cjs =
      'const dep = require("dep");\nexports.handler = () => ({ isError: false, content: [{ type: "text", text: dep }] });\n';
    expect(await resultText(toolFolder(project, "cjs_dep", "./index.cjs", cjs), cacheDir)).toBe("own");
  });

  it("resolves to the very file the original folder resolves to", async () => {
    const cacheDir = join(work, "cache");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    plantPackage(cacheDir, "dep", "planted-in-cache");
    const where =
      'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n' +
      'export function handler() { return { isError: false, content: [{ type: "text", text: require.resolve("dep") }] }; }\n';
    const text = await resultText(toolFolder(project, "where_dep", "./index.mjs", where), cacheDir);
    expect(text).toBe(join(project, "node_modules", "dep", "index.js"));
  });

  it("keeps the package scope of the original folder: a .js entry under a type=module project is ESM", async () => {
    const cacheDir = join(work, "cache");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module" }));
    expect(await resultText(toolFolder(project, "scoped_dep", "./index.js"), cacheDir)).toBe("own");
  });

  it("links only what an ancestor has, and the next load links what it gained (a package installed later)", async () => {
    const cacheDir = join(work, "cache");
    const project = join(work, "project");
    const dir = toolFolder(project, "later");
    const first = await validateToolFolder(dir, { cacheDir });
    expect(first.ok).toBe(false);
    expect(first.issues.map((issue) => issue.code)).toEqual(["entry_load_failed"]);
    const [home] = readdirSync(cacheDir);
    const mirrored = join(cacheDir, home as string, "root", ...project.split("/").filter(Boolean));
    expect(existsSync(join(mirrored, "node_modules"))).toBe(false);
    plantPackage(project, "dep", "installed later");
    // The same folder, so the same snapshot home: the next load lays its mirror out again. This process keeps the
    // failed import of that URL (Node caches it), so a fresh process imports the copy.
    await validateToolFolder(dir, { cacheDir });
    const entry = join(mirrored, "tools", "later", "index.mjs");
    const printed = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(entry)}); console.log(m.handler().content[0].text);`,
      ],
      { encoding: "utf8" },
    );
    expect(printed.trim()).toBe("installed later");
  });

  it("resolves a dependency inside the folder to the snapshot's own copy", async () => {
    const cacheDir = join(work, "cache");
    const project = join(work, "project");
    plantPackage(work, "dep", "planted");
    const dir = toolFolder(project, "inner_dep");
    plantPackage(dir, "dep", "inner");
    const loaded = await loadToolFolder(dir, { cacheDir });
    expect(loaded.importDir.startsWith(`${cacheDir}/`)).toBe(true);
    expect(await resultText(dir, cacheDir)).toBe("inner");
  });
});

describe("A8: the snapshot cache is private, configurable, bounded and cleaned", () => {
  it("defaults to $XDG_CACHE_HOME/raw, created with mode 0700", async () => {
    process.env.XDG_CACHE_HOME = join(work, "xdg");
    delete process.env.RAW_CACHE_DIR;
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    const loaded = await loadToolFolder(toolFolder(project, "xdg_tool"));
    const raw = join(work, "xdg", "raw");
    expect(loaded.importDir.startsWith(`${raw}/`)).toBe(true);
    for (const dir of [raw, join(raw, "tool-snapshots", loaded.digest)]) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(statSync(join(raw, "tool-snapshots")).mode & 0o777).toBe(0o700);
    expect(statSync(join(raw, "tool-snapshots")).uid).toBe(process.getuid?.());
  });

  it("falls back to ~/.cache/raw, and RAW_CACHE_DIR wins over both", async () => {
    process.env.HOME = join(work, "home");
    delete process.env.XDG_CACHE_HOME;
    delete process.env.RAW_CACHE_DIR;
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    const dir = toolFolder(project, "home_tool");
    const fromHome = await loadToolFolder(dir);
    expect(fromHome.importDir.startsWith(join(work, "home", ".cache", "raw", "tool-snapshots"))).toBe(true);
    process.env.XDG_CACHE_HOME = join(work, "xdg");
    process.env.RAW_CACHE_DIR = join(work, "explicit");
    const explicit = await loadToolFolder(dir);
    expect(explicit.importDir.startsWith(join(work, "explicit", "tool-snapshots"))).toBe(true);
    expect(statSync(join(work, "explicit")).mode & 0o777).toBe(0o700);
  });

  it("tightens a cache folder of the user that others can read, and refuses a link as the cache folder", async () => {
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    const dir = toolFolder(project, "perm_tool");
    const open = join(work, "open-cache");
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o755);
    await loadToolFolder(dir, { cacheDir: open });
    expect(statSync(open).mode & 0o777).toBe(0o700);

    const linked = join(work, "linked-cache");
    execFileSync("ln", ["-s", open, linked]);
    const error = await loadToolFolder(dir, { cacheDir: linked }).catch((e: unknown) => e);
    expect(isContractError(error)).toBe(true);
    const result = await validateToolFolder(dir, { cacheDir: linked });
    expect(result.ok).toBe(false);
    expect(result.issues[0]?.code).toBe("snapshot_cache_unsafe");
    expect(result.issues[0]?.message).toBe(
      `snapshot cache ${linked} is not a private folder: it is a symbolic link`,
    );
  });

  it("removes stale snapshots and staging folders, and keeps the ones in use", async () => {
    const cacheDir = join(work, "cache");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    const stale = join(cacheDir, "a".repeat(64));
    const staging = join(cacheDir, `.${"b".repeat(64)}.1.x`);
    mkdirSync(join(stale, "root"), { recursive: true });
    mkdirSync(staging, { recursive: true });
    const old = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    utimesSync(stale, old, old);
    utimesSync(staging, old, old);
    const loaded = await loadToolFolder(toolFolder(project, "swept"), { cacheDir });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(staging)).toBe(false);
    expect(readdirSync(cacheDir)).toEqual([loaded.digest]);
  });

  it("leaves the cache as it is with sweepCache: false (a caller's own folder for one run)", async () => {
    const cacheDir = join(work, "cache");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    const stale = join(cacheDir, "a".repeat(64));
    mkdirSync(join(stale, "root"), { recursive: true });
    const old = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    utimesSync(stale, old, old);
    const checked = await validateToolFolder(toolFolder(project, "kept"), { cacheDir, sweepCache: false });
    expect(checked.ok).toBe(true);
    expect(existsSync(stale)).toBe(true);
    expect(readdirSync(cacheDir).sort()).toHaveLength(2);
    await loadToolFolder(toolFolder(project, "kept"), { cacheDir });
    expect(existsSync(stale)).toBe(false);
  });

  it("keeps the number of snapshots bounded", async () => {
    const cacheDir = join(work, "cache");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    mkdirSync(cacheDir, { recursive: true });
    const now = Date.now();
    for (let i = 0; i < 100; i++) {
      const dir = join(cacheDir, i.toString(16).padStart(64, "0"));
      mkdirSync(join(dir, "root"), { recursive: true });
      const at = new Date(now - (i + 1) * 1000);
      utimesSync(dir, at, at);
    }
    const loaded = await loadToolFolder(toolFolder(project, "bounded"), { cacheDir });
    const left = readdirSync(cacheDir);
    expect(left).toContain(loaded.digest);
    expect(left.length).toBeLessThanOrEqual(64);
    // The newest survive.
    expect(left).toContain("0".repeat(64));
  });
});
