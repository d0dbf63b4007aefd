import { lstatSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { EntryImporter } from "@raw/tool-api";
import { bundledToolsRoot } from "./bundled-root.js";
import { POLICY_CASES_SCHEMA } from "./cases.js";
import { displayPath, readJsonFile, readTextFileSync } from "./files.js";
import { type JsonSource, parseJsonSource, type SourcePosition } from "./json-source.js";
import {
  type DeclaredName,
  type FileKind,
  type FileReport,
  type LocatedIssue,
  locate,
  placeIssue,
} from "./report.js";

type AnyIssue = {
  code: string;
  message: string;
  path?: string | undefined;
  hint?: string | undefined;
  /** A place in another file of the folder (a syntax error in a tool's entry), relative to the folder. */
  location?: { file: string; line: number; column: number } | undefined;
};

/**
 * Places issues in a JSON source: by their pointer, JSON syntax codes at the syntax error (with the parser's hint
 * when the issue has none), an issue with a `location` in that other file of the folder.
 */
class Placer {
  private parsedSource: JsonSource | undefined;
  private strings: ReadonlyMap<string, string> | undefined;

  constructor(
    private readonly text: string | undefined,
    private readonly syntaxCodes: ReadonlySet<string>,
    private readonly otherFile: (relative: string) => string = (relative) => relative,
  ) {}

  /** The source with its positions, parsed on first use: a file without issues is never parsed for positions. */
  private get source(): JsonSource | undefined {
    if (this.text === undefined) return undefined;
    this.parsedSource ??= parseJsonSource(this.text);
    return this.parsedSource;
  }

  place(issue: AnyIssue): LocatedIssue {
    const location = issue.location;
    if (location !== undefined) {
      return { ...locate(issue, location), file: this.otherFile(location.file) };
    }
    const source = this.source;
    if (source === undefined) return locate(issue, undefined);
    if (!source.ok) {
      if (!this.syntaxCodes.has(issue.code)) return locate(issue, undefined);
      return locate(
        issue.hint === undefined && source.hint !== undefined ? { ...issue, hint: source.hint } : issue,
        source.position,
      );
    }
    return placeIssue(issue, source);
  }

  /**
   * A top-level string field of the file and where it is, for the cross-folder checks. The value comes from a plain
   * `JSON.parse`; its position only when it is asked for (a name declared twice).
   */
  declared(what: DeclaredName["what"], field: string): DeclaredName | undefined {
    const named = this.topLevelStrings().get(field);
    if (named === undefined) return undefined;
    const pointer = `/${field}`;
    return {
      what,
      value: named,
      pointer,
      position: () => {
        const source = this.source;
        return source?.ok === true ? source.positionOf(pointer) : { line: 1, column: 1 };
      },
    };
  }

  /**
   * The top-level string fields of the file: from the positioned source when it was parsed already, else from a
   * plain `JSON.parse` whose tree is dropped at once (only these strings are kept).
   */
  private topLevelStrings(): ReadonlyMap<string, string> {
    if (this.strings !== undefined) return this.strings;
    let value: unknown;
    if (this.parsedSource !== undefined) value = this.parsedSource.ok ? this.parsedSource.value : undefined;
    else if (this.text !== undefined) {
      try {
        value = JSON.parse(this.text);
      } catch {
        value = undefined;
      }
    }
    const strings = new Map<string, string>();
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [key, field] of Object.entries(value))
        if (typeof field === "string") strings.set(key, field);
    }
    this.strings = strings;
    return strings;
  }
}

function report(
  file: string,
  kind: FileKind,
  issues: LocatedIssue[],
  warnings: LocatedIssue[] = [],
): FileReport {
  return { file, kind, ok: issues.length === 0, issues, warnings };
}

