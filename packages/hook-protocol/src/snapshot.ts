import { createHash } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { chmod, lstat, mkdir, mkdtemp, open, readdir, rename, rm, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { layOutResolutionMirror, mirrorPath } from "@raw/node-support";
import { ContractError } from "@raw/schema";
import { MAX_HOOK_SNAPSHOT_BYTES, MAX_HOOK_SNAPSHOT_FILE_BYTES, MAX_HOOK_SNAPSHOT_FILES } from "./limits.js";

/** One entry of a folder inventory: a directory, or a regular file with its mode bits and bytes. */
export type InventoryEntry =
  | { readonly kind: "dir"; readonly rel: string }
  | { readonly kind: "file"; readonly rel: string; readonly mode: number; readonly bytes: Buffer };

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function changed(rel: string): ContractError {
  return new ContractError("hook_changed_while_loading", `selected hook changed while loading: ${rel}`);
}

function limit(): ContractError {
  return new ContractError("hook_snapshot_limit", "selected hook exceeds snapshot limit");
}

function unsupported(rel: string): ContractError {
  return new ContractError("hook_snapshot_unsupported_file", `unsupported selected hook file: ${rel}`);
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

async function readStable(path: string, rel: string): Promise<{ mode: number; bytes: Buffer }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ELOOP")
      throw new ContractError("hook_snapshot_link", `selected hook contains a link: ${rel}`);
    if (code === "ENOENT") throw changed(rel);
    throw unsupported(rel);
  }
  try {
    const before = await handle.stat();
    if (!before.isFile()) throw changed(rel);
    if (before.size > MAX_HOOK_SNAPSHOT_FILE_BYTES) throw limit();
    const bytes = Buffer.allocUnsafe(before.size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === bytes.length) break;
    }
    const after = await handle.stat();
    if (length !== before.size || after.size !== before.size || after.mtimeMs !== before.mtimeMs)
      throw changed(rel);
    return { mode: before.mode & 0o777, bytes: bytes.subarray(0, length) };
  } finally {
    await handle.close();
  }
}

/**
 * Takes the inventory of `root` (hooks.md §6.1): a recursive walk sorted by name that refuses links and special
 * files, enforces the snapshot limits and reads each file between two stats.
 */
export async function takeInventory(root: string): Promise<InventoryEntry[]> {
  const entries: InventoryEntry[] = [];
  let files = 0;
  let total = 0;
  const walk = async (dir: string, prefix: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") throw changed(prefix || ".");
      throw unsupported(prefix || ".");
    }
    names.sort();
    for (const name of names) {
      const rel = prefix ? `${prefix}/${name}` : name;
      const path = join(dir, name);
      let stats: Stats;
      try {
        stats = await lstat(path);
      } catch (error) {
        if (errnoCode(error) === "ENOENT") throw changed(rel);
        throw unsupported(rel);
      }
      if (stats.isSymbolicLink()) {
        throw new ContractError("hook_snapshot_link", `selected hook contains a link: ${rel}`);
      }
      if (stats.isDirectory()) {
        entries.push({ kind: "dir", rel });
        await walk(path, rel);
      } else if (stats.isFile()) {
        files++;
        total += stats.size;
        if (files > MAX_HOOK_SNAPSHOT_FILES || stats.size > MAX_HOOK_SNAPSHOT_FILE_BYTES) throw limit();
        if (total > MAX_HOOK_SNAPSHOT_BYTES) throw limit();
        const { mode, bytes } = await readStable(path, rel);
        if (bytes.length !== stats.size) throw changed(rel);
        entries.push({ kind: "file", rel, mode, bytes });
      } else {
        throw unsupported(rel);
      }
    }
  };
  await walk(root, "");
  return entries;
}

/**
 * The SHA-256 hex digest of an inventory: each entry framed as a kind byte, the length-prefixed relative path and,
 * for files, the mode, the length and the bytes.
 */
export function inventoryDigest(entries: readonly InventoryEntry[]): string {
  const hash = createHash("sha256");
  for (const entry of entries) {
    const rel = Buffer.from(entry.rel, "utf8");
    const header = Buffer.alloc(1 + 4 + (entry.kind === "file" ? 4 + 8 : 0));
    header.writeUInt8(entry.kind === "file" ? 0x66 : 0x64, 0);
    header.writeUInt32BE(rel.length, 1);
    hash.update(header.subarray(0, 5));
    hash.update(rel);
    if (entry.kind === "file") {
      header.writeUInt32BE(entry.mode, 5);
      header.writeBigUInt64BE(BigInt(entry.bytes.length), 9);
      hash.update(header.subarray(5));
      hash.update(entry.bytes);
    }
  }
  return hash.digest("hex");
}

async function verify(dir: string, digest: string, id: string): Promise<void> {
  let actual: string;
  try {
    actual = inventoryDigest(await takeInventory(dir));
  } catch {
    actual = "";
  }
  if (actual !== digest) {
    throw new ContractError("hook_snapshot_modified", `selected hook snapshot modified: ${id}`);
  }
}

async function stage(home: string, entries: readonly InventoryEntry[]): Promise<string> {
  const staging = await mkdtemp(join(home, ".staging-"));
  try {
    await chmod(staging, 0o700);
    for (const entry of entries) {
      const path = join(staging, entry.rel);
      if (entry.kind === "dir") {
        await mkdir(path, { mode: 0o700 });
        await chmod(path, 0o700);
      } else {
        await writeFile(path, entry.bytes, { flag: "wx", mode: entry.mode });
        await chmod(path, entry.mode);
      }
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return staging;
}

/**
 * Writes (or reuses) the content-addressed copy of an inventory (hooks.md §6.1, amendment A8). The copy lives in
 * the snapshot home `<cache>/<digest>/`, at the place of the resolution mirror that stands for the hook folder's
 * real path `folder` (`<cache>/<digest>/root/<folder>`), so a Node.js hook resolves bare imports from its copy as
 * from its original folder. An existing copy is re-verified; a new one is staged in a fresh directory of the home,
 * renamed into place (losing a race to an identical concurrent snapshot is tolerated) and verified. `cache` must
 * be an existing private directory. Returns the snapshot directory.
 */
export async function writeSnapshot(
  cache: string,
  entries: readonly InventoryEntry[],
  digest: string,
  id: string,
  folder: string,
): Promise<string> {
  const home = join(cache, digest);
  const target = mirrorPath(home, folder);
  await mkdir(home, { recursive: true, mode: 0o700 });
  const now = new Date();
  await utimes(home, now, now);
  layOutResolutionMirror(home, folder);
  let exists = true;
  try {
    await lstat(target);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
    exists = false;
  }
  if (!exists) {
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const staging = await stage(home, entries);
    try {
      await rename(staging, target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      const code = errnoCode(error);
      if (code !== "EEXIST" && code !== "ENOTEMPTY" && code !== "EPERM") throw error;
    }
  }
  await verify(target, digest, id);
  return target;
}
