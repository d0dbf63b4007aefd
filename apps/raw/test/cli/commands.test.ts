import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { casesSchemaText } from "@raw/validate";
import { describe, expect, it } from "vitest";
import { appRoot, cli, fixtures, lines, tempDir } from "./helpers.js";

const repoRoot = join(appRoot, "..", "..");
const committed = (path: string) => readFileSync(join(repoRoot, path), "utf8");

describe("raw schema", () => {
  const SCHEMAS: ReadonlyArray<readonly [string, string]> = [
    ["tool", "packages/tool-api/schemas/tool.schema.json"],
    ["hook", "packages/hook-protocol/schemas/hook.schema.json"],
    ["rules", "packages/tool-api/schemas/rules.schema.json"],
    ["panel-document", "packages/panel/schemas/panel-document.schema.json"],
    ["cases", "apps/raw/schemas/cases.schema.json"],
    ["mcp-proxy-config", "packages/mcp/schemas/proxy-config.schema.json"],
  ];

  it.each(SCHEMAS)("raw schema %s prints the committed %s byte for byte", async (name, path) => {
    const run = await cli(["schema", name]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(committed(path));
  });

  it("schemas/cases.schema.json matches the schema the CLI validates cases with", async () => {
    expect(committed("apps/raw/schemas/cases.schema.json")).toBe(casesSchemaText());
  });

  it("--out writes the file", async () => {
    const dir = tempDir();
    const run = await cli(["schema", "tool", "--out", join(dir, "schemas")]);
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, "schemas", "tool.schema.json"), "utf8")).toBe(
      committed("packages/tool-api/schemas/tool.schema.json"),
    );
  });

  /** The setting's entries: every document kind raw validate checks (schema-vscode.test.ts proves each one). */
  const MAPPINGS = (url: (name: string, id: string) => string) => [
    { fileMatch: ["**/tool.json"], url: url("tool", "raw.tool-api/2/tool") },
    { fileMatch: ["**/hook.json"], url: url("hook", "raw.hook/2/hook") },
    { fileMatch: ["**/*rules*.json", "!**/*.schema.json"], url: url("rules", "raw.tool-api/2/rules") },
    {
      fileMatch: ["**/*cases*.json", "!**/*rules*.json", "!**/*.schema.json"],
      url: url("cases", "raw.cli/1/cases"),
    },
    {
      fileMatch: ["**/*panel*.json", "!**/*rules*.json", "!**/*cases*.json", "!**/*.schema.json"],
      url: url("panel-document", "raw.panel/2/panel-document"),
    },
  ];

  it("--vscode prints the json.schemas setting for every kind raw validate checks", async () => {
    const run = await cli(["schema", "--vscode"]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      "json.schemas": MAPPINGS((_, id) => `https://raw.tlelabs.com/schemas/${id}.schema.json`),
    });
  });

  it("--vscode --out writes every schema and points the setting at them", async () => {
    const cwd = tempDir();
    const run = await cli(["schema", "--vscode", "--out", ".vscode/schemas"], { cwd });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)["json.schemas"]).toEqual(
      MAPPINGS((name) => `./.vscode/schemas/${name}.schema.json`),
    );
    expect(readdirSync(join(cwd, ".vscode", "schemas")).sort()).toEqual([
      "cases.schema.json",
      "hook.schema.json",
      "panel-document.schema.json",
      "rules.schema.json",
      "tool.schema.json",
    ]);
  });

  it("an unknown name is a usage error", async () => {
    const run = await cli(["schema", "nope"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^raw: usage: unknown schema "nope"/);
  });
});

