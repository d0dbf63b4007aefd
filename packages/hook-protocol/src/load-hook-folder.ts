import { constants } from "node:fs";
import { access, open, realpath, stat } from "node:fs/promises";
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  ContractError,
  deepFreeze,
  type Issue,
  isContractError,
  isPlainObject,
  thrownMessage,
} from "@raw/schema";
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

/** Options of `validateHookFolder`: those of `loadHookFolder`, and the PATH the command is looked up on. */
export interface ValidateHookFolderOptions extends LoadHookFolderOptions {
  /**
   * The `PATH` a bare `command` is looked up on for the `hook_command_not_found` warning (default
   * `process.env.PATH`); `false` skips the lookup.
   */
  path?: string | false | undefined;
}

/** A hook folder issue or warning: an `Issue` whose `path` (a JSON Pointer into `hook.json`) is always set. */
export type HookFolderIssue = Issue & { path: string };

/** Result of `validateHookFolder`: the loaded hook and its warnings, or every issue (with the warnings so far). */
export type HookFolderValidation =
  | { ok: true; hook: LoadedHook; issues: []; warnings: HookFolderIssue[] }
  | { ok: false; issues: HookFolderIssue[]; warnings: HookFolderIssue[] };

/** The warning code of a bare `command` found neither on `PATH` nor in the folder (validation only). */
export const HOOK_COMMAND_NOT_FOUND = "hook_command_not_found";

/** The default snapshot cache: `hook-snapshots` under `$RAW_CACHE_DIR`, `$XDG_CACHE_HOME/raw` or `~/.cache/raw`. */
export function defaultSnapshotDir(): string {
  return join(rawCacheRoot(), "hook-snapshots");
}

/** The hint of a folder without `hook.json`. */
const MANIFEST_MISSING_HINT = "a hook folder holds a hook.json manifest (raw init hook <dir> writes one)";

