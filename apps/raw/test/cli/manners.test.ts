import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, lines, tempDir } from "./helpers.js";

/** A folder `tools/` of two tool folders (made by `raw init`), and `mixed/` holding a tool and a hook folder. */
async function folders(): Promise<string> {
  const cwd = tempDir();
  for (const dir of ["tools/alpha", "tools/beta", "mixed/gamma"]) {
    expect((await cli(["init", "tool", dir], { cwd })).status).toBe(0);
  }
  expect((await cli(["init", "hook", "mixed/guard"], { cwd })).status).toBe(0);
  mkdirSync(join(cwd, "plain"));
  writeFileSync(join(cwd, "plain", "notes.txt"), "x");
  return cwd;
}

describe("raw validate <folder of tool folders>", () => {
  it("suggests <folder>/*/ in a hint line under the issue, and exits 1", async () => {
    const cwd = await folders();
    const run = await cli(["validate", "tools"], { cwd });
    expect(run.status).toBe(1);
    expect(lines(run.stdout)).toEqual([
      "tools  failed (1 error)",
      "tools:1:1  folder_unrecognized  tools holds neither a tool.json nor a hook.json",
      "    hint: it is a folder of tool folders: validate each one with raw validate tools/*/",
      "",
      "0 passed, 1 failed",
    ]);
    // What the hint says works.
    const each = await cli(["validate", "tools/alpha/", "tools/beta/"], { cwd });
    expect(each.status).toBe(0);
  });

  it("names both kinds, keeps a trailing slash out of the glob, and is a field in JSON and part of the annotation", async () => {
    const cwd = await folders();
    const json = await cli(["validate", "mixed/", "--format", "json"], { cwd });
    expect(json.status).toBe(1);
    const [file] = JSON.parse(json.stdout).files;
    expect(file.issues[0].code).toBe("folder_unrecognized");
    expect(file.issues[0].hint).toBe(
      "it is a folder of tool and hook folders: validate each one with raw validate mixed/*/",
    );
    const github = await cli(["validate", "tools", "--format", "github"], { cwd });
    expect(github.stdout).toContain("validate each one with raw validate tools/*/");
  });

  it("a folder without tool or hook folders gets no hint", async () => {
    const cwd = await folders();
    const run = await cli(["validate", "plain", "--format", "json"], { cwd });
    expect(run.status).toBe(1);
    const [file] = JSON.parse(run.stdout).files;
    expect(file.issues[0].code).toBe("folder_unrecognized");
    expect(file.issues[0].hint).toBeUndefined();
  });
});

describe("raw call <unknown tool>", () => {
  it("lists the available tools by their model-facing names, nearest first (exit 1)", async () => {
    const run = await cli(["call", "wirte_file", "--args", "{}"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("  result      error      tool_not_exposed\n");
    expect(lines(run.stderr)).toEqual([
      'hint: no tool "wirte_file" is available; the tools, nearest first: write_file, ask_user, diagram, todo, bash',
    ]);
  });

  it("leaves out the tools the rules hide (an unconditional deny), and gives the list as a JSON field", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "rules.json"), JSON.stringify([{ match: "builtin/bash", effect: "deny" }]));
    const run = await cli(["call", "nosuch", "--args", "{}", "--rules", "rules.json", "--format", "json"], {
      cwd,
    });
    expect(run.status).toBe(1);
    const doc = JSON.parse(run.stdout);
    expect(doc.result.code).toBe("tool_not_exposed");
    expect([...doc.available].sort()).toEqual(["ask_user", "diagram", "todo", "write_file"]);
  });
});

describe("raw effects <unknown tool>", () => {
  it("lists the tools nearest first, in text and as a JSON field", async () => {
    const run = await cli(["effects", "todos", "--args", "{}"]);
    expect(run.status).toBe(1);
    expect(lines(run.stderr)).toEqual([
      "raw: tool_not_exposed: tool unavailable: todos",
      "hint: the tools, nearest first: todo, bash, ask_user, diagram, write_file",
    ]);
    const json = JSON.parse((await cli(["effects", "todos", "--args", "{}", "--format", "json"])).stdout);
    expect(json.code).toBe("tool_not_exposed");
    expect(json.available[0]).toBe("todo");
  });
});