describe("raw init", () => {
  it("scaffolds a tool that validates and whose own test passes", async () => {
    const cwd = tempDir();
    const init = await cli(["init", "tool", "tools/touch"], { cwd });
    expect(init.status).toBe(0);
    expect(lines(init.stdout)).toEqual([
      "created tools/touch/tool.json",
      "created tools/touch/index.mjs",
      "created tools/touch/test.mjs",
      "next: node --test tools/touch/test.mjs && npm run raw -- validate tools/touch",
    ]);
    const validate = await cli(["validate", "tools/touch"], { cwd });
    expect(validate.stdout).toBe("tools/touch/tool.json  ok\n\n1 passed, 0 failed\n");
    expect(validate.status).toBe(0);
    // Amendment A9: the editor hint names the published schema (the committed schema's $id).
    const toolJson = JSON.parse(readFileSync(join(cwd, "tools/touch/tool.json"), "utf8"));
    expect(toolJson.$schema).toBe(JSON.parse(committed("packages/tool-api/schemas/tool.schema.json")).$id);
    const test = spawnSync(process.execPath, ["--test", "tools/touch/test.mjs"], { cwd, encoding: "utf8" });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/# pass 3\n/);
    // The scaffold runs through the pipeline too: its effects feed policy.
    const effects = await cli(
      ["effects", "touch", "--tool", "tools/touch", "--args", '{"path":"a/b.txt","line":"x"}'],
      { cwd },
    );
    expect(effects.stdout).toBe(`write ${join(cwd, "a", "b.txt")}\n`);
  });

  it("scaffolds a hook that validates and whose own test passes", async () => {
    const cwd = tempDir();
    const init = await cli(["init", "hook", "hooks/no-rm"], { cwd });
    expect(init.status).toBe(0);
    expect((await cli(["validate", "hooks/no-rm/"], { cwd })).status).toBe(0);
    const hookJson = JSON.parse(readFileSync(join(cwd, "hooks/no-rm/hook.json"), "utf8"));
    expect(hookJson.$schema).toBe(
      JSON.parse(committed("packages/hook-protocol/schemas/hook.schema.json")).$id,
    );
    const test = spawnSync(process.execPath, ["--test", "hooks/no-rm/test.mjs"], { cwd, encoding: "utf8" });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/# pass 2\n/);
  });

  it("refuses a folder that is not empty (exit 1) and a folder name that is not an id (exit 2)", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "busy"));
    writeFileSync(join(cwd, "busy", "x"), "");
    const busy = await cli(["init", "tool", "busy"], { cwd });
    expect(busy.status).toBe(1);
    expect(busy.stderr).toBe("raw: init_target_not_empty: busy exists and is not an empty folder\n");
    const bad = await cli(["init", "tool", "Bad Name"], { cwd });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^raw: usage: the folder name "Bad Name" is the tool id and must match/);
  });
});

