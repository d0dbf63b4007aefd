/**
 * Issue 11, amendment A8 — a Node.js hook run from its snapshot resolves bare imports as from its original folder,
 * never to a package planted next to the snapshot location (the old default was `<os tmpdir>/raw-hook-snapshots`,
 * so `<os tmpdir>/node_modules/<pkg>` won). The snapshot cache is a private folder (0700, owned by the user) under
 * `$RAW_CACHE_DIR`, `$XDG_CACHE_HOME/raw` or `~/.cache/raw`, bounded and cleaned. Real hook processes, real folders.
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
import { loadHookFolder, runHook } from "../../src/index.js";
import { prePayload } from "../helpers.js";

const base = realpathSync(mkdtempSync(join(tmpdir(), "raw-hook-a8-")));
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

function plantPackage(dir: string, name: string, value: string): void {
  const pkg = join(dir, "node_modules", name);
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name, version: "1.0.0", main: "index.js" }));
  writeFileSync(join(pkg, "index.js"), `module.exports = ${JSON.stringify(value)};\n`);
}

/** `<project>/hooks/guard`: `node ./hook.mjs`, which answers with the value of its bare import `dep`. */
function hookFolder(project: string, script = "./hook.mjs", source?: string): string {
  const dir = join(project, "hooks", "guard");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "hook.json"),
    JSON.stringify({
      protocol_version: 2,
      name: "guard",
      events: [{ name: "PreToolUse", match: "builtin/*" }],
      command: "node",
      args: [script],
      timeout_ms: 10000,
    }),
  );
  writeFileSync(
    join(dir, script),
    source ??
      'import dep from "dep";\nprocess.stdin.resume();\nprocess.stdin.on("end", () => process.stdout.write(JSON.stringify({ message: dep })));\n',
  );
  return dir;
}

async function messageOf(dir: string, snapshotDir?: string): Promise<string | undefined> {
  const hook = await loadHookFolder(dir, snapshotDir === undefined ? {} : { snapshotDir });
  const run = await runHook(hook, prePayload(work));
  return run.message ?? `${run.outcome} ${run.code ?? ""} ${run.receipt.stderr ?? ""}`;
}

describe("A8: a hook run from its snapshot resolves bare imports as from its original folder", () => {
  it("ignores a package planted in <tmpdir>/node_modules (the old default snapshot location)", async () => {
    const tmp = join(work, "tmp");
    mkdirSync(tmp);
    process.env.TMPDIR = tmp;
    process.env.XDG_CACHE_HOME = join(work, "xdg");
    delete process.env.RAW_CACHE_DIR;
    plantPackage(tmp, "dep", "planted");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    expect(await messageOf(hookFolder(project))).toBe("own");
  });

  it("ignores packages planted next to an explicit snapshot directory; CommonJS too", async () => {
    const cache = join(work, "cache");
    plantPackage(work, "dep", "planted");
    plantPackage(cache, "dep", "planted-in-cache");
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    const cjs =
      'const dep = require("dep");\nprocess.stdin.resume();\nprocess.stdin.on("end", () => process.stdout.write(JSON.stringify({ message: dep })));\n';
    expect(await messageOf(hookFolder(project, "./hook.cjs", cjs), cache)).toBe("own");
  });
});

describe("A8: the hook snapshot cache is private, bounded and cleaned", () => {
  it("defaults to $XDG_CACHE_HOME/raw/hook-snapshots with mode 0700; RAW_CACHE_DIR wins", async () => {
    process.env.XDG_CACHE_HOME = join(work, "xdg");
    delete process.env.RAW_CACHE_DIR;
    const project = join(work, "project");
    plantPackage(project, "dep", "own");
    const dir = hookFolder(project);
    const hook = await loadHookFolder(dir);
    const cache = join(work, "xdg", "raw", "hook-snapshots");
    expect(hook.folder.startsWith(`${cache}/`)).toBe(true);
    for (const path of [join(work, "xdg", "raw"), cache]) {
      expect(statSync(path).mode & 0o777).toBe(0o700);
      expect(statSync(path).uid).toBe(process.getuid?.());
    }
    process.env.RAW_CACHE_DIR = join(work, "explicit");
    expect((await loadHookFolder(dir)).folder.startsWith(join(work, "explicit", "hook-snapshots"))).toBe(
      true,
    );
  });

  it("tightens an open folder of the user and refuses a link", async () => {
    const project = join(work, "project");
    const dir = hookFolder(project);
    const open = join(work, "open");
    mkdirSync(open);
    chmodSync(open, 0o755);
    await loadHookFolder(dir, { snapshotDir: open });
    expect(statSync(open).mode & 0o777).toBe(0o700);
    const linked = join(work, "linked");
    execFileSync("ln", ["-s", open, linked]);
    const error = await loadHookFolder(dir, { snapshotDir: linked }).catch((e: unknown) => e);
    expect(isContractError(error)).toBe(true);
    expect((error as { code: string }).code).toBe("hook_snapshot_cache_unsafe");
  });

  it("removes stale snapshots and staging folders and bounds their number", async () => {
    const cache = join(work, "cache");
    mkdirSync(cache);
    const now = Date.now();
    for (let i = 0; i < 80; i++) {
      const home = join(cache, i.toString(16).padStart(64, "0"));
      mkdirSync(home);
      const at = new Date(now - (i + 1) * 1000);
      utimesSync(home, at, at);
    }
    const old = new Date(now - 30 * 24 * 3600 * 1000);
    const stale = join(cache, "f".repeat(64));
    const staging = join(cache, ".staging-x");
    mkdirSync(stale);
    mkdirSync(staging);
    utimesSync(stale, old, old);
    utimesSync(staging, old, old);
    const hook = await loadHookFolder(hookFolder(join(work, "project")), { snapshotDir: cache });
    const left = readdirSync(cache);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(staging)).toBe(false);
    expect(left.length).toBeLessThanOrEqual(64);
    expect(
      hook.folder.startsWith(join(cache, left.find((name) => hook.folder.includes(name)) ?? "none")),
    ).toBe(true);
    expect(left).toContain("0".repeat(64));
  });
});
