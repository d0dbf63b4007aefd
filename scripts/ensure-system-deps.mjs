#!/usr/bin/env node
// `npm test` runs this first (the root `pretest` script): the browser tests (test-support/browser.ts) drive Debian's
// Chromium and the PostgreSQL store tests start a throwaway cluster with Debian's PostgreSQL. When either is missing
// and this runs as root with apt-get, it installs them; otherwise it stops at once with one line naming what to
// install, instead of a wall of failed tests. When both are present it does nothing (no apt call).
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the browser tests find Chromium unless `RAW_CHROMIUM` names another browser (test-support/browser.ts). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** The folder holding one folder per installed PostgreSQL version, each with `bin/initdb` (the cluster harness). */
export const POSTGRESQL_ROOT = "/usr/lib/postgresql";

/** The Debian packages the tests need, in the order they are named and installed. */
export const SYSTEM_PACKAGES = /** @type {const} */ (["chromium", "postgresql"]);

/** Most lines of apt-get's own output repeated when it fails. */
export const MAX_APT_LINES = 20;

/**
 * The Debian packages missing from the machine whose file system starts at `root`: `chromium` when
 * `/usr/bin/chromium` is absent, `postgresql` when no `/usr/lib/postgresql/<version>/bin/initdb` exists. With
 * `RAW_CHROMIUM` set the browser is the user's own choice: never installed (`chromiumOverride` reports it).
 * @param {{ root?: string, env?: Record<string, string | undefined> }} [options]
 * @returns {string[]}
 */
export function missingPackages({ root = "/", env = process.env } = {}) {
  const missing = [];
  if (env.RAW_CHROMIUM === undefined && !existsSync(join(root, CHROMIUM_PATH))) missing.push("chromium");
  const versions = join(root, POSTGRESQL_ROOT);
  const initdb = existsSync(versions)
    ? readdirSync(versions).some((version) => existsSync(join(versions, version, "bin", "initdb")))
    : false;
  if (!initdb) missing.push("postgresql");
  return missing;
}

/**
 * The browser `RAW_CHROMIUM` names when it does not exist (installing Debian's Chromium would not help), else
 * undefined.
 * @param {Record<string, string | undefined>} env
 * @returns {string | undefined}
 */
export function chromiumOverride(env) {
  const path = env.RAW_CHROMIUM;
  return path !== undefined && !existsSync(path) ? path : undefined;
}

/**
 * The first executable file called `name` in the folders of `path` (a `PATH` value), or undefined.
 * @param {string} name
 * @param {string | undefined} path
 * @returns {string | undefined}
 */
export function findExecutable(name, path) {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * What to do about the `missing` packages: nothing, install them with `aptGet` (only as root), or stop with one
 * line saying what to install.
 * @param {{ missing: readonly string[], isRoot: boolean, aptGet: string | undefined }} facts
 * @returns {{ kind: "ready" } | { kind: "install", aptGet: string, packages: string[] } | { kind: "stop", message: string }}
 */
export function decide({ missing, isRoot, aptGet }) {
  if (missing.length === 0) return { kind: "ready" };
  const install = `apt-get install -y --no-install-recommends ${missing.join(" ")}`;
  if (aptGet === undefined) {
    return {
      kind: "stop",
      message: `the tests need ${missing.join(" and ")} (Debian packages) and apt-get is not available: install them, as root: ${install}`,
    };
  }
  if (!isRoot) {
    return {
      kind: "stop",
      message: `the tests need ${missing.join(" and ")}: install them as root (sudo ${install}), then run npm test again`,
    };
  }
  return { kind: "install", aptGet, packages: [...missing] };
}

/**
 * Runs apt-get with `args` (non-interactive); returns its last lines of output when it fails, else undefined.
 * @param {string} aptGet
 * @param {string[]} args
 * @param {Record<string, string | undefined>} env
 * @returns {string | undefined}
 */
function apt(aptGet, args, env) {
  const run = spawnSync(aptGet, args, {
    env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status === 0) return undefined;
  const output = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}`;
  return output.trimEnd().split("\n").slice(-MAX_APT_LINES).join("\n");
}

/**
 * Makes sure the system packages the tests drive are installed; resolves to the exit status (0: ready). Every
 * input is a parameter: the file system `root`, the environment (its `PATH` finds apt-get) and whether this runs
 * as root. Writes one line to `log` when it installs, and one line when it cannot.
 * @param {{ root?: string, env?: Record<string, string | undefined>, isRoot?: boolean, log?: (line: string) => void }} [options]
 * @returns {number}
 */
export function ensureSystemDeps({
  root = "/",
  env = process.env,
  isRoot = process.getuid?.() === 0,
  log = (line) => process.stderr.write(`${line}\n`),
} = {}) {
  const override = chromiumOverride(env);
  if (override !== undefined) {
    log(
      `ensure-system-deps: RAW_CHROMIUM names ${override}, which does not exist: point it at a Chromium binary`,
    );
    return 1;
  }
  const plan = decide({
    missing: missingPackages({ root, env }),
    isRoot,
    aptGet: findExecutable("apt-get", env.PATH),
  });
  if (plan.kind === "ready") return 0;
  if (plan.kind === "stop") {
    log(`ensure-system-deps: ${plan.message}`);
    return 1;
  }
  log(
    `ensure-system-deps: installing ${plan.packages.join(" and ")} for the tests (apt-get, Debian packages)`,
  );
  const failed =
    apt(plan.aptGet, ["update", "-q"], env) ??
    apt(plan.aptGet, ["install", "-y", "-q", "--no-install-recommends", ...plan.packages], env);
  if (failed !== undefined) {
    log(failed);
    log(`ensure-system-deps: apt-get could not install ${plan.packages.join(" and ")} (its output above)`);
    return 1;
  }
  const still = missingPackages({ root, env });
  if (still.length > 0) {
    log(`ensure-system-deps: apt-get ran but ${still.join(" and ")} is still missing`);
    return 1;
  }
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = ensureSystemDeps();
}
