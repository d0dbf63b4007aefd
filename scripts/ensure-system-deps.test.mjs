import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { decide, ensureSystemDeps, findExecutable, missingPackages } from "./ensure-system-deps.mjs";

const script = fileURLToPath(new URL("ensure-system-deps.mjs", import.meta.url));
const made = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "raw-sysdeps-"));
  made.push(dir);
  return dir;
}

/** Creates the file `path` under `root` (and its folders). */
function touch(root, path) {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, "");
}

/**
 * A machine: a file system root holding what `present` names, and a PATH folder with an `apt-get` (a real shell
 * script) that records each call (its arguments and DEBIAN_FRONTEND) and, on `install`, creates the files of what it
 * installs, or exits 100 when `aptFails`.
 */
function machine({ present = [], apt = true, aptFails = false, aptInstallsNothing = false } = {}) {
  const root = tempDir();
  const bin = join(root, "fake-bin");
  mkdirSync(bin);
  const calls = join(root, "apt-calls.txt");
  if (present.includes("chromium")) touch(root, "usr/bin/chromium");
  if (present.includes("postgresql")) touch(root, "usr/lib/postgresql/16/bin/initdb");
  if (apt) {
    const aptGet = join(bin, "apt-get");
    writeFileSync(
      aptGet,
      [
        "#!/bin/sh",
        "PATH=/usr/bin:/bin",
        `echo "$DEBIAN_FRONTEND $*" >> "${calls}"`,
        aptFails ? 'echo "E: Unable to locate package chromium" >&2; exit 100' : "",
        aptInstallsNothing ? "exit 0" : "",
        'if [ "$1" = install ]; then',
        '  for pkg in "$@"; do',
        `    [ "$pkg" = chromium ] && mkdir -p "${root}/usr/bin" && touch "${root}/usr/bin/chromium"`,
        `    [ "$pkg" = postgresql ] && mkdir -p "${root}/usr/lib/postgresql/16/bin" && touch "${root}/usr/lib/postgresql/16/bin/initdb"`,
        "  done",
        "fi",
        "exit 0",
      ].join("\n"),
    );
    chmodSync(aptGet, 0o755);
  }
  const env = { PATH: bin };
  const aptCalls = () => (existsSync(calls) ? readFileSync(calls, "utf8").trimEnd().split("\n") : []);
  return { root, env, aptCalls };
}

/** Runs `ensureSystemDeps` on `box`, collecting what it logs. */
function ensure(box, isRoot) {
  const logged = [];
  const status = ensureSystemDeps({ root: box.root, env: box.env, isRoot, log: (line) => logged.push(line) });
  return { status, logged };
}

