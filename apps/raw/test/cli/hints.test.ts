import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatGithub, formatText, locate } from "@raw/validate";
import { describe, expect, it } from "vitest";
import { raw, tempDir } from "./helpers.js";

/** A tool folder with a typo'd field and a hook folder whose hook.json starts with a byte-order mark. */
function brokenFolders(): string {
  const cwd = tempDir();
  expect(raw(["init", "tool", "tools/touch"], { cwd }).status).toBe(0);
  const manifest = join(cwd, "tools/touch/tool.json");
  writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"entry"', '"entyr"'));
  mkdirSync(join(cwd, "hooks/h"), { recursive: true });
  writeFileSync(
    join(cwd, "hooks/h/hook.json"),
    '\uFEFF{"protocol_version":2,"name":"h","events":[{"name":"Stop"}],"command":"node"}',
  );
  return cwd;
}

const BOM = "remove the UTF-8 byte-order mark (U+FEFF) at the start of the file";

describe("hints in raw validate reports", () => {
  it("text: an indented hint line under the issue", () => {
    const run = raw(["validate", "tools/touch", "hooks/h/"], { cwd: brokenFolders() });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      'tools/touch/tool.json:27:3  manifest_unknown_field  unknown field "entyr"\n    hint: did you mean `entry`?\n',
    );
    expect(run.stdout).toContain(
      `hooks/h/hook.json:1:1  hook_manifest_json_invalid  invalid hook manifest JSON: h\n    hint: ${BOM}\n`,
    );
  });

  it("json: a hint field, only on issues that have one", () => {
    const run = raw(["validate", "tools/touch", "hooks/h/", "--format", "json"], { cwd: brokenFolders() });
    const body = JSON.parse(run.stdout);
    expect(body.files[0].issues.map((i: { hint?: string }) => i.hint)).toEqual([
      "did you mean `entry`?",
      undefined,
    ]);
    expect(body.files[1].issues[0].hint).toBe(BOM);
  });

  it("github: the hint appended to the annotation message", () => {
    const run = raw(["validate", "tools/touch", "--format", "github"], { cwd: brokenFolders() });
    expect(run.stdout).toContain('::unknown field "entyr"%0Ahint: did you mean `entry`?\n');
  });

  it("escapes untrusted text in hints (one screen line, no raw control)", () => {
    const issue = locate({ code: "c", message: "m", hint: "a\nb\u001b[31m%" }, undefined);
    const report = { file: "f.json", kind: "tool" as const, ok: false, issues: [issue], warnings: [] };
    const text = formatText([report]);
    expect(text).toContain("    hint: a\\nb\\x1b[31m%\n");
    expect(text).not.toContain("\u001b");
    const github = formatGithub([report]);
    expect(github).toContain("::m%0Ahint: a\\nb\\x1b[31m%25\n");
  });
});
