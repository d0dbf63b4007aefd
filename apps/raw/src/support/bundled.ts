import { existsSync, readdirSync, realpathSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { isContractError } from "@raw/schema";
import { type LoadedTool, loadToolFolders, type ToolSelection } from "@raw/tool-api";
import { bundledToolFolders } from "@raw/tools";
import { type FileReport, locate, toolReport } from "@raw/validate";
import { CliFailure } from "./io.js";
import { bundledHooksRoot } from "./paths.js";

/**
 * True when a `--tool` or `--hook` value names a folder by path (`./guard`, `../x/guard`, `/abs/guard`,
 * `hooks/guard`, `.`): it holds a `/` or is `.` or `..`. Any other value is a name.
 */
export function isPathValue(value: string): boolean {
  return value.includes("/") || value === "." || value === "..";
}

/**
 * Loads every bundled tool of `@raw/tools` (`bundledToolFolders()`, sorted by name) through the folder loader as
 * the builtin identity `builtin/<name>` (tool-api.md §9.4), plus the `--tool` folders as `local/<id>` (imported
 * from their content-addressed copies): every manifest is validated before any entry is imported, and loading is
 * all-or-nothing. A failure yields the validation reports of the folders at fault.
 */
export async function loadTools(
  localDirs: readonly string[] = [],
  cwd: string = process.cwd(),
): Promise<{ ok: true; tools: LoadedTool[] } | { ok: false; reports: FileReport[] }> {
  const selections: ToolSelection[] = bundledToolFolders()
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((folder) => ({ dir: folder.dir, identity: folder.identity }));
  for (const dir of localDirs) {
    // A folder is chosen by a path only: a bare name never picks up a folder of the working directory.
    if (!isPathValue(dir)) {
      throw new CliFailure(
        "tool_not_a_path",
        `--tool takes a folder path, such as ./${dir}; the bundled tools are always loaded: call them by name`,
      );
    }
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

/** The folder names of the bundled hooks (folders of `hooks/` holding a `hook.json`), sorted. */
export function bundledHookNames(): string[] {
  const root = bundledHooksRoot();
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, "hook.json")))
    .map((entry) => entry.name)
    .sort();
}

/** A selected hook folder: where it is, and whether it is a bundled hook chosen by name. */
export interface HookChoice {
  /** The folder (absolute). */
  dir: string;
  /** True for a bundled hook chosen by its name. */
  bundled: boolean;
}

/**
 * A `--hook` value as a folder. A path (`./guard`, `/abs/guard`, `hooks/guard`: see `isPathValue`) is that folder;
 * any other value is the name of a bundled hook (`hooks/<name>/`), never a folder of the working directory. An
 * unknown name is the failure `hook_unknown`.
 */
export function hookFolder(value: string, cwd: string): HookChoice {
  if (isPathValue(value)) return { dir: resolve(cwd, value), bundled: false };
  const names = bundledHookNames();
  if (names.includes(value)) return { dir: join(bundledHooksRoot(), value), bundled: true };
  throw new CliFailure(
    "hook_unknown",
    `no bundled hook is named ${JSON.stringify(value)} (bundled: ${names.join(", ")}); give a folder as a path, such as ./${value}`,
  );
}

/** The real path of a folder, or the path itself when it cannot be resolved (the loader then reports why). */
export function realFolder(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