describe("raw effects", () => {
  it("prints the intended effects computed by the pipeline, and runs nothing", async () => {
    const cwd = tempDir();
    const args = '{"operations":[{"path":"x/../a.txt","mode":"append","content":"1"}]}';
    const run = await cli(["effects", "write_file", "--cwd", cwd, "--args", args]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`write ${join(cwd, "a.txt")}\n`);
    expect(readdirSync(cwd)).toEqual([]);
    const json = await cli([
      "effects",
      "builtin/write_file",
      "--cwd",
      cwd,
      "--format",
      "json",
      "--args",
      args,
    ]);
    expect(JSON.parse(json.stdout)).toEqual({
      tool: "write_file",
      identity: "builtin/write_file",
      ok: true,
      effects: { files: [{ path: join(cwd, "a.txt"), operation: "write" }] },
    });
  });

  it("says when a tool declares no effects, and fails like dispatch on bad arguments", async () => {
    expect((await cli(["effects", "bash", "--args", '{"commands":[{"command":"ls"}]}'])).stdout).toBe(
      "bash (builtin/bash) declares no intended effects\n",
    );
    const bad = await cli(["effects", "bash", "--args", "{}"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe("raw: invalid_arguments: (root): must have required property 'commands'\n");
  });
});

describe("raw policy", () => {
  const rules = "examples/rules.json";

  it("explain names the decision, visibility and the deciding rule with its location", async () => {
    const run = await cli([
      "policy",
      "explain",
      "--rules",
      rules,
      "builtin/bash",
      "--args",
      '{"commands":[{"command":"rm -r x"}]}',
    ]);
    expect(run.status).toBe(0);
    expect(lines(run.stdout)).toEqual([
      "builtin/bash",
      "  decision  ask",
      "  hidden    false",
      '  decided   rule 3 at examples/rules.json:9:3: {"match":"builtin/bash","effect":"ask","when":{"source":"arguments","any":"commands[*].command","regex":"\\\\brm(\\\\s|$)"}}',
    ]);
  });

  it("explain --format json, without arguments (only unconditional rules) and for a hidden tool", async () => {
    const plain = JSON.parse(
      (await cli(["policy", "explain", "--rules", rules, "builtin/bash", "--format", "json"])).stdout,
    );
    expect(plain).toEqual({
      identity: "builtin/bash",
      decision: "allow",
      ruleIndex: 0,
      hidden: false,
      rule: { match: "*", effect: "allow" },
      location: "examples/rules.json:2:3",
    });
    const hidden = JSON.parse(
      (await cli(["policy", "explain", "--rules", rules, "mcp/search/web", "--format", "json"])).stdout,
    );
    expect(hidden).toMatchObject({
      decision: "deny",
      ruleIndex: 1,
      hidden: true,
      location: "examples/rules.json:3:3",
    });
    const effects = JSON.parse(
      (
        await cli([
          "policy",
          "explain",
          "--rules",
          rules,
          "builtin/write_file",
          "--effects",
          '{"files":[{"path":"/p/config/a.json","operation":"write"}]}',
          "--format",
          "json",
        ])
      ).stdout,
    );
    expect(effects).toMatchObject({ decision: "ask", ruleIndex: 2 });
  });

  it("test passes the shipped cases", async () => {
    const run = await cli(["policy", "test", rules, "examples/cases.json"]);
    expect(run.status).toBe(0);
    expect(lines(run.stdout).at(-1)).toBe("5 passed, 0 failed");
  });

  it("test prints each mismatch with the rule that actually decided (exit 1)", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "cases.json"),
      `${JSON.stringify(
        {
          cases: [
            {
              name: "ls",
              identity: "builtin/bash",
              arguments: { commands: [{ command: "ls" }] },
              expect: "allow",
            },
            {
              name: "rm",
              identity: "builtin/bash",
              arguments: { commands: [{ command: "rm x" }] },
              expect: "allow",
            },
            { identity: "mcp/x/y", expect: "allow" },
            { identity: "builtin/todo", expect: "hidden" },
          ],
        },
        null,
        2,
      )}\n`,
    );
    const run = await cli(["policy", "test", rules, join(dir, "cases.json")], { cwd: appRoot });
    expect(run.status).toBe(1);
    const file = join(dir, "cases.json");
    expect(lines(run.stdout)).toEqual([
      `ok    ${file}:3:5  ls (builtin/bash): allow`,
      `FAIL  ${file}:15:5  rm (builtin/bash): expected allow, got ask`,
      '      decided by rule 3 at examples/rules.json:9:3: {"match":"builtin/bash","effect":"ask","when":{"source":"arguments","any":"commands[*].command","regex":"\\\\brm(\\\\s|$)"}}',
      `FAIL  ${file}:27:5  mcp/x/y: expected allow, got hidden`,
      '      decided by rule 1 at examples/rules.json:3:3: {"match":"mcp/*","effect":"deny"}',
      `FAIL  ${file}:31:5  builtin/todo: expected hidden, got allow`,
      '      decided by rule 0 at examples/rules.json:2:3: {"match":"*","effect":"allow"}',
      "",
      "1 passed, 3 failed",
    ]);
    const json = JSON.parse((await cli(["policy", "test", rules, file, "--format", "json"])).stdout);
    expect(json.summary).toEqual({ passed: 1, failed: 3 });
    expect(json.cases[1]).toEqual({
      index: 1,
      name: "rm",
      identity: "builtin/bash",
      expect: "allow",
      actual: "ask",
      ok: false,
      decision: "ask",
      ruleIndex: 3,
      hidden: false,
      rule: {
        match: "builtin/bash",
        effect: "ask",
        when: { source: "arguments", any: "commands[*].command", regex: "\\brm(\\s|$)" },
      },
      ruleLocation: "examples/rules.json:9:3",
      caseLocation: `${file}:15:5`,
    });
  });

  it("test reports a cases file that breaks its schema, with positions (exit 1)", async () => {
    const run = await cli(["policy", "test", rules, join(fixtures, "validate", "other", "bad-cases.json")], {
      cwd: join(fixtures, "validate"),
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "other/bad-cases.json:3:35  schema_violation  must be equal to one of the allowed values\n",
    );
  });
});

