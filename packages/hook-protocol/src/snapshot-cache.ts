import { chmod, lstat, mkdir, readdir, realpath, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { ContractError } from "@raw/schema";
import {
  HOOK_SNAPSHOT_STAGING_MAX_AGE_MS,
  MAX_HOOK_SNAPSHOT_CACHE_AGE_MS,
  MAX_HOOK_SNAPSHOT_CACHE_ENTRIES,
} from "./limits.js";

/**
 * The root of Raw's private cache (the same rule as `@raw/tool-api`'s `rawCacheRoot`) (amendment A8): `$RAW_CACHE_DIR` when set, else `$XDG_CACHE_HOME/raw` when
 * `XDG_CACHE_HOME` is an absolute path, else `~/.cache/raw`.
 */
export function rawCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.RAW_CACHE_DIR;
  if (explicit !== undefined && explicit !== "") return resolve(explicit);
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "raw");
  return join(env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : homedir(), ".cache", "raw");
}

function unsafe(dir: string, reason: string): ContractError {
  return new ContractError(
    "hook_snapshot_cache_unsafe",
    `snapshot cache ${dir} is not a private folder: ${reason}`,
  );
}

/**
 * Creates `dir` (and missing parents) with mode 0700 and checks that it is a private folder of this user: a real
 * directory (not a link), owned by the current user, with no permission bits for group or others (they are
 * removed when the user owns it). Returns its real path. Throws `ContractError` `hook_snapshot_cache_unsafe`.
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

/**
 * Cleans a hook snapshot cache directory: staging folders older than `HOOK_SNAPSHOT_STAGING_MAX_AGE_MS` are
 * removed, and so are snapshots not loaded for `MAX_HOOK_SNAPSHOT_CACHE_AGE_MS` and those beyond the newest
 * `MAX_HOOK_SNAPSHOT_CACHE_ENTRIES` (each holds at most `MAX_HOOK_SNAPSHOT_BYTES`, so the cache is bounded). Names in
 * `keep` are never removed. Failures are ignored: cleaning never fails a load.
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
        if (now - info.mtimeMs > HOOK_SNAPSHOT_STAGING_MAX_AGE_MS) {
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
  let kept = keep.size;
  for (const home of homes) {
    if (now - home.mtimeMs > MAX_HOOK_SNAPSHOT_CACHE_AGE_MS || kept >= MAX_HOOK_SNAPSHOT_CACHE_ENTRIES) {
      await rm(join(cacheDir, home.name), { recursive: true, force: true }).catch(() => undefined);
    } else {
      kept++;
    }
  }
}
