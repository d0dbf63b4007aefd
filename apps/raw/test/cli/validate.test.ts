import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundledToolFolders } from "@raw/tools";
import { describe, expect, it } from "vitest";
import { appRoot, fixtures, lines, raw, tempDir } from "./helpers.js";

const corpus = join(fixtures, "validate");

type Expected = [
  code: string,
  pointer: string | null,
  line: number,
  column: number,
  message: string | RegExp,
];

/** The broken corpus: every file, every issue, in the order `raw validate` reports them. */
const BROKEN: ReadonlyArray<{ input: string; file: string; kind: string; issues: Expected[] }> = [
  {
    input: "tools/bad-fields",
    file: "tools/bad-fields/tool.json",
    kind: "tool",
    issues: [
      ["manifest_unknown_field", "/extra", 10, 3, 'unknown field "extra"'],
      [
        "manifest_api_version_unsupported",
        "/api_version",
        2,
        3,
        "api_version must be the number 2 (raw.tool-api/2)",
      ],
      [
        "manifest_invalid_version",
        "/version",
        4,
        3,
        "version must be major.minor.patch without leading zeros",
      ],
      ["manifest_invalid_name", "/name", 5, 3, "name must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$"],
      [
        "manifest_invalid_description",
        "/description",
        6,
        3,
        "description must be a non-empty string of at most 8192 bytes",
      ],
      [
        "manifest_invalid_entry",
        "/entry",
        8,
        3,
        "entry must be a ./ relative path ending in .mjs, .js or .cjs",
      ],
      [
        "manifest_invalid_condition_sources",
        "/condition_sources",
        9,
        3,
        "condition_sources must hold 1 or 2 distinct values from arguments, effects",
      ],
    ],
  },
  {
    input: "tools/bad-json",
    file: "tools/bad-json/tool.json",
    kind: "tool",
    // The parser's own words vary between Node versions; the position does not.
    issues: [["manifest_json_invalid", "", 4, 22, /^invalid selected tool manifest bad-json: .+/]],
  },
  {
    input: "tools/bad-panels",
    file: "tools/bad-panels/tool.json",
    kind: "tool",
    issues: [
      ["panel_invalid", "/panels/0/id", 10, 7, "/panels/0/id: must match ^[a-z][a-z0-9_-]{0,31}$"],
      ["panel_invalid", "/panels/1/title", 11, 20, "/panels/1/title: must not be empty"],
    ],
  },
  {
    input: "tools/missing-entry",
    file: "tools/missing-entry/tool.json",
    kind: "tool",
    issues: [["entry_missing", "/entry", 8, 3, "selected tool files are missing: missing-entry"]],
  },
  {
    input: "tools/no-handler/tool.json",
    file: "tools/no-handler/tool.json",
    kind: "tool",
    issues: [["handler_invalid", "/entry", 8, 3, "invalid selected tool handler or validator: no-handler"]],
  },
  {
    input: "tools/remote-ref/",
    file: "tools/remote-ref/tool.json",
    kind: "tool",
    issues: [
      [
        "schema_remote_ref",
        "/input_schema/properties/item/$ref",
        10,
        17,
        'remote tool schema reference is unsupported: "https://example.com/item.schema.json"; use a local reference such as "#/$defs/<name>" and put shared definitions under $defs',
      ],
    ],
  },
  {
    input: "hooks/bad-hook",
    file: "hooks/bad-hook/hook.json",
    kind: "hook",
    issues: [
      ["hook_manifest_unknown_field", "/color", 10, 3, "unknown hook bad-hook field: color"],
      [
        "hook_protocol_version_unsupported",
        "/protocol_version",
        2,
        3,
        "hook bad-hook requires protocol_version 2",
      ],
      ["predicate_invalid", "/events/0/when/source", 5, 54, "when.source must be arguments or effects"],
      ["hook_event_invalid", "/events/1", 6, 5, "bad-hook.events[1] match/when requires a tool event"],
      ["hook_invalid_command", "/command", 8, 3, "invalid hook command: bad-hook"],
      ["hook_invalid_timeout", "/timeout_ms", 9, 3, "invalid hook timeout_ms: bad-hook"],
    ],
  },
  {
    input: "hooks/bad-json",
    file: "hooks/bad-json/hook.json",
    kind: "hook",
    issues: [["hook_manifest_json_invalid", "", 4, 3, "invalid hook manifest JSON: bad-json"]],
  },
  {
    input: "other/bad-rules.json",
    file: "other/bad-rules.json",
    kind: "rules",
    issues: [
      ["rule_invalid", "/1/match", 3, 5, "match must be a non-empty glob of at most 256 bytes"],
      ["rule_invalid", "/2/effect", 6, 5, "conditional effect must be ask"],
      ["rule_invalid", "/3/why", 9, 46, "unknown rule field: why"],
      ["rule_invalid", "/3/effect", 9, 27, "effect must be allow, ask or deny"],
      ["rule_invalid", "/4", 10, 3, "rule must be an object"],
    ],
  },
  {
    input: "other/broken-rules.json",
    file: "other/broken-rules.json",
    kind: "rules",
    issues: [["json_invalid", null, 3, 3, /.+/]],
  },
  {
    input: "other/bad-panel.json",
    file: "other/bad-panel.json",
    kind: "panel-document",
    issues: [
      ["panel_invalid", "/blocks/0/items/0/label", 7, 31, "/blocks/0/items/0/label: must not be empty"],
    ],
  },
  {
    input: "other/bad-cases.json",
    file: "other/bad-cases.json",
    kind: "cases",
    issues: [
      ["schema_violation", "", 1, 1, "must NOT have additional properties"],
      ["schema_violation", "/cases/0/expect", 3, 35, "must be equal to one of the allowed values"],
      ["schema_violation", "/cases/1", 4, 5, "must have required property 'identity'"],
    ],
  },
  {
    input: "other/mystery.json",
    file: "other/mystery.json",
    kind: "unknown",
    issues: [["document_unrecognized", null, 1, 1, /^cannot tell what this file holds/]],
  },
];

