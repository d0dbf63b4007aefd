import { type Dirent, existsSync } from "node:fs";
import { opendir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { FileReport } from "./report.js";

/** Most entries of a folder looked at for tool or hook folders (a bounded cost for a huge folder). */
export const MAX_SCANNED_FOLDER_ENTRIES = 1000;

/** How many subfolders of `dir` hold a `tool.json` and a `hook.json` (looking at most `MAX_SCANNED_FOLDER_ENTRIES`). */
async function subfolderKinds(dir: string): Promise<{ tools: number; hooks: number }> {
  const found = { tools: 0, hooks: 0 };
  let seen = 0;
  const folder = await opendir(dir);
  try {
    for await (const entry of folder as AsyncIterable<Dirent>) {
      if (++seen > MAX_SCANNED_FOLDER_ENTRIES) break;
      if (!entry.isDirectory()) continue;
      if (existsSync(join(dir, entry.name, "tool.json"))) found.tools++;
      if (existsSync(join(dir, entry.name, "hook.json"))) found.hooks++;
    }
  } finally {
    await folder.close().catch(() => undefined);
  }
  return found;
}

/**
 * `raw validate tools` where `tools` is a folder of tool (or hook) folders: the `folder_unrecognized` issue of that
 * path gets a hint naming the command line that validates each one (`raw validate tools/*\/`). Other reports are
 * returned unchanged; the run still fails (exit 1).
 */
export async function suggestFolderGlob(
  reports: FileReport[],
  input: string,
  cwd: string,
): Promise<FileReport[]> {
  const issue =
    reports.length === 1 ? reports[0]?.issues.find((i) => i.code === "folder_unrecognized") : undefined;
  if (issue === undefined || issue.hint !== undefined) return reports;
  const dir = resolve(cwd, input);
  try {
    if (!(await stat(dir)).isDirectory()) return reports;
    const { tools, hooks } = await subfolderKinds(dir);
    if (tools + hooks === 0) return reports;
    const kinds = tools > 0 && hooks > 0 ? "tool and hook" : tools > 0 ? "tool" : "hook";
    const glob = `${input.replace(/\/+$/, "")}/*/`;
    issue.hint = `it is a folder of ${kinds} folders: validate each one with raw validate ${glob}`;
  } catch {
    // The folder cannot be read: the report says what it says.
  }
  return reports;
}
