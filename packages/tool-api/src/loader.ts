import { realpathSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { ContractError, type Issue, isContractError, thrownMessage } from "@raw/schema";
import { MANIFEST_FILE, sourceDigest } from "./digest.js";
import {
  type FolderFileSet,
  isStrictlyInside,
  readFolderFileSet,
  readRegularFile,
  sameBytes,
  sameFileSet,
} from "./file-set.js";
import { TOOL_ENTRY_PATTERN } from "./limits.js";
import { parseToolManifest, type ToolManifest } from "./manifest.js";
import { materializeSnapshot } from "./snapshot.js";
import { defaultSnapshotCacheDir, ensurePrivateDir, sweepSnapshotCache } from "./snapshot-cache.js";
import type { ToolRegistration } from "./types.js";

/** A place in a file of a tool folder other than `tool.json` (for example a syntax error in the entry). */
export interface ToolSourceLocation {
  /** The file, relative to the tool folder (`./index.mjs`). */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/**
 * A loader issue or warning: an `Issue` that also carries the selection id of its tool. `path` is always set: a
 * JSON Pointer into `tool.json` (`""` for the folder or the whole manifest, `/entry` for the entry and its exports,
 * `/name` for a duplicate name). `location` is set when the problem sits in another file of the folder.
 */
export type ToolIssue = Issue & { path: string; tool: string; location?: ToolSourceLocation };

/** One selected tool folder. */
export interface ToolSelection {
  /** The tool folder. Its name is the expected manifest `id`. */
  dir: string;
  /** The selection id (for example `local/touch`); the registration's identity. Default: the folder name. */
  identity?: string | undefined;
  /** The root the folder must lie strictly inside (real paths). Default: the folder's parent directory. */
  root?: string | undefined;
  /** The package alias used as model-facing name (package exports); default the manifest `name`. */
  alias?: string | undefined;
  /** Import from the content-addressed copy (default true, except for `builtin/` selections). */
  snapshot?: boolean | undefined;
}

/** Options shared by the folder loaders. */
export interface LoadToolOptions {
  /**
   * Cache directory of the content-addressed copies, a private folder (created with mode 0700; refused when it is a
   * link or another user's). Default: `tool-snapshots` under `$RAW_CACHE_DIR`, `$XDG_CACHE_HOME/raw` or
   * `~/.cache/raw`.
   */
  cacheDir?: string | undefined;
  /**
   * Whether the load cleans the cache directory afterwards (stale staging folders, old snapshots, the entry and size
   * bounds). Default true. A caller that loads many folders into a `cacheDir` of its own (as `raw validate` does)
   * passes false and cleans it once, to its own bounds, with `cleanSnapshotCache`.
   */
  sweepCache?: boolean | undefined;
  /**
   * Imports an entry module for phase 2 (default: `import(url)` in this process). A host that must not run tool
   * code in its own process (a CI validator) passes an importer that imports in a child process and resolves to a
   * stand-in object with the same export types. A rejection with a `ContractError` becomes an issue with its code
   * and message; any other rejection is `entry_load_failed`.
   */
  importEntry?: EntryImporter | undefined;
  /**
   * Diagnostics for authors (`raw validate`): report every failing field of each panel declaration, not only the
   * first failure per declaration (tool-api.md §2.2), and, when `importEntry` is given, check the entry's exports
   * even when other manifest fields failed (the entry itself valid and present), so that one run reports every
   * mistake. Default false: phase 2 runs only after a clean phase 1, as §5.3 says.
   */
  allIssues?: boolean | undefined;
}

/** Imports one entry module (`url` is its file URL, carrying the digest as a query string). */
export type EntryImporter = (
  url: string,
  tool: { identity: string; dir: string; manifest: ToolManifest },
) => Promise<Record<string, unknown>>;

/** Options of `loadToolFolder` and `validateToolFolder`: the selection fields and the loader options. */
export interface LoadToolFolderOptions extends LoadToolOptions {
  identity?: string | undefined;
  root?: string | undefined;
  alias?: string | undefined;
  snapshot?: boolean | undefined;
}

/** A tool loaded from a folder: its validated manifest, the registration built from it (§5.5) and provenance. */
export interface LoadedTool {
  /** The selection id. */
  readonly identity: string;
  /** The folder's real path. */
  readonly dir: string;
  /** The validated manifest (panel declarations normalized). */
  readonly manifest: ToolManifest;
  /** The registration of tool-api.md §5.5, ready for `registry.register`. */
  readonly registration: ToolRegistration;
  /** The source digest (§5.4), hex SHA-256. */
  readonly digest: string;
  /** The directory the entry was imported from (the content-addressed copy, or the folder itself). */
  readonly importDir: string;
  /** Warnings (unknown panel icons, an ignored `describeEffects`). */
  readonly warnings: ToolIssue[];
}

/** Result of `validateToolFolder`: never throws. */
export interface ToolFolderValidation {
  ok: boolean;
  issues: ToolIssue[];
  warnings: ToolIssue[];
}

interface ResolvedSelection {
  readonly dir: string;
  readonly identity: string;
  readonly root: string;
  readonly folderName: string;
  readonly alias: string | undefined;
  readonly snapshot: boolean;
}

/**
 * A tool whose manifest has issues but whose entry passed step 5, in the `allIssues` mode: its exports are still
 * checked through `importEntry` (from the folder itself), so one run reports every mistake.
 */
interface DiagnosticEntry {
  readonly selection: ResolvedSelection;
  readonly folder: string;
  readonly manifest: ToolManifest;
}

interface PhaseOneTool {
  readonly selection: ResolvedSelection;
  readonly folder: string;
  readonly parsed: unknown;
  readonly manifest: ToolManifest;
  readonly fileSet: FolderFileSet;
  readonly warnings: ToolIssue[];
}

type ImportedModule = Record<string, unknown>;

function resolveSelection(input: string | ToolSelection): ResolvedSelection {
  const selection = typeof input === "string" ? { dir: input } : input;
  const dir = resolve(selection.dir);
  const folderName = basename(dir);
  const identity = selection.identity ?? folderName;
  return {
    dir,
    identity,
    root: resolve(selection.root ?? dirname(dir)),
    folderName,
    alias: selection.alias,
    snapshot: selection.snapshot ?? !identity.startsWith("builtin/"),
  };
}

function toolIssue(tool: string, code: string, message: string, path: string, hint?: string): ToolIssue {
  return hint === undefined ? { code, message, path, tool } : { code, message, path, hint, tool };
}

/** How a value reads in a hint: `a string`, `an object`, `null`, `undefined`. */
function describeExportType(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" || type === "undefined" ? `an ${type}` : `a ${type}`;
}

/** True when `path` cannot leave `folder` lexically (`./../x.mjs` leaves it). */
function lexicallyInside(folder: string, entry: string): boolean {
  const rel = relative(folder, resolve(folder, entry));
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep);
}

const TOOL_ENTRY = new RegExp(TOOL_ENTRY_PATTERN);

/** The hint of a folder without `tool.json`. */
const MANIFEST_MISSING_HINT = "a tool folder holds a tool.json manifest (raw init tool <dir> writes one)";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Phase 1 of tool-api.md §5.2 for one selection: returns its state, or pushes its issues. */
function phaseOne(
  selection: ResolvedSelection,
  issues: ToolIssue[],
  allIssues: boolean,
  diagnostics: DiagnosticEntry[] = [],
): PhaseOneTool | undefined {
  const id = selection.identity;
  const before = issues.length;
  // 1. Root and folder real paths; the folder strictly inside the root.
  let folder: string;
  try {
    const root = realpathSync.native(selection.root);
    folder = realpathSync.native(selection.dir);
    if (!isStrictlyInside(root, folder)) {
      issues.push(
        toolIssue(id, "folder_escape", `missing or escaping selected tool ${id}: folder escape`, ""),
      );
      return undefined;
    }
  } catch (error) {
    issues.push(
      toolIssue(id, "folder_missing", `missing or escaping selected tool ${id}: ${thrownMessage(error)}`, ""),
    );
    return undefined;
  }
  // 2. tool.json: a regular file inside the folder.
  let manifestPath: string;
  try {
    manifestPath = realpathSync.native(join(folder, MANIFEST_FILE));
  } catch {
    issues.push(
      toolIssue(id, "manifest_missing", `selected tool files are missing: ${id}`, "", MANIFEST_MISSING_HINT),
    );
    return undefined;
  }
  try {
    if (!isStrictlyInside(folder, manifestPath) || !statSync(manifestPath).isFile()) {
      issues.push(toolIssue(id, "manifest_escape", `selected tool manifest escapes folder: ${id}`, ""));
      return undefined;
    }
  } catch {
    issues.push(
      toolIssue(id, "manifest_missing", `selected tool files are missing: ${id}`, "", MANIFEST_MISSING_HINT),
    );
    return undefined;
  }
  // 3. Strict UTF-8, then JSON.
  let manifestBytes: Uint8Array | undefined;
  let parsed: unknown;
  let parsedOk = false;
  let text: string | undefined;
  try {
    // Opened without blocking: a manifest swapped for a FIFO since the check above is refused, not waited on.
    const read = readRegularFile(manifestPath);
    if (read === undefined) throw new Error(`${MANIFEST_FILE} is not a regular file`);
    manifestBytes = read.bytes;
    text = STRICT_UTF8.decode(manifestBytes);
    parsed = JSON.parse(text);
    parsedOk = true;
  } catch (error) {
    issues.push(
      toolIssue(
        id,
        "manifest_json_invalid",
        `invalid selected tool manifest ${id}: ${parserMessage(error, text)}`,
        "",
      ),
    );
  }
  // 4. The manifest rules, with the folder name as the expected id.
  let manifest: ToolManifest | undefined;
  const warnings: ToolIssue[] = [];
  if (parsedOk) {
    const result = parseToolManifest(parsed, { expectedId: selection.folderName, allIssues });
    if (result.ok) {
      manifest = result.manifest;
      for (const warning of result.warnings) warnings.push(toolWarning(warning, id));
    } else {
      for (const item of result.issues) issues.push({ ...item, path: item.path ?? "", tool: id });
    }
  }
  // 5. The entry: a regular file strictly inside the folder. In the allIssues mode also when other manifest fields
  // failed, as long as `entry` itself is valid.
  const entryOnly =
    manifest === undefined && allIssues ? diagnosticManifest(parsed, issues, before) : undefined;
  const entryManifest = manifest ?? entryOnly;
  let entryOk = false;
  if (entryManifest !== undefined) {
    const entry = entryManifest.entry;
    const lexical = resolve(folder, entry);
    const escapes = () =>
      toolIssue(
        id,
        "entry_escape",
        `selected tool entry escapes folder: ${id}`,
        "/entry",
        `${entry} must be a regular file inside the tool folder (not a link out of it, not a folder)`,
      );
    if (!lexicallyInside(folder, entry)) {
      issues.push(escapes());
    } else {
      try {
        const entryPath = realpathSync.native(lexical);
        if (!isStrictlyInside(folder, entryPath) || !statSync(entryPath).isFile()) {
          issues.push(escapes());
        } else entryOk = true;
      } catch {
        issues.push(
          toolIssue(
            id,
            "entry_missing",
            `selected tool files are missing: ${id}`,
            "/entry",
            `the entry file ${entry} does not exist in the tool folder: create it, or point "entry" at the file that exports the handler`,
          ),
        );
      }
    }
  }
  // 6–7. Every file, read twice; the manifest bytes must be the ones validated.
  const first = readFolderFileSet(folder);
  for (const problem of first.problems) {
    issues.push(
      problem.code === "file_escape"
        ? toolIssue(id, "file_escape", `selected tool file escapes its folder: ${problem.relpath}`, "")
        : toolIssue(id, "file_unsupported", `unsupported selected tool file: ${problem.relpath}`, ""),
    );
  }
  const second = readFolderFileSet(folder);
  if (!sameFileSet(first, second)) {
    issues.push(toolIssue(id, "folder_changed", `selected tool changed while loading: ${id}`, ""));
  } else if (manifestBytes !== undefined) {
    const listed = second.files.find((file) => file.relpath === MANIFEST_FILE);
    if (listed === undefined || !sameBytes(listed.bytes, manifestBytes)) {
      issues.push(toolIssue(id, "folder_changed", `selected tool manifest changed while loading: ${id}`, ""));
    }
  }
  if (
    entryOnly !== undefined &&
    entryOk &&
    issues.every((issue, i) => i < before || issue.path.startsWith("/"))
  ) {
    diagnostics.push({ selection, folder, manifest: entryOnly });
  }
  if (issues.length > before || manifest === undefined) return undefined;
  return { selection, folder, parsed, manifest, fileSet: second, warnings };
}

/**
 * The fields the entry checks read, from a manifest with issues: a plain object whose `entry` is valid (no issue at
 * `/entry`) and whose JSON parsed; `effects_schema` only when it is an object. Undefined otherwise.
 */
function diagnosticManifest(
  parsed: unknown,
  issues: readonly ToolIssue[],
  from: number,
): ToolManifest | undefined {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const value = parsed as Record<string, unknown>;
  const entry = Object.hasOwn(value, "entry") ? value.entry : undefined;
  if (typeof entry !== "string" || !TOOL_ENTRY.test(entry)) return undefined;
  if (issues.slice(from).some((issue) => issue.path === "" || issue.path === "/entry")) return undefined;
  const effects = Object.hasOwn(value, "effects_schema") ? value.effects_schema : undefined;
  const manifest: Partial<ToolManifest> = { entry };
  if (typeof effects === "object" && effects !== null && !Array.isArray(effects)) {
    manifest.effects_schema = effects as Record<string, unknown>;
  }
  return manifest as ToolManifest;
}

/**
 * The parser message of a manifest that is not JSON, on one line and without the parser's excerpt of the text (V8
 * quotes the text around the error, which may hold invisible characters and span lines); a leading byte-order mark
 * is named as such.
 */
function parserMessage(error: unknown, text: string | undefined): string {
  if (text?.charCodeAt(0) === 0xfeff) return "JSON text must not start with a UTF-8 byte-order mark (U+FEFF)";
  return thrownMessage(error)
    .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, "")
    .replace(/\s*\n\s*/g, " ");
}

