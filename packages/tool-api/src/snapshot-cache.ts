import { chmod, lstat, mkdir, readdir, readFile, realpath, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { ContractError } from "@raw/schema";
import {
  MAX_SNAPSHOT_CACHE_AGE_MS,
  MAX_SNAPSHOT_CACHE_BYTES,
  MAX_SNAPSHOT_CACHE_ENTRIES,
  SNAPSHOT_STAGING_MAX_AGE_MS,
} from "./limits.js";

/** The file in a snapshot's home folder that records how many bytes its copies hold. */
export const SNAPSHOT_SIZE_FILE = ".bytes";

/**
 * The root of Raw's private cache (amendment A8): `$RAW_CACHE_DIR` when set, else `$XDG_CACHE_HOME/raw` when
 * `XDG_CACHE_HOME` is an absolute path, else `~/.cache/raw`.
 */
export function rawCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.RAW_CACHE_DIR;
  if (explicit !== undefined && explicit !== "") return resolve(explicit);
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "raw");
  return join(env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : homedir(), ".cache", "raw");
}

/** The default cache directory of tool snapshots: `tool-snapshots` under `rawCacheRoot()`. */
export function defaultSnapshotCacheDir(): string {
  return join(rawCacheRoot(), "tool-snapshots");
}

function unsafe(dir: string, reason: string): ContractError {
  return new ContractError(
    "snapshot_cache_unsafe",
    `snapshot cache ${dir} is not a private folder: ${reason}`,
  );
}

/**
 * Creates `dir` (and missing parents) with mode 0700 and checks that it is a private folder of this user: a real
 * directory (not a link), owned by the current user, with no permission bits for group or others (they are
 * removed when the user owns it). Returns its real path. Throws `ContractError` `snapshot_cache_unsafe`.
 */
export async function ensurePrivateDir(dir: string): Promise<string> {
  const path = resolve(dir);
  await mkdir(path, { recursive: true, mode: 0o700 });
  const info = await lstat(path);
  if (info.isSymbolicLink()) throw unsafe(path, "it is a symbolic link");
  if (!info.isDirectory()) throw unsafe(path, "it is not a directory");
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) throw unsafe(path, `it is owned by uid ${info.uid}`);
  if ((info.mode & 0o077) !== 0) await chmod(path, 0o700);
  return realpath(path);
}

async function recordedBytes(home: string): Promise<number> {
  try {
    const value = Number((await readFile(join(home, SNAPSHOT_SIZE_FILE), "utf8")).trim());
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

/**
 * Cleans a snapshot cache directory: staging folders older than `SNAPSHOT_STAGING_MAX_AGE_MS` are removed, and so
 * are snapshots not used for `MAX_SNAPSHOT_CACHE_AGE_MS`, those beyond the newest `MAX_SNAPSHOT_CACHE_ENTRIES`, and
 * the oldest ones while the recorded total exceeds `MAX_SNAPSHOT_CACHE_BYTES`. Names in `keep` (the snapshots of
 * this load) are never removed. Failures are ignored: cleaning never fails a load.
 */
export async function sweepSnapshotCache(cacheDir: string, keep: ReadonlySet<string>): Promise<void> {
  let names: string[];
  try {
    names = await readdir(cacheDir);
  } catch {
    return;
  }
  const now = Date.now();
  const homes: Array<{ name: string; mtimeMs: number }> = [];
  for (const name of names) {
    if (keep.has(name)) continue;
    try {
      const info = await lstat(join(cacheDir, name));
      if (name.startsWith(".")) {
        if (now - info.mtimeMs > SNAPSHOT_STAGING_MAX_AGE_MS) {
          await rm(join(cacheDir, name), { recursive: true, force: true });
        }
      } else if (info.isDirectory() && /^[0-9a-f]{64}$/.test(name)) {
        homes.push({ name, mtimeMs: info.mtimeMs });
      }
    } catch {
      // Gone meanwhile, or not ours to judge.
    }
  }
  homes.sort((a, b) => b.mtimeMs - a.mtimeMs);
  let total = 0;
  for (const name of keep) total += await recordedBytes(join(cacheDir, name));
  let kept = keep.size;
  for (const home of homes) {
    const bytes = await recordedBytes(join(cacheDir, home.name));
    const stale =
      now - home.mtimeMs > MAX_SNAPSHOT_CACHE_AGE_MS ||
      kept >= MAX_SNAPSHOT_CACHE_ENTRIES ||
      total + bytes > MAX_SNAPSHOT_CACHE_BYTES;
    if (stale) {
      await rm(join(cacheDir, home.name), { recursive: true, force: true }).catch(() => undefined);
    } else {
      kept++;
      total += bytes;
    }
  }
}
