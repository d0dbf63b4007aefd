import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/**
 * The root of Raw's private cache (amendment A8): `$RAW_CACHE_DIR` when set, else `$XDG_CACHE_HOME/raw` when
 * `XDG_CACHE_HOME` is an absolute path, else `~/.cache/raw` (`$HOME` when absolute, else the OS home directory).
 */
export function rawCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.RAW_CACHE_DIR;
  if (explicit !== undefined && explicit !== "") return resolve(explicit);
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "raw");
  return join(env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : homedir(), ".cache", "raw");
}
