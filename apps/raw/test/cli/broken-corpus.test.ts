import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtures, raw } from "./helpers.js";

/** The corpus of broken folders and files; `raw validate` runs with this folder as its working directory. */
const corpus = join(fixtures, "broken");

/** One planted mistake: where `raw validate` must report it, and what it must say. */
interface Planted {
  file: string;
  code: string;
  line: number;
  column: number;
  /** The message, or a pattern it must match (messages of other packages may be reworded). */
  message: string | RegExp;
  /** The hint: exact text, a pattern, or `null` when the issue has none. */
  hint: string | RegExp | null;
  warning?: true;
}

interface Case {
  name: string;
  args: string[];
  planted: Planted[];
}

const TRAILING_COMMA = "remove the trailing comma: JSON allows no comma before a closing } or ]";
const BOM = "remove the UTF-8 byte-order mark (U+FEFF) at the start of the file";
const unique = (what: string, other: string) =>
  `${what} is also declared at ${other}: the folders of one run load together, so each must be unique`;

const CASES: Case[] = [
  {
    // One tool folder (with a hook and a rules file beside it) holding a dozen realistic mistakes: all in one run.
    name: "ten-mistakes",
    args: ["ten-mistakes", "ten-mistakes/rules.json"],
    planted: [
      {
        file: "ten-mistakes/tool.json",
        code: "manifest_unknown_field",
        line: 16,
        column: 3,
        message: 'unknown field "condition_source"',
        hint: "did you mean `condition_sources`?",
      },
      {
        file: "ten-mistakes/tool.json",
        code: "manifest_invalid_version",
        line: 4,
        column: 3,
        message: "version must be major.minor.patch without leading zeros",
        hint: null,
      },
      {
        // The union type `["boolean", "string"]` of /input_schema/properties/exact/type, at its keyword.
        file: "ten-mistakes/tool.json",
        code: "schema_unsupported",
        line: 11,
        column: 18,
        message: /union type keyword at "#\/properties\/exact"/,
        hint: 'write "anyOf": [{ "type": "boolean" }, { "type": "string" }] instead; a "type" list is accepted only as one type paired with "null", such as ["string", "null"]',
      },
      {
        // The schema keyword typo `requried`, at the keyword itself.
        file: "ten-mistakes/tool.json",
        code: "schema_unsupported",
        line: 13,
        column: 5,
        message: /unknown keyword: "requried"/,
        hint: 'did you mean "required"?',
      },
      {
        file: "ten-mistakes/tool.json",
        code: "panel_invalid",
        line: 18,
        column: 7,
        message: "/panels/0/id: must match ^[a-z][a-z0-9_-]{0,31}$",
        hint: null,
      },
      {
        file: "ten-mistakes/tool.json",
        code: "panel_invalid",
        line: 18,
        column: 24,
        message: "/panels/0/title: must not be empty",
        hint: null,
      },
      {
        file: "ten-mistakes/tool.json",
        code: "panel_invalid",
        line: 18,
        column: 37,
        message: "/panels/0/placement: must be one of chat, sidebar",
        hint: null,
      },
      {
        // Checked although the manifest has other issues: the entry itself is valid and present.
        file: "ten-mistakes/tool.json",
        code: "handler_invalid",
        line: 15,
        column: 3,
        message: "invalid selected tool handler or validator: ten-mistakes",
        hint: "./index.mjs has no export `handler` (it has a default export: export the function by name, `export async function handler`)",
      },
      {
        file: "ten-mistakes/hook.json",
        code: "hook_event_invalid",
        line: 5,
        column: 7,
        message: "invalid hook event: ten-mistakes.events[0]",
        hint: "did you mean `PreToolUse`? the events are SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, Stop, SessionEnd.",
      },
      {
        file: "ten-mistakes/hook.json",
        code: "hook_event_invalid",
        line: 6,
        column: 30,
        message: "unknown ten-mistakes.events[1] field: matcher",
        hint: "did you mean `match`?",
      },
      {
        file: "ten-mistakes/hook.json",
        code: "hook_invalid_timeout",
        line: 9,
        column: 3,
        message: "invalid hook timeout_ms: ten-mistakes",
        hint: "timeout_ms must be an integer from 1 to 600000 (milliseconds).",
      },
      {
        file: "ten-mistakes/hook.json",
        code: "hook_command_not_found",
        line: 8,
        column: 3,
        message: "hook command not found on PATH: raw-fixture-notes-linter",
        hint: "install raw-fixture-notes-linter where the hook runs, or ship it in the hook folder and write it as ./raw-fixture-notes-linter",
        warning: true,
      },
      {
        // At the comma itself, not at the `]` after it.
        file: "ten-mistakes/rules.json",
        code: "json_invalid",
        line: 3,
        column: 36,
        message: "Unexpected token ']'",
        hint: TRAILING_COMMA,
      },
    ],
  },
  {
    name: "tools",
    args: ["tools/entry-syntax", "tools/bom", "tools/handler-string"],
    planted: [
      {
        // The entry's own file, line and column: the `;` where the `}` of the result object is missing.
        file: "tools/entry-syntax/index.mjs",
        code: "entry_load_failed",
        line: 5,
        column: 3,
        message: "selected tool entry failed to load: entry-syntax: Unexpected token ';'",
        hint: null,
      },
      {
        file: "tools/bom/tool.json",
        code: "manifest_json_invalid",
        line: 1,
        column: 1,
        message:
          "invalid selected tool manifest bom: JSON text must not start with a UTF-8 byte-order mark (U+FEFF)",
        hint: BOM,
      },
      {
        // The export's actual type, as the child process saw it.
        file: "tools/handler-string/tool.json",
        code: "handler_invalid",
        line: 8,
        column: 3,
        message: "invalid selected tool handler or validator: handler-string",
        hint: "export `handler` is a string: it must be a function",
      },
    ],
  },
  {
    name: "duplicates",
    args: ["dup/one/search", "dup/two/search", "dup/one/guard", "dup/two/guard"],
    planted: [
      {
        file: "dup/one/search/tool.json",
        code: "tool_name_duplicate",
        line: 5,
        column: 3,
        message: "duplicate tool name: search",
        hint: unique('tool name "search"', "dup/two/search/tool.json:5:3"),
      },
      {
        file: "dup/one/search/tool.json",
        code: "tool_id_duplicate",
        line: 3,
        column: 3,
        message: "duplicate tool id: search",
        hint: unique('tool id "search"', "dup/two/search/tool.json:3:3"),
      },
      {
        file: "dup/two/search/tool.json",
        code: "tool_name_duplicate",
        line: 5,
        column: 3,
        message: "duplicate tool name: search",
        hint: unique('tool name "search"', "dup/one/search/tool.json:5:3"),
      },
      {
        file: "dup/two/search/tool.json",
        code: "tool_id_duplicate",
        line: 3,
        column: 3,
        message: "duplicate tool id: search",
        hint: unique('tool id "search"', "dup/one/search/tool.json:3:3"),
      },
      {
        file: "dup/one/guard/hook.json",
        code: "hook_selection_duplicate",
        line: 3,
        column: 3,
        message: "duplicate selected hook: guard",
        hint: unique('hook name "guard"', "dup/two/guard/hook.json:3:3"),
      },
      {
        file: "dup/two/guard/hook.json",
        code: "hook_selection_duplicate",
        line: 3,
        column: 3,
        message: "duplicate selected hook: guard",
        hint: unique('hook name "guard"', "dup/one/guard/hook.json:3:3"),
      },
    ],
  },
  {
    name: "documents",
    args: ["hooks/trailing-comma", "rules/unknown-field-rules.json", "panels/bad-panel.json"],
    planted: [
      {
        file: "hooks/trailing-comma/hook.json",
        code: "hook_manifest_json_invalid",
        line: 5,
        column: 18,
        message: "invalid hook manifest JSON: trailing-comma",
        hint: TRAILING_COMMA,
      },
      {
        file: "rules/unknown-field-rules.json",
        code: "rule_invalid",
        line: 2,
        column: 30,
        message: "unknown rule field: efect",
        hint: "did you mean `effect`?",
      },
      {
        file: "rules/unknown-field-rules.json",
        code: "rule_invalid",
        line: 2,
        column: 3,
        message: "effect must be allow, ask or deny",
        hint: null,
      },
      {
        file: "rules/unknown-field-rules.json",
        code: "rule_invalid",
        line: 3,
        column: 27,
        message: "conditional effect must be ask",
        hint: null,
      },
      {
        file: "rules/unknown-field-rules.json",
        code: "predicate_invalid",
        line: 3,
        column: 79,
        message: "invalid when.any path: /command",
        hint: null,
      },
      {
        file: "rules/unknown-field-rules.json",
        code: "predicate_invalid",
        line: 3,
        column: 98,
        message: /^invalid RE2 when\.regex: /,
        hint: null,
      },
      {
        // Panel documents report their first failure (panels.md §1).
        file: "panels/bad-panel.json",
        code: "panel_invalid",
        line: 3,
        column: 3,
        message: "/status: must be one of idle, active, done, failed",
        hint: null,
      },
    ],
  },
];

