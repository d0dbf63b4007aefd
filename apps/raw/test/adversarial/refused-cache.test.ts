/**
 * Issue 23 (item 3), amendment A10 "Refused means untouched": a snapshot cache folder that `raw validate` refuses
 * (`snapshot_cache_unsafe`: a symbolic link, another user's folder) is never read, written, cleaned or truncated
 * afterwards, by the run's end-of-run clean nor by a later run. Real links, a real foreign-owned folder (the tests run
 * as root and give the folder to `nobody`), and victim files outside the cache whose bytes must stay as they were.
 * Runs the built CLI.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS } from "@raw/validate";
import { describe, expect, it } from "vitest";
import { bin, tempDir, toolWorkspace } from "../cli/helpers.js";

const HANDLER = "export function handler() { return { isError: false, content: [] }; }\n";
const DAY = 24 * 60 * 60 * 1000;
const NOBODY = 65_534;

/** Runs `raw validate a_tool --format json` in `ws` with Raw's cache root at `cacheRoot`. */
function validate(ws: string, cacheRoot: string) {
  const run = spawnSync(process.execPath, [bin, "validate", "a_tool", "--format", "json"], {
    cwd: ws,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, RAW_CACHE_DIR: cacheRoot },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Sets the modification time of `path` (not following a link) to `ago` milliseconds before now. */
function age(path: string, ago: number): void {
  const at = (Date.now() - ago) / 1000;
  utimesSync(path, at, at);
}

/** Every file under `dir` (links not followed) with its bytes, and every folder, by relative path. */
function tree(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const info = lstatSync(path);
    if (info.isDirectory()) {
      out[`${prefix}${name}/`] = "dir";
      Object.assign(out, tree(path, `${prefix}${name}/`));
    } else {
      out[`${prefix}${name}`] = readFileSync(path).toString("base64");
    }
  }
  return out;
}

/**
 * A victim folder: what a cache sweep would take for its own if it looked there (a dot folder older than the staging
 * age, like `~/.ssh`; a folder named like a snapshot and unused for days) and a plain file.
 */
function victimFolder(): string {
  const victim = tempDir("raw-victim-");
  mkdirSync(join(victim, ".ssh"), { mode: 0o700 });
  writeFileSync(join(victim, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n", {
    mode: 0o600,
  });
  age(join(victim, ".ssh"), DAY);
  const snapshotLike = join(victim, "a".repeat(64));
  mkdirSync(snapshotLike);
  writeFileSync(join(snapshotLike, "notes.txt"), "keep me\n");
  age(snapshotLike, 30 * DAY);
  writeFileSync(join(victim, "victim.txt"), "precious bytes\n");
  return victim;
}

describe("raw validate never touches a snapshot cache it refused", () => {
  it("cache folder is a symbolic link: snapshot_cache_unsafe, and the link target's files survive the whole run", () => {
    const ws = toolWorkspace("raw-refused-link-", [["a_tool", HANDLER]]);
    const victim = victimFolder();
    const before = tree(victim);
    const cacheRoot = join(ws, ".cache");
    mkdirSync(cacheRoot, { mode: 0o700 });
    symlinkSync(victim, join(cacheRoot, "validate-snapshots"));

    const run = validate(ws, cacheRoot);
    expect(run.stdout).toContain("snapshot_cache_unsafe");
    expect(run.stdout).toContain("symbolic link");
    expect(tree(victim)).toEqual(before);
    expect(lstatSync(join(cacheRoot, "validate-snapshots")).isSymbolicLink()).toBe(true);

    // A later run refuses it again and still touches nothing.
    validate(ws, cacheRoot);
    expect(tree(victim)).toEqual(before);
  });

  it("cache folder owned by another user, with a last-clean link to a victim: the victim is untouched", () => {
    const ws = toolWorkspace("raw-refused-foreign-", [["a_tool", HANDLER]]);
    const outside = tempDir("raw-victim-file-");
    const victimFile = join(outside, "authorized_keys");
    writeFileSync(victimFile, "ssh-ed25519 AAAA... user@host\n");
    // An old victim: the marker it stands for says the last full clean is long past.
    age(victimFile, VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS + DAY);
    const cacheRoot = join(ws, ".cache");
    const folder = join(cacheRoot, "validate-snapshots");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    symlinkSync(victimFile, join(folder, "last-clean"));
    // A copy of the other user's, unused for days: a clean would remove it.
    const theirs = join(folder, "b".repeat(64));
    mkdirSync(theirs);
    writeFileSync(join(theirs, "package.json"), "{}\n");
    age(theirs, 30 * DAY);
    chownSync(theirs, NOBODY, NOBODY);
    chownSync(folder, NOBODY, NOBODY);
    chmodSync(folder, 0o700);
    const before = tree(folder);

    const run = validate(ws, cacheRoot);
    expect(run.stdout).toContain("snapshot_cache_unsafe");
    expect(run.stdout).toContain("owned by uid 65534");
    expect(readFileSync(victimFile, "utf8")).toBe("ssh-ed25519 AAAA... user@host\n");
    expect(lstatSync(join(folder, "last-clean")).isSymbolicLink()).toBe(true);
    expect(tree(folder)).toEqual(before);
    expect(lstatSync(folder).uid).toBe(NOBODY);
  });

  it("a last-clean link inside the user's own cache folder is replaced, never written through", () => {
    const ws = toolWorkspace("raw-marker-link-", [["a_tool", HANDLER]]);
    const outside = tempDir("raw-victim-file-");
    const victimFile = join(outside, "notes.txt");
    writeFileSync(victimFile, "do not truncate\n");
    age(victimFile, VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS + DAY);
    const cacheRoot = join(ws, ".cache");
    const folder = join(cacheRoot, "validate-snapshots");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    symlinkSync(victimFile, join(folder, "last-clean"));

    const run = validate(ws, cacheRoot);
    expect(run.status, run.stdout).toBe(0);
    expect(readFileSync(victimFile, "utf8")).toBe("do not truncate\n");
    const marker = lstatSync(join(folder, "last-clean"));
    expect(marker.isFile()).toBe(true);
    expect(marker.mode & 0o777).toBe(0o600);
  });
});