describe("ensure-system-deps: what the tests need from the machine", () => {
  it("with Chromium and PostgreSQL present it does nothing: no apt call, no output, status 0", () => {
    const box = machine({ present: ["chromium", "postgresql"] });
    expect(ensure(box, true)).toEqual({ status: 0, logged: [] });
    expect(ensure(box, false)).toEqual({ status: 0, logged: [] });
    expect(box.aptCalls()).toEqual([]);
  });

  it("as root with apt-get it installs what is missing, non-interactively, saying so in one line", () => {
    const box = machine();
    const { status, logged } = ensure(box, true);
    expect(status).toBe(0);
    expect(logged).toEqual([
      "ensure-system-deps: installing chromium and postgresql for the tests (apt-get, Debian packages)",
    ]);
    expect(box.aptCalls()).toEqual([
      "noninteractive update -q",
      "noninteractive install -y -q --no-install-recommends chromium postgresql",
    ]);
    // Idempotent: the second run finds everything and calls nothing.
    expect(ensure(box, true)).toEqual({ status: 0, logged: [] });
    expect(box.aptCalls()).toHaveLength(2);
  });

  it("installs only the missing package", () => {
    const box = machine({ present: ["chromium"] });
    expect(ensure(box, true).status).toBe(0);
    expect(box.aptCalls()).toEqual([
      "noninteractive update -q",
      "noninteractive install -y -q --no-install-recommends postgresql",
    ]);
  });

  it("not root: stops at once with one line naming the packages, and runs no apt-get", () => {
    const box = machine({ present: ["postgresql"] });
    const { status, logged } = ensure(box, false);
    expect(status).toBe(1);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("apt-get install -y --no-install-recommends chromium");
    expect(logged[0]).toContain("as root");
    expect(box.aptCalls()).toEqual([]);
  });

  it("no apt-get on PATH: stops at once with one line naming the packages", () => {
    const box = machine({ apt: false });
    const { status, logged } = ensure(box, true);
    expect(status).toBe(1);
    expect(logged).toEqual([expect.stringMatching(/chromium and postgresql .*apt-get is not available/)]);
  });

  it("apt-get failing: its last lines, then one line, status 1", () => {
    const box = machine({ aptFails: true });
    const { status, logged } = ensure(box, true);
    expect(status).toBe(1);
    expect(logged.at(-2)).toContain("E: Unable to locate package chromium");
    expect(logged.at(-1)).toBe(
      "ensure-system-deps: apt-get could not install chromium and postgresql (its output above)",
    );
    expect(box.aptCalls()).toEqual(["noninteractive update -q"]);
  });

  it("apt-get succeeding without providing the files: status 1, naming what is still missing", () => {
    const box = machine({ aptInstallsNothing: true });
    const { status, logged } = ensure(box, true);
    expect(status).toBe(1);
    expect(logged.at(-1)).toBe(
      "ensure-system-deps: apt-get ran but chromium and postgresql is still missing",
    );
  });

  it("RAW_CHROMIUM names the browser: Chromium is not installed; a RAW_CHROMIUM that does not exist stops", () => {
    const box = machine({ present: ["postgresql"] });
    touch(box.root, "opt/browser");
    const own = { ...box, env: { ...box.env, RAW_CHROMIUM: join(box.root, "opt/browser") } };
    expect(ensure(own, true)).toEqual({ status: 0, logged: [] });
    const gone = { ...box, env: { ...box.env, RAW_CHROMIUM: join(box.root, "opt/none") } };
    const { status, logged } = ensure(gone, true);
    expect(status).toBe(1);
    expect(logged).toEqual([expect.stringContaining("RAW_CHROMIUM names")]);
    expect(box.aptCalls()).toEqual([]);
  });

  it("decide: ready, install or stop from the facts alone", () => {
    expect(decide({ missing: [], isRoot: false, aptGet: undefined })).toEqual({ kind: "ready" });
    expect(decide({ missing: ["postgresql"], isRoot: true, aptGet: "/usr/bin/apt-get" })).toEqual({
      kind: "install",
      aptGet: "/usr/bin/apt-get",
      packages: ["postgresql"],
    });
    expect(decide({ missing: ["chromium"], isRoot: false, aptGet: "/usr/bin/apt-get" }).kind).toBe("stop");
    expect(decide({ missing: ["chromium"], isRoot: true, aptGet: undefined }).kind).toBe("stop");
  });

  it("findExecutable: the first executable of that name on PATH, skipping files that are not executable", () => {
    const a = tempDir();
    const b = tempDir();
    writeFileSync(join(a, "apt-get"), "");
    writeFileSync(join(b, "apt-get"), "#!/bin/sh\n");
    chmodSync(join(b, "apt-get"), 0o755);
    expect(findExecutable("apt-get", `${a}:${b}`)).toBe(join(b, "apt-get"));
    expect(findExecutable("apt-get", a)).toBeUndefined();
    expect(findExecutable("apt-get", undefined)).toBeUndefined();
  });

  it("missingPackages reads the real layout: /usr/bin/chromium and /usr/lib/postgresql/<version>/bin/initdb", () => {
    const box = machine();
    expect(missingPackages({ root: box.root, env: {} })).toEqual(["chromium", "postgresql"]);
    touch(box.root, "usr/lib/postgresql/15/bin/pg_ctl");
    expect(missingPackages({ root: box.root, env: {} })).toEqual(["chromium", "postgresql"]);
    touch(box.root, "usr/lib/postgresql/15/bin/initdb");
    touch(box.root, "usr/bin/chromium");
    expect(missingPackages({ root: box.root, env: {} })).toEqual([]);
  });

  it("the script itself, on this machine (which npm test prepared): exits 0 silently without calling apt-get", () => {
    const box = machine({ apt: true });
    // apt-get on PATH is the recording one: were anything missing here, the call would show in its log.
    const run = spawnSync(process.execPath, [script], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${box.env.PATH}:${process.env.PATH}` },
      timeout: 10_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toBe("");
    expect(box.aptCalls()).toEqual([]);
  });
});
