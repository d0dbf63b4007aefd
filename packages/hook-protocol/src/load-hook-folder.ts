import { open, realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ContractError, deepFreeze, thrownMessage } from "@raw/schema";
import { MAX_HOOK_MANIFEST_BYTES } from "./limits.js";
import { type HookManifest, parseHookManifest } from "./manifest.js";
import { inventoryDigest, takeInventory, writeSnapshot } from "./snapshot.js";
import { ensurePrivateDir, rawCacheRoot, sweepSnapshotCache } from "./snapshot-cache.js";

/** A loaded hook: its selection ID, its snapshot directory and its manifest with owned paths relocated into it. */
export interface LoadedHook {
  /** The hook's selection ID (for example `agent/guard`). */
  readonly id: string;
  /** The snapshot directory the hook runs from. */
  readonly folder: string;
  /** The validated manifest; `./` command and args are absolute paths inside `folder`. */
  readonly manifest: HookManifest;
}

/** Options of `loadHookFolder`. */
export interface LoadHookFolderOptions {
  /**
   * The snapshot cache directory chosen by the host, a private folder (created with mode 0700; refused when it is a
   * link or another user's). Default: `defaultSnapshotDir()`.
   */
  snapshotDir?: string | undefined;
  /** The hook's selection ID used in messages (default: the folder name). */
  id?: string | undefined;
  /** The root the folder must be strictly inside (default: the folder's parent directory, as given). */
  root?: string | undefined;
  /** The name the manifest must have (default: the folder name, as given). */
  expectedName?: string | undefined;
}

/** The default snapshot cache: `hook-snapshots` under `$RAW_CACHE_DIR`, `$XDG_CACHE_HOME/raw` or `~/.cache/raw`. */
export function defaultSnapshotDir(): string {
  return join(rawCacheRoot(), "hook-snapshots");
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

async function readManifestBytes(path: string, id: string): Promise<Buffer> {
  const tooLarge = () => new ContractError("hook_manifest_too_large", `hook manifest is too large: ${id}`);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch {
    throw new ContractError("hook_manifest_missing", `missing hook manifest: ${id}`);
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_HOOK_MANIFEST_BYTES) throw tooLarge();
    const buffer = Buffer.allocUnsafe(MAX_HOOK_MANIFEST_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_HOOK_MANIFEST_BYTES) throw tooLarge();
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** Checks an owned path (hooks.md §4) and returns its path relative to the folder. */
async function ownedAsset(folder: string, path: string, id: string): Promise<string> {
  if (path.includes("\\")) throw new ContractError("hook_asset_invalid", `invalid hook asset path: ${id}`);
  const escaped = () => new ContractError("hook_asset_escape", `hook asset escapes or is not a file: ${id}`);
  let real: string;
  try {
    real = await realpath(join(folder, path));
    if (!isInside(folder, real) || !(await stat(real)).isFile()) throw escaped();
  } catch {
    throw escaped();
  }
  return relative(folder, real);
}

/**
 * Loads a hook folder (hooks.md §6): resolves it inside its root, reads and validates `hook.json` (at most
 * 65,536 bytes, strict UTF-8 JSON, the folder name as the expected name), checks owned assets, and snapshots the
 * folder into a content-addressed, verified copy whose paths replace the owned `./` paths. The loaded hook is
 * frozen; later edits to the folder do not change it. Rejects with a `ContractError` (a manifest failure carries
 * every manifest issue).
 */
export async function loadHookFolder(dir: string, options: LoadHookFolderOptions = {}): Promise<LoadedHook> {
  const given = resolve(dir);
  const name = options.expectedName ?? basename(given);
  const id = options.id ?? name;

  let root: string;
  let folder: string;
  try {
    root = await realpath(options.root ?? dirname(given));
    folder = await realpath(given);
  } catch (error) {
    throw new ContractError("hook_folder_missing", `missing selected hook ${id}: ${thrownMessage(error)}`);
  }
  if (!isInside(root, folder))
    throw new ContractError("hook_folder_escape", `selected hook escapes root: ${id}`);

  let manifestPath: string;
  try {
    manifestPath = await realpath(join(folder, "hook.json"));
  } catch {
    throw new ContractError("hook_manifest_missing", `missing hook manifest: ${id}`);
  }
  const escaped = () => new ContractError("hook_manifest_escape", `hook manifest escapes folder: ${id}`);
  if (!isInside(folder, manifestPath)) throw escaped();
  try {
    if (!(await stat(manifestPath)).isFile()) throw escaped();
  } catch {
    throw escaped();
  }

  const bytes = await readManifestBytes(manifestPath, id);
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    throw new ContractError("hook_manifest_json_invalid", `invalid hook manifest JSON: ${id}`);
  }

  const parsed = parseHookManifest(value, { expectedName: name, id });
  if (!parsed.ok) throw ContractError.fromIssues(parsed.issues);
  const manifest = parsed.manifest;

  const commandAsset = manifest.command.startsWith("./")
    ? await ownedAsset(folder, manifest.command, id)
    : undefined;
  const argAssets: Array<string | undefined> = [];
  for (const arg of manifest.args) {
    argAssets.push(arg.startsWith("./") ? await ownedAsset(folder, arg, id) : undefined);
  }

  const first = await takeInventory(folder);
  const second = await takeInventory(folder);
  const digest = inventoryDigest(first);
  if (inventoryDigest(second) !== digest) {
    throw new ContractError("hook_changed_while_loading", `selected hook changed while loading: ${id}`);
  }
  const snapshotted = first.find((entry) => entry.rel === "hook.json");
  if (snapshotted?.kind !== "file" || !snapshotted.bytes.equals(bytes)) {
    throw new ContractError("hook_changed_while_loading", `selected hook changed while loading: hook.json`);
  }

  const cache = await ensurePrivateDir(options.snapshotDir ?? defaultSnapshotDir());
  const snapshot = await writeSnapshot(cache, first, digest, id, folder);
  await sweepSnapshotCache(cache, new Set([digest]));
  const relocate = (rel: string) => join(snapshot, rel);
  return deepFreeze({
    id,
    folder: snapshot,
    manifest: {
      ...manifest,
      command: commandAsset === undefined ? manifest.command : relocate(commandAsset),
      args: manifest.args.map((arg, i) => {
        const asset = argAssets[i];
        return asset === undefined ? arg : relocate(asset);
      }),
    },
  });
}
