import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { isContractError } from "@raw/schema";
import { type LoadedTool, loadToolFolders, type ToolSelection } from "@raw/tool-api";
import { bundledHooksRoot, bundledToolsRoot } from "./paths.js";
import { type FileReport, locate } from "./report.js";
import { toolReport } from "./validate-files.js";

/** The folder names of the bundled tools (folders of `tools/` holding a `tool.json`), sorted. */
export function bundledToolNames(): string[] {
  const root = bundledToolsRoot();
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, "tool.json")))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Loads every bundled tool through the folder loader as the builtin identity `builtin/<name>` (tool-api.md §9.4),
 * plus the `--tool` folders as `local/<id>` (imported from their content-addressed copies): every manifest is
 * validated before any entry is imported, and loading is all-or-nothing. A failure yields the validation reports
 * of the folders at fault.
 */
export async function loadTools(
  localDirs: readonly string[] = [],
  cwd: string = process.cwd(),
): Promise<{ ok: true; tools: LoadedTool[] } | { ok: false; reports: FileReport[] }> {
  const root = bundledToolsRoot();
  const selections: ToolSelection[] = bundledToolNames().map((name) => ({
    dir: join(root, name),
    identity: `builtin/${name}`,
    root,
  }));
  for (const dir of localDirs) {
    const path = resolve(cwd, dir);
    selections.push({ dir: path, identity: `local/${basename(path)}` });
  }
  try {
    return { ok: true, tools: await loadToolFolders(selections) };
  } catch (error) {
    if (!isContractError(error)) throw error;
    // The report is built from the loader's own issues: no folder is validated again and no entry is imported
    // (tool-api.md §5.2 holds here as in the library).
    const issues: Array<{ code: string; message: string; path?: string; tool?: string }> =
      error.issues.length > 0 ? error.issues : [{ code: error.code, message: error.message }];
    const reports: FileReport[] = [];
    const claimed = new Set<number>();
    for (const selection of selections) {
      const mine = issues.filter((issue, i) => {
        if (issue.tool !== selection.identity || claimed.has(i)) return false;
        claimed.add(i);
        return true;
      });
      if (mine.length > 0) reports.push(await toolReport(selection.dir, cwd, mine));
    }
    const rest = issues.filter((_, i) => !claimed.has(i));
    if (rest.length > 0) {
      reports.push({
        file: localDirs.join(", ") || "tools",
        kind: "tool",
        ok: false,
        issues: rest.map((issue) => locate({ code: issue.code, message: issue.message }, undefined)),
        warnings: [],
      });
    }
    return { ok: false, reports };
  }
}

/**
 * A `--hook` value as a folder: the path itself when it exists, else the bundled hook of that name
 * (`hooks/<name>/`), else the path (the loader then reports it missing).
 */
export function hookFolder(value: string, cwd: string): string {
  const path = resolve(cwd, value);
  if (existsSync(path)) return path;
  if (/^[a-z][a-z0-9_-]*$/.test(value)) {
    const bundled = join(bundledHooksRoot(), value);
    try {
      if (statSync(bundled).isDirectory()) return bundled;
    } catch {
      // Not a bundled hook either.
    }
  }
  return path;
}