/** Checks the entry's exports (tool-api.md §5.3); returns the registration fields or pushes issues. */
function checkExports(
  tool: Pick<PhaseOneTool, "selection" | "manifest">,
  module: ImportedModule,
  issues: ToolIssue[],
  warnings: ToolIssue[],
): ToolRegistration | undefined {
  const id = tool.selection.identity;
  const before = issues.length;
  const has = (name: string): boolean => Object.hasOwn(module, name) && module[name] !== undefined;
  const handler = module.handler;
  const validateArgs = has("validateArgs") ? module.validateArgs : undefined;
  const describeEffects = has("describeEffects") ? module.describeEffects : undefined;
  if (typeof handler !== "function" || (has("validateArgs") && typeof validateArgs !== "function")) {
    issues.push(
      toolIssue(
        id,
        "handler_invalid",
        `invalid selected tool handler or validator: ${id}`,
        "/entry",
        handlerHint(module, tool.manifest.entry),
      ),
    );
  }
  const manifest = tool.manifest;
  const hasEffects = manifest.effects_schema !== undefined;
  if (hasEffects && typeof describeEffects !== "function") {
    const hint = Object.hasOwn(module, "describeEffects")
      ? `export \`describeEffects\` is ${describeExportType(module.describeEffects)}: it must be a function, because the manifest declares effects_schema`
      : `the manifest declares effects_schema: ${manifest.entry} must export a function named \`describeEffects\``;
    issues.push(
      toolIssue(
        id,
        "effects_descriptor_missing",
        `missing effects descriptor: ${id}`,
        "/effects_schema",
        hint,
      ),
    );
  }
  if (!hasEffects && describeEffects !== undefined) {
    warnings.push(
      toolIssue(
        id,
        "effects_descriptor_ignored",
        `describeEffects of ${id} is ignored: the manifest has no effects_schema`,
        "/entry",
        "add an effects_schema to the manifest, or remove the describeEffects export",
      ),
    );
  }
  if (issues.length > before) return undefined;
  const registration: ToolRegistration = {
    name: tool.selection.alias ?? manifest.name,
    identity: id,
    description: manifest.description,
    inputSchema: manifest.input_schema,
    conditionSources: manifest.condition_sources ?? ["arguments"],
    handler: handler as ToolRegistration["handler"],
  };
  if (hasEffects) {
    registration.effectsSchema = manifest.effects_schema;
    registration.describeEffects = describeEffects as ToolRegistration["describeEffects"];
  }
  if (validateArgs !== undefined)
    registration.validateArgs = validateArgs as ToolRegistration["validateArgs"];
  if (manifest.panels !== undefined) registration.panels = manifest.panels;
  return registration;
}