interface JsonIssue {
  code: string;
  message: string;
  pointer: string | null;
  line: number;
  column: number;
  hint?: string;
  file?: string;
}

interface JsonReport {
  ok: boolean;
  files: Array<{ file: string; ok: boolean; issues: JsonIssue[]; warnings: JsonIssue[] }>;
}

/** Every issue and warning of a JSON report, with the file its line and column are in. */
function reported(body: JsonReport): Array<JsonIssue & { file: string; warning: boolean }> {
  return body.files.flatMap((report) => [
    ...report.issues.map((issue) => ({ ...issue, file: issue.file ?? report.file, warning: false })),
    ...report.warnings.map((issue) => ({ ...issue, file: issue.file ?? report.file, warning: true })),
  ]);
}

function matches(actual: string | undefined, expected: string | RegExp | null): boolean {
  if (expected === null) return actual === undefined;
  return typeof expected === "string" ? actual === expected : expected.test(actual ?? "");
}

describe("raw validate on the corpus of broken folders (fixtures/broken)", () => {
  describe.each(CASES)("$name", ({ name, args, planted }) => {
    const runs = {
      text: raw(["validate", ...args], { cwd: corpus }),
      json: raw(["validate", ...args, "--format", "json"], { cwd: corpus }),
      github: raw(["validate", ...args, "--format", "github"], { cwd: corpus }),
    };

    it("reports every planted mistake in one run, at its line and column, with its hint (json)", () => {
      expect(runs.json.status).toBe(1);
      expect(runs.json.stderr).toBe("");
      const found = reported(JSON.parse(runs.json.stdout) as JsonReport);
      for (const mistake of planted) {
        const hit = found.find(
          (issue) =>
            issue.file === mistake.file &&
            issue.code === mistake.code &&
            issue.line === mistake.line &&
            issue.column === mistake.column,
        );
        expect(hit, `${mistake.file}:${mistake.line}:${mistake.column} ${mistake.code}`).toBeDefined();
        expect(matches(hit?.message, mistake.message), `message of ${mistake.code}: ${hit?.message}`).toBe(
          true,
        );
        expect(matches(hit?.hint, mistake.hint), `hint of ${mistake.code}: ${hit?.hint}`).toBe(true);
        expect(hit?.warning).toBe(mistake.warning === true);
      }
      // Nothing reported that was not planted.
      expect(found).toHaveLength(planted.length);
    });

    it("prints each planted mistake as a file:line:col line with its hint (text and github)", () => {
      expect(runs.text.status).toBe(1);
      expect(runs.github.status).toBe(1);
      for (const mistake of planted) {
        const at = `${mistake.file}:${mistake.line}:${mistake.column}  ${mistake.code}  `;
        const line = runs.text.stdout.split("\n").findIndex((text) => text.startsWith(at));
        expect(line, at).toBeGreaterThanOrEqual(0);
        const next = runs.text.stdout.split("\n")[line + 1] ?? "";
        if (mistake.hint === null) expect(next.startsWith("    hint: ")).toBe(false);
        else expect(next.startsWith("    hint: ")).toBe(true);
        const annotation = `::${mistake.warning ? "warning" : "error"} file=${mistake.file},line=${mistake.line},col=${mistake.column},title=${mistake.code}::`;
        expect(runs.github.stdout).toContain(annotation);
      }
    });

    it("matches the golden outputs in all three formats", async () => {
      const golden = join(corpus, "golden");
      await expect(runs.text.stdout).toMatchFileSnapshot(join(golden, `${name}.txt`));
      await expect(runs.json.stdout).toMatchFileSnapshot(join(golden, `${name}.json`));
      await expect(runs.github.stdout).toMatchFileSnapshot(join(golden, `${name}.github.txt`));
    });
  });

  it("puts all the mistakes of the corpus in one run as well", () => {
    const all = raw(["validate", ...CASES.flatMap((c) => c.args), "--format", "json"], { cwd: corpus });
    expect(all.status).toBe(1);
    const found = reported(JSON.parse(all.stdout) as JsonReport);
    expect(found).toHaveLength(CASES.reduce((n, c) => n + c.planted.length, 0));
  });
});
