import type { LoadedHook } from "@raw/hook-protocol";
import type { LoadedTool } from "@raw/tool-api";
import { type FileReport, formatText } from "@raw/validate";
import { type ParsedArgs, stringOption, stringsOption } from "./args.js";
import { loadTools } from "./bundled.js";
import { type HookSource, loadHookFolders, loadRulesFile, type RulesInput } from "./inputs.js";
import type { CliIo } from "./io.js";

/** What a command runs with: the `--rules` file, the `--tool` folders and the `--hook` folders, as given. */
export interface WorkspaceRequest {
  /** The rules file (`--rules`), if any. */
  rules?: string | undefined;
  /** The `--tool` folders loaded beside the bundled tools; `false` loads no tools at all (`raw mcp proxy`). */
  tools?: readonly string[] | false;
  /** The `--hook` values (folders by path, bundled hooks by name). */
  hooks?: readonly string[];
  /** The folder the paths are relative to. */
  cwd: string;
}

/** The request of a command that takes `--rules`, `--tool` and `--hook` from its command line, relative to `cwd`. */
export function workspaceRequest(args: ParsedArgs, cwd: string): WorkspaceRequest {
  return {
    rules: stringOption(args, "rules"),
    tools: stringsOption(args, "tool"),
    hooks: stringsOption(args, "hook"),
    cwd,
  };
}

/** The loaded rules (undefined without `--rules`), tools (bundled and `--tool`) and hooks, with where each hook came from. */
export interface Workspace {
  rules: RulesInput | undefined;
  tools: LoadedTool[];
  hooks: LoadedHook[];
  hookSources: HookSource[];
}

/**
 * Loads the rules, tools and hooks of `raw call`, `raw serve`, `raw mcp serve|proxy` and `raw demo` the same way:
 * the rules file is parsed, every tool manifest validated before any entry is imported (`loadTools`), each hook
 * folder loaded (`loadHookFolders`). Every input that does not load is reported in one run (the validation reports
 * of `raw validate`, on standard error) and the result is `undefined`: the command then exits 1 without running
 * anything.
 */
export async function loadWorkspace(request: WorkspaceRequest, io: CliIo): Promise<Workspace | undefined> {
  const reports: FileReport[] = [];
  let rules: RulesInput | undefined;
  if (request.rules !== undefined) {
    const loaded = await loadRulesFile(request.rules, request.cwd);
    if (loaded.ok) rules = loaded.input;
    else reports.push(loaded.report);
  }
  const hooks = await loadHookFolders(request.hooks ?? [], request.cwd);
  if (!hooks.ok) reports.push(...hooks.reports);
  let tools: LoadedTool[] = [];
  if (request.tools !== false) {
    const loaded = await loadTools(request.tools ?? [], request.cwd);
    if (loaded.ok) tools = loaded.tools;
    else reports.push(...loaded.reports);
  }
  if (reports.length > 0 || !hooks.ok) {
    io.stderr.write(formatText(reports));
    return undefined;
  }
  return { rules, tools, hooks: hooks.hooks, hookSources: hooks.sources };
}