/** What is wrong with the exports `handler` and `validateArgs`, naming the export and its actual type. */
function handlerHint(module: ImportedModule, entry: string): string {
  if (!Object.hasOwn(module, "handler")) {
    const named = Object.hasOwn(module, "default")
      ? " (it has a default export: export the function by name, `export async function handler`)"
      : "";
    return `${entry} has no export \`handler\`${named}`;
  }
  if (typeof module.handler !== "function") {
    return `export \`handler\` is ${describeExportType(module.handler)}: it must be a function`;
  }
  return `export \`validateArgs\` is ${describeExportType(module.validateArgs)}: it must be a function, or not be exported`;
}

interface RunOutcome {
  issues: ToolIssue[];
  warnings: ToolIssue[];
  tools: LoadedTool[];
}

/**
 * The issue of an entry that did not import: a `ContractError` keeps its code and message, and the path, hint and
 * location of its first issue when it has them (an importer in a child process reports a syntax error's place so);
 * anything else is `entry_load_failed` at `/entry`.
 */
function importIssue(id: string, error: unknown): ToolIssue {
  if (!isContractError(error)) {
    return toolIssue(
      id,
      "entry_load_failed",
      `selected tool entry failed to load: ${id}: ${thrownMessage(error)}`,
      "/entry",
    );
  }
  const first = error.issues[0] as (Issue & { location?: unknown }) | undefined;
  const path = typeof first?.path === "string" ? first.path : "/entry";
  const hint = typeof first?.hint === "string" ? first.hint : undefined;
  const issue = toolIssue(id, error.code, error.message, path, hint);
  const location = first?.location as Partial<ToolSourceLocation> | undefined;
  if (
    typeof location?.file === "string" &&
    Number.isSafeInteger(location.line) &&
    Number.isSafeInteger(location.column)
  ) {
    issue.location = {
      file: location.file,
      line: location.line as number,
      column: location.column as number,
    };
  }
  return issue;
}