function matchesMessage(actual: string, expected: string | RegExp): boolean {
  return typeof expected === "string" ? actual === expected : expected.test(actual);
}

describe("raw validate on the bundled examples", () => {
  it("passes every bundled tool (the folders of @raw/tools), hook and the demo's rules file (exit 0)", () => {
    // Outside the working directory, so shown as absolute paths.
    const tools = bundledToolFolders().map((folder) => `${folder.dir}/`);
    const hooks = readdirSync(join(appRoot, "hooks")).map((name) => `hooks/${name}/`);
    const run = raw(["validate", ...tools, ...hooks, "examples/rules.json", "examples/cases.json"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const count = tools.length + hooks.length + 2;
    expect(lines(run.stdout).at(-1)).toBe(`${count} passed, 0 failed`);
    for (const path of tools) expect(lines(run.stdout)).toContain(`${path}tool.json  ok`);
    for (const path of hooks) expect(lines(run.stdout)).toContain(`${path}hook.json  ok`);
  });
});

describe("raw validate on the broken corpus", () => {
  const inputs = BROKEN.map((entry) => entry.input);

  it("--format json reports every file, every issue with code, message, pointer, line and column (exit 1)", () => {
    const run = raw(["validate", ...inputs, "--format", "json"], { cwd: corpus });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("");
    const body = JSON.parse(run.stdout) as {
      ok: boolean;
      summary: { passed: number; failed: number };
      files: Array<{
        file: string;
        kind: string;
        ok: boolean;
        issues: Array<Record<string, unknown>>;
        warnings: [];
      }>;
    };
    expect(body.ok).toBe(false);
    expect(body.summary).toEqual({ passed: 0, failed: BROKEN.length });
    expect(body.files.map((f) => f.file)).toEqual(BROKEN.map((entry) => entry.file));
    BROKEN.forEach((entry, i) => {
      const file = body.files[i];
      expect(file?.kind).toBe(entry.kind);
      expect(file?.ok).toBe(false);
      expect(file?.warnings).toEqual([]);
      // A hint (guidance beside the contract text) may follow; it is asserted in hints.test.ts.
      expect(file?.issues.map((issue) => Object.keys(issue).filter((key) => key !== "hint"))).toEqual(
        entry.issues.map(() => ["code", "message", "pointer", "line", "column"]),
      );
      expect(file?.issues.map((issue) => [issue.code, issue.pointer, issue.line, issue.column])).toEqual(
        entry.issues.map(([code, pointer, line, column]) => [code, pointer, line, column]),
      );
      entry.issues.forEach(([, , , , message], j) => {
        expect(matchesMessage(String(file?.issues[j]?.message), message), `${entry.file} issue ${j}`).toBe(
          true,
        );
      });
    });
  });

  it("--format text prints file:line:col  code  message lines grouped per file and the summary", () => {
    const run = raw(["validate", ...inputs], { cwd: corpus });
    expect(run.status).toBe(1);
    // Hint lines (indented under their issue) are asserted in hints.test.ts.
    const out = lines(run.stdout).filter((line) => !line.startsWith("    hint: "));
    expect(out.at(-1)).toBe(`0 passed, ${BROKEN.length} failed`);
    for (const entry of BROKEN) {
      const header = out.indexOf(
        `${entry.file}  failed (${entry.issues.length} error${entry.issues.length === 1 ? "" : "s"})`,
      );
      expect(header, entry.file).toBeGreaterThanOrEqual(0);
      entry.issues.forEach(([code, , line, column, message], j) => {
        const text = out[header + 1 + j] ?? "";
        const prefix = `${entry.file}:${line}:${column}  ${code}  `;
        expect(text.startsWith(prefix), text).toBe(true);
        expect(matchesMessage(text.slice(prefix.length), message), text).toBe(true);
      });
      expect(out[header + 1 + entry.issues.length]).toBe("");
    }
  });

  it("--format github prints one ::error workflow annotation per issue and the summary", () => {
    const run = raw(["validate", ...inputs, "--format", "github"], { cwd: corpus });
    expect(run.status).toBe(1);
    const out = lines(run.stdout);
    const expected = BROKEN.flatMap((entry) => entry.issues.map((issue) => [entry.file, issue] as const));
    expect(out).toHaveLength(expected.length + 1);
    expected.forEach(([file, [code, , line, column, message]], i) => {
      const prefix = `::error file=${file},line=${line},col=${column},title=${code}::`;
      const text = (out[i] ?? "").replace(/%0Ahint: .*$/, "");
      expect(text.startsWith(prefix), text).toBe(true);
      expect(matchesMessage(text.slice(prefix.length), message), text).toBe(true);
    });
    expect(out.at(-1)).toBe(`0 passed, ${BROKEN.length} failed`);
  });

  it("reports warnings without failing: unknown panel icons and shadowed rules", () => {
    const json = raw(["validate", "tools/warn-icon", "other/shadowed-rules.json", "--format", "json"], {
      cwd: corpus,
    });
    expect(json.status).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body.summary).toEqual({ passed: 2, failed: 0 });
    expect(body.files[0].warnings).toEqual([
      {
        code: "panel_icon_unknown",
        message: '/panels/0: unknown icon "rocket" falls back to "panel"',
        pointer: "/panels/0/icon",
        line: 9,
        column: 47,
      },
    ]);
    expect(body.files[1].warnings).toEqual([
      {
        code: "rule_shadowed",
        message: "rule 0 can never decide: later unconditional rule 1 matches every identity it matches",
        pointer: "/0",
        line: 2,
        column: 3,
      },
    ]);
    const text = raw(["validate", "other/shadowed-rules.json"], { cwd: corpus });
    expect(lines(text.stdout)).toEqual([
      "other/shadowed-rules.json  ok (1 warning)",
      "other/shadowed-rules.json:2:3  rule_shadowed  warning: rule 0 can never decide: later unconditional rule 1 matches every identity it matches",
      "",
      "1 passed, 0 failed",
    ]);
    const github = raw(["validate", "other/shadowed-rules.json", "--format", "github"], { cwd: corpus });
    expect(lines(github.stdout)).toEqual([
      "::warning file=other/shadowed-rules.json,line=2,col=3,title=rule_shadowed::rule 0 can never decide: later unconditional rule 1 matches every identity it matches",
      "1 passed, 0 failed",
    ]);
  });

  it("mixes passing and failing paths in one run and counts both", () => {
    const run = raw(["validate", join(corpus, "good", "echo"), "tools/no-handler"], { cwd: corpus });
    expect(run.status).toBe(1);
    expect(lines(run.stdout).at(-1)).toBe("1 passed, 1 failed");
    expect(run.stdout).toContain("good/echo/tool.json  ok\n");
  });
});

describe("raw validate and symbolic links that escape (made at test time)", () => {
  it("reports a file inside a tool folder that links outside it", () => {
    const root = tempDir();
    cpSync(join(corpus, "good", "echo"), join(root, "echo"), { recursive: true });
    writeFileSync(join(root, "secret.txt"), "outside\n");
    symlinkSync(join(root, "secret.txt"), join(root, "echo", "secret.txt"));
    const run = raw(["validate", "echo", "--format", "json"], { cwd: root });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).files[0].issues).toEqual([
      {
        code: "file_escape",
        message: "selected tool file escapes its folder: secret.txt",
        pointer: "",
        line: 1,
        column: 1,
      },
    ]);
  });

  it("reports an entry that links outside the tool folder", () => {
    const root = tempDir();
    cpSync(join(corpus, "good", "echo"), join(root, "echo"), { recursive: true });
    cpSync(join(corpus, "good", "echo", "index.mjs"), join(root, "elsewhere.mjs"));
    rmSync(join(root, "echo", "index.mjs"));
    symlinkSync(join(root, "elsewhere.mjs"), join(root, "echo", "index.mjs"));
    const run = raw(["validate", "echo"], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      "echo/tool.json:13:3  entry_escape  selected tool entry escapes folder: echo\n",
    );
  });

  it("reports a hook asset that links outside the hook folder", () => {
    const root = tempDir();
    cpSync(join(corpus, "good", "echo-hook"), join(root, "echo-hook"), { recursive: true });
    cpSync(join(corpus, "good", "echo-hook", "index.mjs"), join(root, "elsewhere.mjs"));
    rmSync(join(root, "echo-hook", "index.mjs"));
    symlinkSync(join(root, "elsewhere.mjs"), join(root, "echo-hook", "index.mjs"));
    const run = raw(["validate", "echo-hook/", "--format", "github"], { cwd: root });
    expect(run.status).toBe(1);
    expect(lines(run.stdout)).toEqual([
      "::error file=echo-hook/hook.json,line=6,col=12,title=hook_asset_escape::hook asset escapes or is not a file: echo-hook%0Ahint: ./index.mjs must be a regular file inside the hook folder",
      "0 passed, 1 failed",
    ]);
  });

  it("reports a tool folder that is a link to a folder outside its parent", () => {
    const root = tempDir();
    cpSync(join(corpus, "good", "echo"), join(root, "real", "echo"), { recursive: true });
    mkdirSync(join(root, "tools"));
    symlinkSync(join(root, "real", "echo"), join(root, "tools", "echo"));
    const run = raw(["validate", "tools/echo", "--format", "json"], { cwd: root });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).files[0].issues[0]).toMatchObject({
      code: "folder_escape",
      message: "missing or escaping selected tool echo: folder escape",
    });
  });
});
