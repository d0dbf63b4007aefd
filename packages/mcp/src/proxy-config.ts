import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { MAX_PANELS_PER_TOOL, type PanelDeclaration, parsePanelDeclaration } from "@raw/panel";
import { ContractError } from "@raw/schema";
import { parseRules, type ToolRule } from "@raw/tool-api";
import { isValidMcpToolName } from "./names.js";

/** The stable code of a proxy config that is not one (a field of the wrong type, an unknown key, a bad tool name). */
export const MCP_CONFIG_INVALID = "mcp_config_invalid";

/** Most panel declarations a proxy config holds (over all of its tools). */
export const MAX_MCP_CONFIG_PANELS = 256;

/** Most hook folders a proxy config names. */
export const MAX_MCP_CONFIG_HOOKS = 64;

/** The keys a proxy config may hold. */
const KEYS = new Set(["$schema", "panels", "rules", "hooks"]);

/** One problem of a proxy config: a stable code, a message, and the JSON pointer of the field. */
export interface McpConfigIssue {
  readonly code: string;
  readonly message: string;
  readonly path: string;
}

/** A valid proxy config (amendment A11 "panels from config"). */
export interface McpProxyConfig {
  /** The upstream server's panels, normalized, by the MCP tool name they belong to. */
  readonly panels: ReadonlyMap<string, readonly PanelDeclaration[]>;
  /** The rules, as written (parsed by the caller with `parseRules` of `@raw/tool-api`); undefined when absent. */
  readonly rules: unknown;
  /** Hook folders or bundled hook names, as written (a caller resolves paths against the config's folder). */
  readonly hooks: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Validates a proxy config (`raw mcp proxy --config <file>`): `{ panels?, rules?, hooks? }`. Each entry of `panels`
 * names its MCP `tool` (a valid MCP tool name) and is otherwise a panel declaration, validated exactly as a
 * `tool.json`'s (`parsePanelDeclaration`: `panel_invalid` at `/panels/<i>/...`); at most `MAX_PANELS_PER_TOOL` per
 * tool with distinct ids, at most `MAX_MCP_CONFIG_PANELS` in all. Every other problem is `mcp_config_invalid` at the
 * field. Reports every issue; never throws.
 */
export function parseMcpProxyConfig(
  value: unknown,
): { ok: true; config: McpProxyConfig } | { ok: false; issues: McpConfigIssue[] } {
  const issues: McpConfigIssue[] = [];
  const fail = (path: string, message: string) => issues.push({ code: MCP_CONFIG_INVALID, message, path });
  if (!isRecord(value)) {
    fail("", "a proxy config is a JSON object: { panels?, rules?, hooks? }");
    return { ok: false, issues };
  }
  for (const key of Object.keys(value)) {
    if (!KEYS.has(key))
      fail(`/${key}`, `unknown key "${key}" (a proxy config holds panels, rules and hooks)`);
  }
  const panels = new Map<string, PanelDeclaration[]>();
  const rawPanels = value.panels;
  if (rawPanels !== undefined) {
    if (!Array.isArray(rawPanels) || rawPanels.length > MAX_MCP_CONFIG_PANELS) {
      fail("/panels", `panels must be an array of at most ${MAX_MCP_CONFIG_PANELS} declarations`);
    } else {
      rawPanels.forEach((entry: unknown, i) => {
        const pointer = `/panels/${i}`;
        if (!isRecord(entry)) {
          fail(pointer, "a panel is an object naming its MCP tool");
          return;
        }
        const { tool, ...declaration } = entry;
        if (typeof tool !== "string" || !isValidMcpToolName(tool)) {
          fail(
            `${pointer}/tool`,
            "tool must name the MCP tool the panel belongs to (A-Z a-z 0-9 . _ -, at most 128)",
          );
          return;
        }
        const parsed = parsePanelDeclaration(declaration, { pointer });
        if (!parsed.ok) {
          for (const issue of parsed.issues)
            issues.push({ code: issue.code, message: issue.message, path: issue.path ?? pointer });
          return;
        }
        const list = panels.get(tool) ?? [];
        if (list.some((d) => d.id === parsed.declaration.id)) {
          fail(`${pointer}/id`, `duplicate panel id "${parsed.declaration.id}" for tool ${tool}`);
          return;
        }
        if (list.length >= MAX_PANELS_PER_TOOL) {
          fail(pointer, `at most ${MAX_PANELS_PER_TOOL} panels per tool (${tool})`);
          return;
        }
        list.push(parsed.declaration);
        panels.set(tool, list);
      });
    }
  }
  const rawHooks = value.hooks;
  const hooks: string[] = [];
  if (rawHooks !== undefined) {
    if (!Array.isArray(rawHooks) || rawHooks.length > MAX_MCP_CONFIG_HOOKS) {
      fail("/hooks", `hooks must be an array of at most ${MAX_MCP_CONFIG_HOOKS} hook folders`);
    } else {
      rawHooks.forEach((hook: unknown, i) => {
        if (typeof hook !== "string" || hook === "")
          fail(`/hooks/${i}`, "a hook is a folder path or a bundled name");
        else hooks.push(hook);
      });
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, config: { panels, rules: value.rules, hooks } };
}

/** Largest proxy config file read, in bytes; a larger one is `mcp_config_invalid` unread. */
export const MAX_MCP_CONFIG_BYTES = 1024 * 1024;

/** A proxy config file, loaded: its panels, its rules parsed, its hook folders resolved against its folder. */
export interface LoadedMcpProxyConfig {
  readonly file: string;
  readonly panels: ReadonlyMap<string, readonly PanelDeclaration[]>;
  /** The rules parsed with `parseRules`; undefined when the file has none. */
  readonly rules: readonly ToolRule[] | undefined;
  /** Hook folders (a relative path that exists next to the config is resolved there) and bundled hook names. */
  readonly hooks: readonly string[];
}

/**
 * Reads and validates a proxy config file (`raw mcp proxy --config <file>`). Throws a `ContractError` whose issues
 * name the file and the field (`mcp_config_invalid`, `panel_invalid`, the rules' own codes at `/rules/...`): a file
 * that cannot be read, is larger than `MAX_MCP_CONFIG_BYTES`, is not JSON, or fails `parseMcpProxyConfig`.
 */
export async function loadMcpProxyConfig(path: string): Promise<LoadedMcpProxyConfig> {
  const fail = (issues: McpConfigIssue[]): never => {
    throw ContractError.fromIssues(
      issues.map((issue) => ({
        ...issue,
        message: `${path}${issue.path === "" ? "" : ` ${issue.path}`}: ${issue.message}`,
      })),
    );
  };
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_MCP_CONFIG_BYTES)
      return fail([
        { code: MCP_CONFIG_INVALID, message: `larger than ${MAX_MCP_CONFIG_BYTES} bytes`, path: "" },
      ]);
    text = bytes.toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    return fail([{ code: MCP_CONFIG_INVALID, message: `cannot be read (${code})`, path: "" }]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail([{ code: MCP_CONFIG_INVALID, message: `not JSON: ${(error as Error).message}`, path: "" }]);
  }
  const parsed = parseMcpProxyConfig(value);
  if (!parsed.ok) return fail(parsed.issues);
  let rules: readonly ToolRule[] | undefined;
  if (parsed.config.rules !== undefined) {
    const checked = parseRules(parsed.config.rules);
    if (!checked.ok) {
      return fail(
        checked.issues.map((issue) => ({
          code: issue.code,
          message: issue.message,
          path: `/rules${issue.path ?? ""}`,
        })),
      );
    }
    rules = checked.rules;
  }
  const folder = dirname(resolve(path));
  const hooks = parsed.config.hooks.map((hook) => {
    const near = isAbsolute(hook) ? hook : resolve(folder, hook);
    return existsSync(near) ? near : hook;
  });
  return { file: path, panels: parsed.config.panels, rules, hooks };
}