function single(
  file: string,
  kind: FileKind,
  code: string,
  message: string,
  position?: SourcePosition,
  hint?: string,
) {
  return report(file, kind, [locate({ code, message, hint }, position)]);
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The manifest text for positions; `undefined` when it cannot be read (the loader then reports why). */
function manifestText(path: string, shown: string): { text?: string; tooLarge?: string } {
  const read = readTextFileSync(path, shown);
  if (read.ok) return { text: read.text };
  if (read.code === "file_too_large") return { tooLarge: read.message };
  return {};
}

let bundledRoot: { path: string | undefined } | undefined;

/**
 * True when `dir` is a folder of the bundled tools root (loaded as `builtin/<name>`, from the folder itself). The
 * file-system calls of a folder's validation are synchronous metadata calls of a few microseconds (an asynchronous
 * one costs a thread-pool round trip of tens; see `readFolderFileSet` in `@raw/tool-api`).
 */
function isBundledTool(dir: string): boolean {
  const realOrUndefined = (path: string): string | undefined => {
    try {
      return realpathSync.native(path);
    } catch {
      return undefined;
    }
  };
  // The package's own folder: its real path is looked up once per process.
  bundledRoot ??= { path: realOrUndefined(bundledToolsRoot()) };
  const root = bundledRoot.path;
  return root !== undefined && realOrUndefined(dirname(dir)) === root;
}

/** Options of the validation of one path. */
export interface ValidatePathOptions {
  /**
   * Imports tool entries for the export checks (tool-api.md §5.3). `raw validate` passes one that imports in a child
   * process (`EntryImportPool`); without it, no entry is imported and only phase 1 runs.
   */
  importEntry?: EntryImporter | undefined;
  /**
   * The snapshot folder of `raw validate` (`ValidateSnapshots.dir`): non-builtin entries are imported from copies
   * there, as a host imports them. Without it, entries are imported from the folders themselves.
   */
  snapshotDir?: ((cacheRoot: string) => string) | undefined;
  /**
   * The folder of the hook copies of `raw validate` (`ValidateSnapshots.hookDir`), apart from the hosts'
   * `hook-snapshots`; without it, hook folders are copied where a host copies them.
   */
  hookSnapshotDir?: ((cacheRoot: string) => string) | undefined;
}

/** An importer that imports nothing (a stand-in that passes the export checks): only phase 1 is really checked. */
const PHASE_ONE_ONLY: EntryImporter = async (_url, tool) =>
  tool.manifest.effects_schema === undefined
    ? { handler: () => undefined }
    : { handler: () => undefined, describeEffects: () => undefined };

/**
 * Validates a tool folder with `validateToolFolder` (phase 1, then the entry's exports through `importEntry`) and
 * places the issues: every failing field of a panel declaration is reported (`allIssues`), and a syntax error in
 * the entry is placed in the entry file itself. The entry is never imported in this process.
 */
export async function validateTool(
  dir: string,
  cwd: string,
  options: ValidatePathOptions = {},
): Promise<FileReport> {
  const file = displayPath(join(dir, "tool.json"), cwd);
  const bundled = isBundledTool(dir);
  const manifest = manifestText(join(dir, "tool.json"), file);
  const { validateToolFolder, rawCacheRoot } = await import("@raw/tool-api");
  if (manifest.tooLarge !== undefined) return single(file, "tool", "file_too_large", manifest.tooLarge);
  const name = basename(dir);
  // A non-builtin entry is imported from its content-addressed copy, as a host imports it (so a relative import that
  // leaves the folder fails here too), in the snapshot folder of `raw validate`: no sweep per tool, the run cleans it.
  const snapshotDir = bundled ? undefined : options.snapshotDir?.(rawCacheRoot());
  const selection = bundled
    ? { identity: `builtin/${name}`, root: bundledToolsRoot() }
    : snapshotDir === undefined
      ? { identity: name, snapshot: false }
      : { identity: name, cacheDir: snapshotDir, sweepCache: false };
  const validated = validateToolFolder(dir, {
    ...selection,
    importEntry: options.importEntry ?? PHASE_ONE_ONLY,
    allIssues: true,
  });
  // The manifest's source positions are parsed while the loader waits for the file system and the child.
  const placer = toolPlacer(manifest.text, dir, cwd);
  const result = await validated;
  const placed = report(
    file,
    "tool",
    result.issues.map((i) => placer.place(i)),
    result.warnings.map((w) => placer.place(w)),
  );
  placed.declared = [placer.declared("tool name", "name"), placer.declared("tool id", "id")].filter(
    (name): name is DeclaredName => name !== undefined,
  );
  return placed;
}

function toolPlacer(text: string | undefined, dir: string, cwd: string): Placer {
  return new Placer(text, new Set(["manifest_json_invalid"]), (relative) =>
    displayPath(join(dir, relative), cwd),
  );
}

/**
 * The report of a tool folder from issues a loader already found (`loadToolFolders`), placed in its `tool.json`:
 * nothing is validated again and no entry is imported.
 */
export async function toolReport(
  dir: string,
  cwd: string,
  issues: readonly AnyIssue[],
  warnings: readonly AnyIssue[] = [],
): Promise<FileReport> {
  const file = displayPath(join(dir, "tool.json"), cwd);
  const manifest = manifestText(join(dir, "tool.json"), file);
  const placer = toolPlacer(manifest.text, dir, cwd);
  return report(
    file,
    "tool",
    issues.map((i) => placer.place(i)),
    warnings.map((w) => placer.place(w)),
  );
}

/**
 * The report of a hook folder from the issues and warnings of `validateHookFolder`, placed in its `hook.json`:
 * nothing is loaded again.
 */
export async function hookReport(
  dir: string,
  cwd: string,
  issues: readonly AnyIssue[],
  warnings: readonly AnyIssue[] = [],
): Promise<FileReport> {
  const file = displayPath(join(dir, "hook.json"), cwd);
  const manifest = manifestText(join(dir, "hook.json"), file);
  const placer = new Placer(manifest.text, new Set(["hook_manifest_json_invalid"]));
  const placed = report(
    file,
    "hook",
    issues.map((i) => placer.place(i)),
    warnings.map((w) => placer.place(w)),
  );
  const name = placer.declared("hook name", "name");
  placed.declared = name === undefined ? [] : [name];
  return placed;
}

/**
 * Validates a hook folder once, as a host would load it (`validateHookFolder`: manifest, assets, snapshot), with the
 * `hook_command_not_found` warning for a bare command on no folder of `PATH`; `id` is the selection id used in
 * messages (default: the folder name).
 */
export async function validateHook(
  dir: string,
  cwd: string,
  id?: string,
  options: Pick<ValidatePathOptions, "hookSnapshotDir"> = {},
): Promise<FileReport> {
  const { validateHookFolder } = await import("@raw/hook-protocol");
  // Raw's cache root is the same for hooks and tools (`$RAW_CACHE_DIR`, `$XDG_CACHE_HOME/raw`, `~/.cache/raw`).
  const snapshotDir =
    options.hookSnapshotDir === undefined
      ? undefined
      : options.hookSnapshotDir((await import("@raw/tool-api")).rawCacheRoot());
  const result = await validateHookFolder(dir, {
    ...(id === undefined ? {} : { id }),
    ...(snapshotDir === undefined ? {} : { snapshotDir }),
  });
  return hookReport(dir, cwd, result.issues, result.warnings);
}

/** How each kind of declared name is reported when two files of one run declare the same one. */
const DUPLICATES: Readonly<
  Record<DeclaredName["what"], { code: string; message: (value: string) => string }>
> = {
  "tool name": { code: "tool_name_duplicate", message: (value) => `duplicate tool name: ${value}` },
  "tool id": { code: "tool_id_duplicate", message: (value) => `duplicate tool id: ${value}` },
  "hook name": { code: "hook_selection_duplicate", message: (value) => `duplicate selected hook: ${value}` },
};

/**
 * The cross-folder checks of one `raw validate` run: a model-facing tool name, a tool id or a hook name declared by
 * two different files is an error in each of them, at its own place, with a hint naming the other place
 * (`file:line:col`). Tools that load together must differ in all three. Mutates and returns `reports`.
 */
export function checkAcrossFolders(reports: FileReport[]): FileReport[] {
  const seen = new Map<string, Array<{ report: FileReport; name: DeclaredName }>>();
  for (const report of reports) {
    for (const name of report.declared ?? []) {
      const key = `${name.what}\u0000${name.value}`;
      const list = seen.get(key) ?? [];
      if (!list.some((entry) => entry.report.file === report.file)) list.push({ report, name });
      seen.set(key, list);
    }
  }
  for (const list of seen.values()) {
    if (list.length < 2) continue;
    for (const { report, name } of list) {
      const others = list
        .filter((entry) => entry.report !== report)
        .map((entry) => {
          const { line, column } = entry.name.position();
          return `${entry.report.file}:${line}:${column}`;
        });
      const { code, message } = DUPLICATES[name.what];
      report.issues.push({
        ...locate(
          {
            code,
            message: message(name.value),
            path: name.pointer,
            hint: `${name.what} "${name.value}" is also declared at ${others.join(", ")}: the folders of one run load together, so each must be unique`,
          },
          name.position(),
        ),
      });
      report.ok = false;
    }
  }
  return reports;
}

/** What a JSON file holds according to its name (`*rules*`, `*cases*`, `*panel*`), if its name tells. */
function kindFromName(path: string): FileKind | undefined {
  const name = basename(path).toLowerCase();
  if (name.includes("rules")) return "rules";
  if (name.includes("cases")) return "cases";
  if (name.includes("panel")) return "panel-document";
  return undefined;
}

/** What a JSON file holds, from its name first and then its content. */
function kindOf(path: string, value: unknown): FileKind {
  const named = kindFromName(path);
  if (named !== undefined) return named;
  if (Array.isArray(value)) return "rules";
  if (typeof value === "object" && value !== null) {
    if (Object.hasOwn(value, "blocks")) return "panel-document";
    if (Object.hasOwn(value, "cases")) return "cases";
  }
  return "unknown";
}

let casesValidator: { validate(value: unknown): AnyIssue[] } | undefined;

/** Validates a parsed policy cases value against `schemas/cases.schema.json` (every issue). */
export async function validateCasesValue(value: unknown): Promise<AnyIssue[]> {
  if (casesValidator === undefined) {
    const { compileObjectSchema } = await import("@raw/schema");
    casesValidator = compileObjectSchema(POLICY_CASES_SCHEMA, {
      name: "policy cases",
    });
  }
  return casesValidator.validate(value);
}

/** Validates one parsed JSON document of a known kind; returns its issues and warnings. */
export async function validateDocument(
  kind: FileKind,
  value: unknown,
): Promise<{ issues: AnyIssue[]; warnings: AnyIssue[] }> {
  if (kind === "rules") {
    const { lintRules, parseRules } = await import("@raw/tool-api");
    const parsed = parseRules(value);
    if (!parsed.ok) return { issues: parsed.issues, warnings: [] };
    return { issues: [], warnings: lintRules(parsed.rules) };
  }
  if (kind === "panel-document") {
    const { validatePanelDocument } = await import("@raw/panel");
    const checked = validatePanelDocument(value);
    return { issues: checked.ok ? [] : checked.issues, warnings: [] };
  }
  if (kind === "cases") return { issues: await validateCasesValue(value), warnings: [] };
  return {
    issues: [
      {
        code: "document_unrecognized",
        message:
          "cannot tell what this file holds: expected a rules array, a panel document (with blocks) or policy cases (with cases); name it *rules*.json, *panel*.json or *cases*.json",
      },
    ],
    warnings: [],
  };
}

/** Validates a JSON file (rules, panel document or policy cases). `kind` forces the kind. */
export async function validateJsonFile(path: string, cwd: string, forced?: FileKind): Promise<FileReport> {
  const file = displayPath(path, cwd);
  const read = await readJsonFile(path, file);
  if (!read.ok)
    return single(
      file,
      forced ?? kindFromName(path) ?? "unknown",
      read.code,
      read.detail,
      read.position,
      read.hint,
    );
  const kind = forced ?? kindOf(path, read.value);
  const { issues, warnings } = await validateDocument(kind, read.value);
  const place = (issue: AnyIssue) => placeIssue(issue, read.source);
  return report(file, kind, issues.map(place), warnings.map(place));
}

/**
 * Validates one command-line path: a tool folder (or its `tool.json`), a hook folder (or its `hook.json`), a folder
 * holding both, or a JSON file (rules, panel document, policy cases). Never throws.
 */
export async function validatePath(
  input: string,
  cwd: string,
  options: ValidatePathOptions = {},
): Promise<FileReport[]> {
  const path = resolve(cwd, input);
  const shown = displayPath(path, cwd);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return [single(shown, "unknown", "path_missing", `${shown}: no such file or folder`)];
    }
    return [single(shown, "unknown", "file_unreadable", `${shown}: cannot read (${code ?? "error"})`)];
  }
  if (isDirectory) {
    const reports: FileReport[] = [];
    const hasTool = exists(join(path, "tool.json"));
    const hasHook = exists(join(path, "hook.json"));
    if (hasTool) reports.push(await validateTool(path, cwd, options));
    if (hasHook) reports.push(await validateHook(path, cwd, undefined, options));
    if (reports.length === 0) {
      reports.push(
        single(shown, "unknown", "folder_unrecognized", `${shown} holds neither a tool.json nor a hook.json`),
      );
    }
    return reports;
  }
  const name = basename(path);
  if (name === "tool.json") return [await validateTool(dirname(path), cwd, options)];
  if (name === "hook.json") return [await validateHook(dirname(path), cwd, undefined, options)];
  return [await validateJsonFile(path, cwd)];
}