/** The export checks of a `DiagnosticEntry`, imported from its folder through `importEntry`; pushes what they find. */
async function checkEntryDespiteIssues(
  entry: DiagnosticEntry,
  importEntry: EntryImporter,
  issues: ToolIssue[],
  warnings: ToolIssue[],
): Promise<void> {
  const id = entry.selection.identity;
  let module: ImportedModule;
  try {
    const url = pathToFileURL(join(entry.folder, entry.manifest.entry)).href;
    module = await importEntry(url, { identity: id, dir: entry.folder, manifest: entry.manifest });
  } catch (error) {
    issues.push(importIssue(id, error));
    return;
  }
  const tool = { selection: entry.selection, manifest: entry.manifest } as const;
  checkExports(tool, module, issues, warnings);
}

/** Phase 1 for every selection, the name check, then (only when all is clean) phase 2 in selection order. */
async function run(
  inputs: ReadonlyArray<string | ToolSelection>,
  options: LoadToolOptions,
): Promise<RunOutcome> {
  const issues: ToolIssue[] = [];
  const warnings: ToolIssue[] = [];
  const selections = inputs.map(resolveSelection);
  const passed: PhaseOneTool[] = [];
  const diagnostics: DiagnosticEntry[] = [];
  const allIssues = options.allIssues === true;
  for (const selection of selections) {
    const tool = phaseOne(selection, issues, allIssues, diagnostics);
    if (tool) passed.push(tool);
  }
  // The allIssues mode: entries of manifests with other issues are still checked, only through an importer the host
  // gave (a CI validator's child process), never imported into this process.
  if (allIssues && options.importEntry !== undefined) {
    for (const entry of diagnostics)
      await checkEntryDespiteIssues(entry, options.importEntry, issues, warnings);
  }
  if (issues.length === 0) {
    const names = new Set<string>();
    for (const tool of passed) {
      const name = tool.selection.alias ?? tool.manifest.name;
      if (names.has(name)) {
        issues.push(
          toolIssue(tool.selection.identity, "tool_name_duplicate", `duplicate tool name: ${name}`, "/name"),
        );
      } else {
        names.add(name);
      }
    }
  }
  for (const tool of passed) warnings.push(...tool.warnings);
  if (issues.length > 0) return { issues, warnings, tools: [] };

  const tools: LoadedTool[] = [];
  let cacheDir: string | undefined;
  const used = new Set<string>();
  for (const tool of passed) {
    const id = tool.selection.identity;
    const digest = sourceDigest(id, tool.fileSet.files, tool.parsed);
    let module: ImportedModule;
    let importDir = tool.folder;
    try {
      if (tool.selection.snapshot) {
        cacheDir ??= ensurePrivateDir(options.cacheDir ?? defaultSnapshotCacheDir());
        used.add(digest);
        importDir = materializeSnapshot(cacheDir, digest, tool.fileSet.files, tool.folder);
      }
      const url = `${pathToFileURL(join(importDir, tool.manifest.entry)).href}?digest=${digest}`;
      module = options.importEntry
        ? await options.importEntry(url, { identity: id, dir: tool.folder, manifest: tool.manifest })
        : ((await import(url)) as ImportedModule);
    } catch (error) {
      issues.push(importIssue(id, error));
      continue;
    }
    const toolWarnings = [...tool.warnings];
    const registration = checkExports(tool, module, issues, toolWarnings);
    for (const warning of toolWarnings.slice(tool.warnings.length)) warnings.push(warning);
    if (registration === undefined) continue;
    tools.push(
      Object.freeze({
        identity: id,
        dir: tool.folder,
        manifest: tool.manifest,
        registration,
        digest,
        importDir,
        warnings: toolWarnings,
      }),
    );
  }
  if (cacheDir !== undefined && options.sweepCache !== false) sweepSnapshotCache(cacheDir, used);
  return { issues, warnings, tools: issues.length > 0 ? [] : tools };
}

