import { basename, resolve } from "node:path";
import { type LoadedHook, validateHookFolder } from "@raw/hook-protocol";
import { DEFAULT_RULES_LABEL, type TracedRule } from "@raw/host";
import { parseRules, type ToolRule } from "@raw/tool-api";
import type { SourcePosition } from "@raw/validate";
import { displayPath, type FileReport, hookReport, locate, placeIssue, readJsonFile } from "@raw/validate";
import { hookFolder, realFolder } from "./bundled.js";

/** A parsed rules file: the rules, the raw JSON (to show a rule as written) and where each rule starts. */
export interface RulesInput {
  file: string;
  rules: readonly ToolRule[];
  raw: unknown;
  positionOf(pointer: string): SourcePosition;
  /** Rules before the file's own (the session's defaults, A10): rule `i < defaults.length` is `defaults[i]`. */
  defaults?: readonly unknown[];
}

/**
 * The rules a session runs (amendment A10, `sessionRules` of `@raw/host`) as a rules input for traces: the
 * session's defaults first (`DEFAULT_RULES`, then an `ask` per loaded tool with an effects schema), then the user's
 * rules file, whose rules decide wherever they apply.
 */
export function withDefaultRules(user: RulesInput | undefined, defaults: readonly unknown[]): RulesInput {
  const parsed = parseRules(defaults);
  if (!parsed.ok) throw new Error("the default rules are invalid");
  return {
    file: user?.file ?? DEFAULT_RULES_LABEL,
    rules: [...parsed.rules, ...(user?.rules ?? [])],
    raw: user?.raw ?? [],
    positionOf: (pointer) => user?.positionOf(pointer) ?? { line: 1, column: 1 },
    defaults,
  };
}

/** Reads and parses a rules file; a bad file yields its validation report (JSON syntax, `rule_invalid`, ...). */
export async function loadRulesFile(
  path: string,
  cwd: string,
): Promise<{ ok: true; input: RulesInput } | { ok: false; report: FileReport }> {
  const absolute = resolve(cwd, path);
  const file = displayPath(absolute, cwd);
  const read = await readJsonFile(absolute, file);
  if (!read.ok) {
    const issue = locate({ code: read.code, message: read.detail }, read.position);
    return { ok: false, report: { file, kind: "rules", ok: false, issues: [issue], warnings: [] } };
  }
  const parsed = parseRules(read.value);
  if (!parsed.ok) {
    const issues = parsed.issues.map((issue) => placeIssue(issue, read.source));
    return { ok: false, report: { file, kind: "rules", ok: false, issues, warnings: [] } };
  }
  return {
    ok: true,
    input: {
      file,
      rules: parsed.rules,
      raw: read.value,
      positionOf: (pointer) => read.source.positionOf(pointer),
    },
  };
}

/**
 * The rule at `index` of the rules a session runs, as written, and where it starts (`<file>:<line>:<col>`): a
 * default rule (`default rule i`) or rule `index` of the user's file, counted in that file.
 */
export function ruleAt(
  input: RulesInput | undefined,
  index: number,
): (TracedRule & { location: string }) | undefined {
  if (input === undefined) return undefined;
  const defaults = input.defaults ?? [];
  if (index < defaults.length) {
    return {
      rule: defaults[index],
      location: `${DEFAULT_RULES_LABEL}:${index + 1}:1`,
      label: `default rule ${index}`,
      index,
      defaultRule: true,
    };
  }
  const own = index - defaults.length;
  if (!Array.isArray(input.raw)) return undefined;
  const { line, column } = input.positionOf(`/${own}`);
  return {
    rule: input.raw[own],
    location: `${input.file}:${line}:${column}`,
    label: `rule ${own}`,
    index: own,
    defaultRule: false,
  };
}

/** Where a loaded `--hook` came from: its selection id, the real folder and whether it is a bundled hook. */
export interface HookSource {
  id: string;
  folder: string;
  bundled: boolean;
}

/**
 * Loads the `--hook` folders in order with the selection ids `local/<folder name>` (hooks.md §2): a bundled hook by
 * its name, any other folder by its path (`hookFolder`). A folder that does not load yields its validation report.
 */
export async function loadHookFolders(
  values: readonly string[],
  cwd: string,
): Promise<{ ok: true; hooks: LoadedHook[]; sources: HookSource[] } | { ok: false; reports: FileReport[] }> {
  const hooks: LoadedHook[] = [];
  const sources: HookSource[] = [];
  const reports: FileReport[] = [];
  for (const value of values) {
    const { dir, bundled } = hookFolder(value, cwd);
    const id = `local/${basename(dir)}`;
    // Loaded once: a folder that does not load yields its report from the same issues.
    const result = await validateHookFolder(dir, { id, path: false });
    if (result.ok) {
      hooks.push(result.hook);
      sources.push({ id, folder: realFolder(dir), bundled });
    } else reports.push(await hookReport(dir, cwd, result.issues));
  }
  return reports.length > 0 ? { ok: false, reports } : { ok: true, hooks, sources };
}