/** A `ContractError` whose one issue has a `path` (and a hint, when there is one). */
function located(code: string, message: string, path: string, hint?: string): ContractError {
  const issue: HookFolderIssue = hint === undefined ? { code, message, path } : { code, message, path, hint };
  return new ContractError(code, message, [issue]);
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

async function readManifestBytes(path: string, id: string): Promise<Buffer> {
  const tooLarge = () =>
    located(
      "hook_manifest_too_large",
      `hook manifest is too large: ${id}`,
      "",
      `hook.json may hold at most ${MAX_HOOK_MANIFEST_BYTES} bytes`,
    );
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch {
    throw located("hook_manifest_missing", `missing hook manifest: ${id}`, "");
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
async function ownedAsset(folder: string, path: string, id: string, at: string): Promise<string> {
  if (path.includes("\\")) {
    throw located(
      "hook_asset_invalid",
      `invalid hook asset path: ${id}`,
      at,
      "write owned paths with / separators",
    );
  }
  const escaped = () =>
    located(
      "hook_asset_escape",
      `hook asset escapes or is not a file: ${id}`,
      at,
      `${path} must be a regular file inside the hook folder`,
    );
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
  return load(dir, options);
}

/** `loadHookFolder`, telling `onValue` the parsed `hook.json` value as soon as it parses. */
async function load(
  dir: string,
  options: LoadHookFolderOptions,
  onValue?: (value: unknown) => void,
): Promise<LoadedHook> {
  const given = resolve(dir);
  const name = options.expectedName ?? basename(given);
  const id = options.id ?? name;

  let root: string;
  let folder: string;
  try {
    root = await realpath(options.root ?? dirname(given));
    folder = await realpath(given);
  } catch (error) {
    throw located("hook_folder_missing", `missing selected hook ${id}: ${thrownMessage(error)}`, "");
  }
  if (!isInside(root, folder)) throw located("hook_folder_escape", `selected hook escapes root: ${id}`, "");

  let manifestPath: string;
  try {
    manifestPath = await realpath(join(folder, "hook.json"));
  } catch {
    throw located("hook_manifest_missing", `missing hook manifest: ${id}`, "", MANIFEST_MISSING_HINT);
  }
  const escaped = () => located("hook_manifest_escape", `hook manifest escapes folder: ${id}`, "");
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
    throw located("hook_manifest_json_invalid", `invalid hook manifest JSON: ${id}`, "");
  }
  onValue?.(value);

  const parsed = parseHookManifest(value, { expectedName: name, id });
  if (!parsed.ok)
    throw ContractError.fromIssues(parsed.issues.map((issue) => ({ ...issue, path: issue.path ?? "" })));
  const manifest = parsed.manifest;

  const commandAsset = manifest.command.startsWith("./")
    ? await ownedAsset(folder, manifest.command, id, "/command")
    : undefined;
  const argAssets: Array<string | undefined> = [];
  for (const [i, arg] of manifest.args.entries()) {
    argAssets.push(arg.startsWith("./") ? await ownedAsset(folder, arg, id, `/args/${i}`) : undefined);
  }

  const first = await takeInventory(folder);
  const second = await takeInventory(folder);
  const digest = inventoryDigest(first);
  if (inventoryDigest(second) !== digest) {
    throw located("hook_changed_while_loading", `selected hook changed while loading: ${id}`, "");
  }
  const snapshotted = first.find((entry) => entry.rel === "hook.json");
  if (snapshotted?.kind !== "file" || !snapshotted.bytes.equals(bytes)) {
    throw located("hook_changed_while_loading", `selected hook changed while loading: hook.json`, "");
  }

  const cache = ensurePrivateDir(options.snapshotDir ?? defaultSnapshotDir());
  const snapshot = await writeSnapshot(cache, first, digest, id, folder);
  sweepSnapshotCache(cache, new Set([digest]));
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

/** True when `file` exists and is executable by this process. */
async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The `hook_command_not_found` warning of a bare command found in no folder of `path` (and not in the hook folder). */
async function commandWarning(
  value: unknown,
  path: string,
  dir: string,
): Promise<HookFolderIssue | undefined> {
  if (!isPlainObject(value) || !Object.hasOwn(value, "command")) return undefined;
  const command = value.command;
  if (typeof command !== "string" || command === "" || command.includes("/") || command.includes("\\")) {
    return undefined;
  }
  for (const folder of path.split(delimiter)) {
    if (folder !== "" && (await isExecutable(join(folder, command)))) return undefined;
  }
  const inFolder = await isExecutable(join(dir, command));
  return {
    code: HOOK_COMMAND_NOT_FOUND,
    message: `hook command not found on PATH: ${command}`,
    path: "/command",
    hint: inFolder
      ? `${command} is in the hook folder: write it as ./${command} so the hook runs its own copy`
      : `install ${command} where the hook runs, or ship it in the hook folder and write it as ./${command}`,
  };
}

/**
 * The non-throwing twin of \`loadHookFolder\`: loads the folder the same way (manifest, owned assets, snapshot) and
 * returns \`{ ok: true, hook, warnings }\` or \`{ ok: false, issues, warnings }\`, every issue with a JSON Pointer into
 * \`hook.json\` (\`""\` for the folder or the whole manifest). A bare \`command\` that is on no folder of \`PATH\` gives the
 * warning \`hook_command_not_found\` (the hook may still run on another machine; \`options.path: false\` skips it).
 * Never throws.
 */
export async function validateHookFolder(
  dir: string,
  options: ValidateHookFolderOptions = {},
): Promise<HookFolderValidation> {
  const { path = process.env.PATH ?? "", ...loadOptions } = options;
  let value: unknown;
  let hook: LoadedHook | undefined;
  let issues: HookFolderIssue[] = [];
  try {
    hook = await load(dir, loadOptions, (parsed) => {
      value = parsed;
    });
  } catch (error) {
    const failed = isContractError(error)
      ? error.issues.length > 0
        ? error.issues
        : [{ code: error.code, message: error.message }]
      : [{ code: "hook_load_failed", message: thrownMessage(error) }];
    issues = failed.map((issue) => ({ ...issue, path: issue.path ?? "" }));
  }
  const warnings: HookFolderIssue[] = [];
  if (path !== false) {
    const warning = await commandWarning(value, path, resolve(String(dir)));
    if (warning !== undefined) warnings.push(warning);
  }
  if (hook !== undefined && issues.length === 0) return { ok: true, hook, issues: [], warnings };
  return { ok: false, issues, warnings };
}
