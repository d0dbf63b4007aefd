import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensurePrivateDir, rawCacheRoot, SNAPSHOT_SIZE_FILE, sweepSnapshotCache } from "../src/index.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "raw-node-support-"));
  made.push(dir);
  return dir;
}

/** A snapshot home named by a digest, last used `ageMs` ago, recording `bytes`. */
function home(cacheDir: string, digit: string, ageMs: number, bytes?: number): string {
  const name = digit.repeat(64);
  mkdirSync(join(cacheDir, name));
  if (bytes !== undefined) writeFileSync(join(cacheDir, name, SNAPSHOT_SIZE_FILE), `${bytes}\n`);
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(join(cacheDir, name), at, at);
  return name;
}

const HOUR = 3_600_000;

describe("sweepSnapshotCache", () => {
  it("removes old staging folders and stale snapshots, keeps the newest within the entry bound and `keep`", () => {
    const cache = tempDir();
    const staleStaging = join(cache, ".staging-old");
    const freshStaging = join(cache, ".staging-new");
    mkdirSync(staleStaging);
    mkdirSync(freshStaging);
    utimesSync(staleStaging, (Date.now() - 2 * HOUR) / 1000, (Date.now() - 2 * HOUR) / 1000);
    const kept = home(cache, "a", 10 * HOUR);
    const newest = home(cache, "b", 1);
    const second = home(cache, "c", 2 * HOUR);
    const third = home(cache, "d", 3 * HOUR);
    const expired = home(cache, "e", 100 * HOUR);
    mkdirSync(join(cache, "not-a-digest"));
    sweepSnapshotCache(cache, new Set([kept]), {
      stagingMaxAgeMs: HOUR,
      maxAgeMs: 50 * HOUR,
      maxEntries: 3,
    });
    expect(readdirSync(cache).sort()).toEqual([".staging-new", kept, newest, second, "not-a-digest"].sort());
    expect(readdirSync(cache)).not.toContain(third);
    expect(readdirSync(cache)).not.toContain(expired);
  });

  it("with maxBytes, drops the oldest snapshots while the recorded total exceeds it (the kept ones count)", () => {
    const cache = tempDir();
    const kept = home(cache, "a", 5 * HOUR, 400);
    const newest = home(cache, "b", 1, 300);
    const older = home(cache, "c", HOUR, 400);
    const unrecorded = home(cache, "d", 2 * HOUR);
    sweepSnapshotCache(cache, new Set([kept]), {
      stagingMaxAgeMs: HOUR,
      maxAgeMs: 50 * HOUR,
      maxEntries: 10,
      maxBytes: 1000,
    });
    expect(readdirSync(cache).sort()).toEqual([kept, newest, unrecorded].sort());
    expect(readdirSync(cache)).not.toContain(older);
  });

  it("never fails: a missing cache folder is nothing to clean", () => {
    expect(() =>
      sweepSnapshotCache(join(tempDir(), "absent"), new Set(), {
        stagingMaxAgeMs: 1,
        maxAgeMs: 1,
        maxEntries: 1,
      }),
    ).not.toThrow();
  });
});

describe("ensurePrivateDir", () => {
  const unsafe = (dir: string, reason: string) =>
    Object.assign(new Error(`${dir}: ${reason}`), { code: "unsafe" });

  it("creates the folder with mode 0700, tightens an existing one, and returns its real path", () => {
    const base = tempDir();
    const created = ensurePrivateDir(join(base, "a", "b"), unsafe);
    expect(statSync(created).mode & 0o777).toBe(0o700);
    const open = join(base, "open");
    mkdirSync(open, { mode: 0o755 });
    ensurePrivateDir(open, unsafe);
    expect(statSync(open).mode & 0o777).toBe(0o700);
  });

  it("refuses a symbolic link and a file with the caller's error", () => {
    const base = tempDir();
    mkdirSync(join(base, "real"));
    symlinkSync(join(base, "real"), join(base, "link"));
    expect(() => ensurePrivateDir(join(base, "link"), unsafe)).toThrow(
      expect.objectContaining({
        code: "unsafe",
        message: `${join(base, "link")}: it is a symbolic link`,
      }),
    );
    expect(lstatSync(join(base, "link")).isSymbolicLink()).toBe(true);
    writeFileSync(join(base, "file"), "x");
    expect(() => ensurePrivateDir(join(base, "file"), unsafe)).toThrow(
      expect.objectContaining({ code: "unsafe", message: `${join(base, "file")}: it is not a directory` }),
    );
    symlinkSync(join(base, "nowhere"), join(base, "dangling"));
    expect(() => ensurePrivateDir(join(base, "dangling"), unsafe)).toThrow(
      expect.objectContaining({
        code: "unsafe",
        message: `${join(base, "dangling")}: it is a symbolic link`,
      }),
    );
    expect(readdirSync(base).sort()).toEqual(["dangling", "file", "link", "real"]);
  });
});

describe("rawCacheRoot", () => {
  it("follows RAW_CACHE_DIR, then an absolute XDG_CACHE_HOME, then HOME/.cache", () => {
    expect(rawCacheRoot({ RAW_CACHE_DIR: "/x/y", XDG_CACHE_HOME: "/c", HOME: "/h" })).toBe("/x/y");
    expect(rawCacheRoot({ XDG_CACHE_HOME: "/c", HOME: "/h" })).toBe("/c/raw");
    expect(rawCacheRoot({ XDG_CACHE_HOME: "relative", HOME: "/h" })).toBe("/h/.cache/raw");
  });
});
