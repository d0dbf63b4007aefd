import { lstat, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { EntryImporter } from "@raw/tool-api";
import { POLICY_CASES_SCHEMA } from "./cases.js";
import { displayPath, readJsonFile, readTextFile } from "./files.js";
import { type JsonSource, parseJsonSource, type SourcePosition } from "./json-source.js";
import { bundledToolsRoot } from "./paths.js";
import { type FileKind, type FileReport, type LocatedIssue, locate } from "./report.js";

type AnyIssue = { code: string; message: string; path?: string | undefined; hint?: string | undefined };

/** Loader issues without a pointer that concern a manifest field: where their line and column point. */
const TOOL_ANCHORS: Readonly<Record<string, string>> = {
  entry_missing: "/entry",
  entry_escape: "/entry",
  entry_load_failed: "/entry",
  entry_exited: "/entry",
  entry_timeout: "/entry",
  entry_wrote_stdout: "/entry",
  handler_invalid: "/entry",
  effects_descriptor_missing: "/entry",
  effects_descriptor_ignored: "/entry",
  tool_name_duplicate: "/name",
};

/** The JSON Pointer a message starts with (`/panels/0: unknown icon ...`), for issues that carry no `path`. */
function messagePointer(message: string): string | undefined {
  return /^(\/[^\s:]*):/.exec(message)?.[1];
}

/** Places issues in a JSON source: by their pointer (or an anchor), JSON syntax codes at the syntax error. */
class Placer {
  private readonly source: JsonSource | undefined;

  constructor(
    text: string | undefined,
    private readonly syntaxCodes: ReadonlySet<string>,
    private readonly anchors: Readonly<Record<string, string>> = {},
  ) {
    this.source = text === undefined ? undefined : parseJsonSource(text);
  }

  place(issue: AnyIssue): LocatedIssue {
    const source = this.source;
    if (source === undefined) return locate(issue, undefined);
    if (!source.ok) {
      if (!this.syntaxCodes.has(issue.code)) return locate(issue, undefined);
      return locate(
        issue.hint === undefined && source.hint !== undefined ? { ...issue, hint: source.hint } : issue,
        source.position,
      );
    }
    const at = issue.path ?? this.anchors[issue.code] ?? messagePointer(issue.message);
    return locate(issue, at === undefined ? undefined : source.positionOf(at));
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

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The manifest text for positions; `undefined` when it cannot be read (the loader then reports why). */
async function manifestText(path: string, shown: string): Promise<{ text?: string; tooLarge?: string }> {
  const read = await readTextFile(path, shown);
  if (read.ok) return { text: read.text };
  if (read.code === "file_too_large") return { tooLarge: read.message };
  return {};
}

/** True when `dir` is a folder of the bundled tools root (loaded as `builtin/<name>`, from the folder itself). */
async function isBundledTool(dir: string): Promise<boolean> {
  try {
    return (await realpath(dirname(dir))) === (await realpath(bundledToolsRoot()));
  } catch {
    return false;
  }
}

/** Options of the validation of one path. */
export interface ValidatePathOptions {
  /**
   * Imports tool entries for the export checks (tool-api.md §5.3). `raw validate` passes one that imports in a child
   * process (`EntryImportPool`); without it, no entry is imported and only phase 1 runs.
   */
  importEntry?: EntryImporter | undefined;
}

/** An importer that imports nothing (a stand-in that passes the export checks): only phase 1 is really checked. */
const PHASE_ONE_ONLY: EntryImporter = async (_url, tool) =>
  tool.manifest.effects_schema === undefined
    ? { handler: () => undefined }
    : { handler: () => undefined, describeEffects: () => undefined };

/**
 * Validates a tool folder with `validateToolFolder` (phase 1, then the entry's exports through `importEntry`) and
 * places the issues. The entry is never imported in this process.
 */
export async function validateTool(
  dir: string,
  cwd: string,
  options: ValidatePathOptions = {},
): Promise<FileReport> {
  const file = displayPath(join(dir, "tool.json"), cwd);
  const manifest = await manifestText(join(dir, "tool.json"), file);
  if (manifest.tooLarge !== undefined) return single(file, "tool", "file_too_large", manifest.tooLarge);
  const { validateToolFolder } = await import("@raw/tool-api");
  const name = basename(dir);
  const selection = (await isBundledTool(dir))
    ? { identity: `builtin/${name}`, root: bundledToolsRoot() }
    : { identity: name };
  const result = await validateToolFolder(dir, {
    ...selection,
    importEntry: options.importEntry ?? PHASE_ONE_ONLY,
  });
  const placer = new Placer(manifest.text, new Set(["manifest_json_invalid"]), TOOL_ANCHORS);
  return report(
    file,
    "tool",
    result.issues.map((i) => placer.place(i)),
    result.warnings.map((w) => placer.place(w)),
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
  const manifest = await manifestText(join(dir, "tool.json"), file);
  const placer = new Placer(manifest.text, new Set(["manifest_json_invalid"]), TOOL_ANCHORS);
  return report(
    file,
    "tool",
    issues.map((i) => placer.place(i)),
    warnings.map((w) => placer.place(w)),
  );
}

/**
 * Validates a hook folder by loading it as a host would (`loadHookFolder`: manifest, assets, snapshot); `id` is the
 * selection id used in messages (default: the folder name).
 */
export async function validateHook(dir: string, cwd: string, id?: string): Promise<FileReport> {
  const file = displayPath(join(dir, "hook.json"), cwd);
  const manifest = await manifestText(join(dir, "hook.json"), file);
  const { loadHookFolder } = await import("@raw/hook-protocol");
  const { isContractError } = await import("@raw/schema");
  let issues: AnyIssue[] = [];
  try {
    await loadHookFolder(dir, id === undefined ? {} : { id });
  } catch (error) {
    if (isContractError(error)) {
      issues = error.issues.length > 0 ? error.issues : [{ code: error.code, message: error.message }];
    } else {
      issues = [{ code: "hook_load_failed", message: (error as Error)?.message ?? String(error) }];
    }
  }
  const placer = new Placer(manifest.text, new Set(["hook_manifest_json_invalid"]));
  return report(
    file,
    "hook",
    issues.map((i) => placer.place(i)),
  );
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
    casesValidator = compileObjectSchema(POLICY_CASES_SCHEMA as unknown as Record<string, unknown>, {
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
  const place = (issue: AnyIssue) =>
    locate(issue, issue.path === undefined ? undefined : read.source.positionOf(issue.path));
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
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return [single(shown, "unknown", "path_missing", `${shown}: no such file or folder`)];
    }
    return [single(shown, "unknown", "file_unreadable", `${shown}: cannot read (${code ?? "error"})`)];
  }
  if (isDirectory) {
    const reports: FileReport[] = [];
    const hasTool = await exists(join(path, "tool.json"));
    const hasHook = await exists(join(path, "hook.json"));
    if (hasTool) reports.push(await validateTool(path, cwd, options));
    if (hasHook) reports.push(await validateHook(path, cwd));
    if (reports.length === 0) {
      reports.push(
        single(shown, "unknown", "folder_unrecognized", `${shown} holds neither a tool.json nor a hook.json`),
      );
    }
    return reports;
  }
  const name = basename(path);
  if (name === "tool.json") return [await validateTool(dirname(path), cwd, options)];
  if (name === "hook.json") return [await validateHook(dirname(path), cwd)];
  return [await validateJsonFile(path, cwd)];
}