describe("raw hook run", () => {
  const bash = (command: string) =>
    JSON.stringify({
      tool: { identity: "builtin/bash", name: "bash", arguments: { commands: [{ command }] } },
    });

  it("runs a gate hook whose subscription matches and prints its answer", async () => {
    const run = await cli([
      "hook",
      "run",
      "hooks/guard",
      "--event",
      "PreToolUse",
      "--payload",
      bash("rm -rf /tmp/x"),
    ]);
    expect(run.status).toBe(0);
    const out = lines(run.stdout);
    expect(out[0]).toBe("local/guard PreToolUse");
    expect(out[1]).toBe("  outcome   denied");
    expect(out[2]).toBe(
      "  blocked   denied: guard: direct rm is not allowed (rm -rf /tmp/x); ask the user to remove files",
    );
    expect(out[3]).toMatch(/^ {2}duration {2}\d+ ms$/);
  });

  it("skips a hook none of whose subscriptions match, and reads the payload from @file", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "payload.json"), bash("ls"));
    const run = await cli([
      "hook",
      "run",
      "hooks/guard",
      "--event",
      "PreToolUse",
      "--payload",
      `@${join(dir, "payload.json")}`,
      "--format",
      "json",
    ]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      hook: "local/guard",
      folder: "guard",
      event: "PreToolUse",
      ran: false,
      blocked: null,
      reason: null,
      receipt: null,
    });
  });

  it("a notification hook's message is in its receipt", async () => {
    const payload = JSON.stringify({ run: { status: "completed", steps: 3 } });
    const run = await cli([
      "hook",
      "run",
      "hooks/notify",
      "--event",
      "Stop",
      "--payload",
      payload,
      "--format",
      "json",
    ]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).receipt).toMatchObject({
      id: "local/notify",
      event: "Stop",
      outcome: "continued",
      message: "run completed after 3 steps",
    });
  });

  it("a hook that fails exits 1 with its error receipt", async () => {
    const payload = JSON.stringify({ tool: { identity: "builtin/todo", name: "todo", arguments: {} } });
    const run = await cli([
      "hook",
      "run",
      join(fixtures, "call", "hooks", "failing"),
      "--event",
      "PreToolUse",
      "--payload",
      payload,
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("  outcome   error (exit)\n");
    expect(run.stdout).toContain("  stderr\n    failing hook: cannot reach the policy server\n");
  });

  it("a broken hook folder is reported with positions (exit 1); a bad event is a usage error (exit 2)", async () => {
    const broken = await cli(
      ["hook", "run", join(fixtures, "validate", "hooks", "bad-hook"), "--event", "Stop", "--payload", "{}"],
      {
        cwd: join(fixtures, "validate"),
      },
    );
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain("hooks/bad-hook/hook.json:2:3  hook_protocol_version_unsupported");
    const usage = await cli(["hook", "run", "hooks/guard", "--event", "Nope", "--payload", "{}"]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^raw: usage: --event must be one of SessionStart, /);
  });
});

describe("raw panel", () => {
  const ship = join(fixtures, "panels", "ship.panel.json");

  it("render prints the document as text (panels.md §14)", async () => {
    const run = await cli(["panel", "render", ship]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      [
        "Ship (1/3)",
        "## Tasks",
        "[x] Write the failing test",
        "[~] Fix the API — wait (a.ts:4)",
        "  [!] Validate input",
        "[ ] Update docs",
        "## Questions",
        "- Which environment? (single_select, required)",
        "  - Staging [staging]",
        "  - Production [prod]",
        "- Notes (text, optional)",
        "## Flow",
        "A leads to B",
        "```mermaid",
        "flowchart LR",
        "A-->B",
        "```",
        "",
      ].join("\n"),
    );
  });

  it("render uses --title (or the file name) when the document has no title", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "status.json"), '{"blocks":[{"id":"p","kind":"progress","value":1,"max":4}]}');
    expect((await cli(["panel", "render", join(dir, "status.json")])).stdout).toBe("status\nProgress 25%\n");
    expect((await cli(["panel", "render", join(dir, "status.json"), "--title", "Build"])).stdout).toBe(
      "Build\nProgress 25%\n",
    );
  });

  it("validate reports the first failure with its position in every format", async () => {
    const cwd = join(fixtures, "validate");
    expect((await cli(["panel", "validate", "other/bad-panel.json"], { cwd })).stdout).toBe(
      "other/bad-panel.json  failed (1 error)\nother/bad-panel.json:7:31  panel_invalid  /blocks/0/items/0/label: must not be empty\n\n0 passed, 1 failed\n",
    );
    const github = await cli(["panel", "validate", "other/bad-panel.json", "--format", "github"], { cwd });
    expect(github.status).toBe(1);
    expect(lines(github.stdout)[0]).toBe(
      "::error file=other/bad-panel.json,line=7,col=31,title=panel_invalid::/blocks/0/items/0/label: must not be empty",
    );
    const render = await cli(["panel", "render", "other/bad-panel.json"], { cwd });
    expect(render.status).toBe(1);
    expect(render.stdout).toBe("");
    expect(render.stderr).toContain("other/bad-panel.json:7:31  panel_invalid");
    expect((await cli(["panel", "validate", ship])).status).toBe(0);
  });
});
