/**
 * Issue 23 (item 3), amendment A10 "Refused means untouched": the snapshot cache sweep touches only a folder it
 * verified on a descriptor (opened with `O_NOFOLLOW | O_DIRECTORY`, owned by this user, mode 0700), never follows a
 * link inside it, and records its clean in a marker that is replaced, never written through. Real links, real
 * foreign-owned folders (the tests run as root and give folders to `nobody`), and victims outside the cache whose
 * bytes must stay as they were.
 */
import {
  chmodSync,
  chownSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensurePrivateDir, SNAPSHOT_CLEAN_MARKER, sweepSnapshotCache } from "../src/index.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "raw-refused-cache-"));
  made.push(dir);
  return dir;
}

const DAY = 86_400_000;
const NOBODY = 65_534;
/** Limits under which every entry the sweep may judge is stale. */
const EAGER = { stagingMaxAgeMs: 1, maxAgeMs: 1, maxEntries: 0 } as const;

function age(path: string, ago: number): void {
  const at = (Date.now() - ago) / 1000;
  utimesSync(path, at, at);
}

/** Every entry under `dir` (links not followed) with its bytes. */
function tree(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const info = lstatSync(path);
    if (info.isSymbolicLink()) out[`${prefix}${name}`] = `-> ${path}`;
    else if (info.isDirectory())
      Object.assign(out, { [`${prefix}${name}/`]: "dir" }, tree(path, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = readFileSync(path).toString("base64");
  }
  return out;
}

/** A folder a sweep would empty if it took it for a cache: an old dot folder, an old snapshot-like folder, a file. */
function victim(): string {
  const dir = tempDir();
  mkdirSync(join(dir, ".ssh"));
  writeFileSync(join(dir, ".ssh", "id_ed25519"), "secret key\n");
  age(join(dir, ".ssh"), DAY);
  mkdirSync(join(dir, "a".repeat(64)));
  writeFileSync(join(dir, "a".repeat(64), "x"), "x\n");
  age(join(dir, "a".repeat(64)), 30 * DAY);
  writeFileSync(join(dir, "victim.txt"), "precious\n");
  return dir;
}

describe("the sweep leaves a refused folder untouched", () => {
  it("a cache folder that is a symbolic link: the link target's files survive", () => {
    const target = victim();
    const before = tree(target);
    const link = join(tempDir(), "cache");
    symlinkSync(target, link);
    sweepSnapshotCache(link, new Set(), { ...EAGER, intervalMs: 1 });
    expect(tree(target)).toEqual(before);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("a cache folder owned by another user, with a last-clean link to a victim: both untouched", () => {
    const outside = join(tempDir(), "authorized_keys");
    writeFileSync(outside, "ssh-ed25519 AAAA\n");
    age(outside, DAY);
    const cache = join(tempDir(), "cache");
    mkdirSync(cache, { mode: 0o700 });
    symlinkSync(outside, join(cache, SNAPSHOT_CLEAN_MARKER));
    mkdirSync(join(cache, "b".repeat(64)));
    age(join(cache, "b".repeat(64)), 30 * DAY);
    chownSync(cache, NOBODY, NOBODY);
    const before = tree(cache);
    sweepSnapshotCache(cache, new Set(), { ...EAGER, intervalMs: 1 });
    expect(readFileSync(outside, "utf8")).toBe("ssh-ed25519 AAAA\n");
    expect(tree(cache)).toEqual(before);
  });

  it("a cache folder others may enter (mode 0755 or 0777): untouched", () => {
    for (const mode of [0o755, 0o777]) {
      const cache = join(tempDir(), "cache");
      mkdirSync(cache);
      chmodSync(cache, mode);
      mkdirSync(join(cache, "c".repeat(64)));
      age(join(cache, "c".repeat(64)), 30 * DAY);
      const before = tree(cache);
      sweepSnapshotCache(cache, new Set(), { ...EAGER, intervalMs: 1 });
      expect(tree(cache)).toEqual(before);
      expect(statSync(cache).mode & 0o777).toBe(mode);
    }
  });

  it("ensurePrivateDir refuses another user's folder and one others can write in, changing nothing", () => {
    const unsafe = (dir: string, reason: string) =>
      Object.assign(new Error(`${dir}: ${reason}`), { code: "unsafe" });
    const foreign = join(tempDir(), "foreign");
    mkdirSync(foreign, { mode: 0o755 });
    chownSync(foreign, NOBODY, NOBODY);
    expect(() => ensurePrivateDir(foreign, unsafe)).toThrow(`${foreign}: it is owned by uid 65534`);
    expect(statSync(foreign).mode & 0o777).toBe(0o755);
    const open = join(tempDir(), "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(() => ensurePrivateDir(open, unsafe)).toThrow(`${open}: its mode 0777 is not 0700`);
    expect(statSync(open).mode & 0o777).toBe(0o777);
  });
});

describe("inside a verified folder, no link is followed", () => {
  it("a last-clean link is replaced by a 0600 file, the file it pointed to untouched", () => {
    const outside = join(tempDir(), "notes.txt");
    writeFileSync(outside, "do not truncate\n");
    age(outside, DAY);
    const cache = tempDir();
    symlinkSync(outside, join(cache, SNAPSHOT_CLEAN_MARKER));
    sweepSnapshotCache(cache, new Set(), { ...EAGER, intervalMs: 60_000 });
    expect(readFileSync(outside, "utf8")).toBe("do not truncate\n");
    const marker = lstatSync(join(cache, SNAPSHOT_CLEAN_MARKER));
    expect(marker.isFile()).toBe(true);
    expect(marker.mode & 0o777).toBe(0o600);
    expect(readdirSync(cache)).toEqual([SNAPSHOT_CLEAN_MARKER]);
  });

  it("a link named like a snapshot stays, one named like staging goes as a link; other dot entries stay", () => {
    const target = victim();
    const before = tree(target);
    const cache = tempDir();
    symlinkSync(target, join(cache, "d".repeat(64)));
    symlinkSync(target, join(cache, ".staging-link"));
    // The link itself made old (lutimes), so its age never depends on how fast the test runs.
    const old = (Date.now() - DAY) / 1000;
    lutimesSync(join(cache, ".staging-link"), old, old);
    mkdirSync(join(cache, ".config"));
    age(join(cache, ".config"), DAY);
    sweepSnapshotCache(cache, new Set(), EAGER);
    expect(tree(target)).toEqual(before);
    expect(readdirSync(cache).sort()).toEqual([".config", "d".repeat(64)]);
    expect(lstatSync(join(cache, "d".repeat(64))).isSymbolicLink()).toBe(true);
  });

  it("with intervalMs, a recent marker skips the sweep; an old one (or too many entries) runs it", () => {
    const cache = tempDir();
    sweepSnapshotCache(cache, new Set(), { ...EAGER, maxEntries: 5, intervalMs: 60_000 });
    mkdirSync(join(cache, "e".repeat(64)));
    age(join(cache, "e".repeat(64)), DAY);
    sweepSnapshotCache(cache, new Set(), { ...EAGER, maxEntries: 5, intervalMs: 60_000 });
    expect(readdirSync(cache)).toContain("e".repeat(64));
    age(join(cache, SNAPSHOT_CLEAN_MARKER), 120_000);
    sweepSnapshotCache(cache, new Set(), { ...EAGER, maxEntries: 5, intervalMs: 60_000 });
    expect(readdirSync(cache)).toEqual([SNAPSHOT_CLEAN_MARKER]);
    expect(Date.now() - lstatSync(join(cache, SNAPSHOT_CLEAN_MARKER)).mtimeMs).toBeLessThan(60_000);
  });
});