/**
 * Loads the selected tool folders (tool-api.md §5.2–5.5): every manifest is read and validated before any entry
 * is imported (one bad tool means no import at all), entries are imported in selection order from their
 * content-addressed copy, and loading is all-or-nothing. Throws a `ContractError` carrying every issue (each with
 * the selection id of its tool in `tool`).
 */
export async function loadToolFolders(
  selections: ReadonlyArray<string | ToolSelection>,
  options: LoadToolOptions = {},
): Promise<LoadedTool[]> {
  const outcome = await run(selections, options);
  if (outcome.issues.length > 0) throw ContractError.fromIssues(outcome.issues);
  return outcome.tools;
}

/** Loads one tool folder (see `loadToolFolders`); throws a `ContractError`. */
export async function loadToolFolder(dir: string, options: LoadToolFolderOptions = {}): Promise<LoadedTool> {
  const { cacheDir, sweepCache, importEntry, allIssues, ...selection } = options;
  const [tool] = await loadToolFolders([{ ...selection, dir }], {
    cacheDir,
    sweepCache,
    importEntry,
    allIssues,
  });
  return tool as LoadedTool;
}

/**
 * Validates one tool folder as a loader would (tool-api.md §5.3, last paragraph): phase 1 and, only when it is
 * clean, the phase 2 import and export checks, without registering anything. Never throws.
 */
export async function validateToolFolder(
  dir: string,
  options: LoadToolFolderOptions = {},
): Promise<ToolFolderValidation> {
  const { cacheDir, sweepCache, importEntry, allIssues, ...selection } = options;
  const id = selection.identity ?? basename(resolve(String(dir)));
  try {
    const outcome = await run([{ ...selection, dir }], { cacheDir, sweepCache, importEntry, allIssues });
    return { ok: outcome.issues.length === 0, issues: outcome.issues, warnings: outcome.warnings };
  } catch (error) {
    const issue = toolIssue(
      id,
      "folder_missing",
      `missing or escaping selected tool ${id}: ${thrownMessage(error)}`,
      "",
    );
    return { ok: false, issues: [issue], warnings: [] };
  }
}

/**
 * A manifest warning with its tool's selection id. The warning keeps the contract's `{ code, message }` shape
 * (`panels.md` §2.2) plus `tool`; its pointer stays the non-enumerable `path` it came with.
 */
function toolWarning(warning: Issue, tool: string): ToolIssue {
  const copy = { ...warning, tool } as ToolIssue;
  if (!Object.hasOwn(copy, "path"))
    Object.defineProperty(copy, "path", { value: warning.path ?? "", enumerable: false });
  return copy;
}
