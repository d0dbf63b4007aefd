/**
 * Issue 11, surface 10 — CLI loading. When `--tool` folders fail to load, no entry of any folder is imported, not
 * even to build the error report; a bundled hook is chosen by name only and a folder only by a path, and the trace
 * shows which real folder ran; without `--rules`, `raw call` asks before `write_file` and `bash`; the scaffolded
 * tool of `raw init tool` keeps to its description (one line, appended to a file under the working directory).
 * Runs the built CLI on real folders.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appRoot, cli, tempDir, writeToolFolder } from "./helpers.js";

const HANDLER =
  'export function handler() { return { isError: false, content: [{ type: "text", text: "ran" }] }; }\n';

function toolFolder(
  root: string,
  id: string,
  manifest: Record<string, unknown> = {},
  entry = HANDLER,
): string {
  return writeToolFolder(root, id, entry, { description: "A tool for the loading tests.", manifest });
}

/** An entry that writes `marker` when imported. */
const markerEntry = (marker: string) =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "imported");\n${HANDLER}`;

interface Trace {
  steps: Array<{ step: string; status: string; text: string }>;
  hooks: Array<{ id: string; outcome: string; message?: string }>;
  result: { isError: boolean; code?: string };
  folders: Array<{ kind: string; id: string; folder: string; bundled: boolean }>;
}

function json(run: { stdout: string }): Trace {
  return JSON.parse(run.stdout) as Trace;
}

describe("raw call: --tool folders that fail to load import nothing", () => {
  it("a valid folder next to an invalid one is not imported, not even for the report", async () => {
    const root = tempDir();
    const marker = join(root, "marker.txt");
    toolFolder(root, "good", {}, markerEntry(marker));
    toolFolder(root, "bad", { extra: true }, markerEntry(marker));
    const run = await cli(["call", "good", "--args", "{}", "--tool", "./good", "--tool", "./bad"], {
      cwd: root,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("bad/tool.json");
    expect(run.stderr).toContain("manifest_unknown_field");
    expect(existsSync(marker)).toBe(false);
  });
});

describe("raw call: bundled by name, folders by path", () => {
  /** A hook folder named `guard` in the working directory that denies every call. */
  function plantedGuard(root: string): string {
    const dir = join(root, "guard");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "hook.json"),
      JSON.stringify({
        protocol_version: 2,
        name: "guard",
        events: [{ name: "PreToolUse", match: "*" }],
        command: "node",
        args: ["./deny.mjs"],
        timeout_ms: 10000,
      }),
    );
    writeFileSync(
      join(dir, "deny.mjs"),
      'process.stdin.resume();\nprocess.stdin.on("end", () => { process.stderr.write("planted guard"); process.exit(2); });\n',
    );
    return dir;
  }

  it("--hook guard is the bundled hook even when ./guard exists; the trace names its real folder", async () => {
    const root = tempDir();
    plantedGuard(root);
    const run = await cli(
      ["call", "todo", "--args", '{"mode":"replace","items":[]}', "--hook", "guard", "--format", "json"],
      {
        cwd: root,
      },
    );
    const trace = json(run);
    expect(trace.result.isError).toBe(false);
    expect(trace.folders).toEqual([
      {
        kind: "hook",
        id: "local/guard",
        folder: realpathSync(join(appRoot, "hooks", "guard")),
        bundled: true,
      },
    ]);
    const text = await cli(["call", "todo", "--args", '{"mode":"replace","items":[]}', "--hook", "guard"], {
      cwd: root,
    });
    expect(text.stdout).toContain(
      `using hook local/guard from ${realpathSync(join(appRoot, "hooks", "guard"))} (bundled)\n`,
    );
  });

  it("--hook ./guard is the folder, and the trace says so", async () => {
    const root = tempDir();
    const dir = plantedGuard(root);
    const run = await cli(
      ["call", "todo", "--args", '{"mode":"replace","items":[]}', "--hook", "./guard", "--format", "json"],
      {
        cwd: root,
      },
    );
    const trace = json(run);
    expect(trace.result.code).toBe("hook_denied");
    expect(trace.folders).toEqual([{ kind: "hook", id: "local/guard", folder: dir, bundled: false }]);
  });

  it("an unknown bundled hook name is an error, never a folder of the working directory", async () => {
    const root = tempDir();
    const dir = plantedGuard(root);
    const renamed = join(root, "mine");
    symlinkSync(dir, renamed);
    const run = await cli(["call", "todo", "--args", '{"mode":"replace","items":[]}', "--hook", "mine"], {
      cwd: root,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^raw: hook_unknown: no bundled hook is named "mine" \(bundled: guard, notify\)/,
    );
  });

  it("--tool takes a path only: a bare name is refused; ./name is the folder and the trace names it", async () => {
    const root = tempDir();
    const dir = toolFolder(root, "echo");
    const bare = await cli(["call", "echo", "--args", "{}", "--tool", "echo"], { cwd: root });
    expect(bare.status).toBe(1);
    expect(bare.stderr).toMatch(/^raw: tool_not_a_path: --tool takes a folder path, such as \.\/echo/);
    const run = await cli(["call", "echo", "--args", "{}", "--tool", "./echo", "--format", "json"], {
      cwd: root,
    });
    expect(run.status).toBe(0);
    expect(json(run).folders).toEqual([{ kind: "tool", id: "local/echo", folder: dir, bundled: false }]);
  });
});

describe("raw call: without --rules, write_file and bash ask first", () => {
  const WRITE = JSON.stringify({ operations: [{ path: "a.txt", mode: "overwrite", content: "x\n" }] });

  it("write_file without a terminal ends approval_required and writes nothing", async () => {
    const root = tempDir();
    const run = await cli(["call", "write_file", "--args", WRITE, "--cwd", root, "--format", "json"], {
      cwd: root,
    });
    expect(run.status).toBe(1);
    const trace = json(run);
    expect(trace.result.code).toBe("approval_required");
    expect(trace.steps.find((s) => s.step === "policy")).toMatchObject({ status: "ask" });
    expect(existsSync(join(root, "a.txt"))).toBe(false);
  });

  it("bash without a terminal ends approval_required and runs nothing", async () => {
    const root = tempDir();
    const args = JSON.stringify({ commands: [{ command: "touch ran.txt" }] });
    const run = await cli(["call", "bash", "--args", args, "--cwd", root, "--format", "json"], { cwd: root });
    expect(json(run).result.code).toBe("approval_required");
    expect(existsSync(join(root, "ran.txt"))).toBe(false);
  });

  it("--approve yes answers the question; --rules replaces the default", async () => {
    const root = tempDir();
    const approved = await cli(
      ["call", "write_file", "--args", WRITE, "--cwd", root, "--approve", "yes", "--format", "json"],
      {
        cwd: root,
      },
    );
    expect(approved.status).toBe(0);
    expect(json(approved).steps.find((s) => s.step === "approval")).toMatchObject({ status: "approved" });
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("x\n");
    writeFileSync(join(root, "rules.json"), JSON.stringify([{ match: "*", effect: "allow" }]));
    const allowed = await cli(
      ["call", "write_file", "--args", WRITE, "--cwd", root, "--rules", "rules.json"],
      {
        cwd: root,
      },
    );
    expect(allowed.status).toBe(0);
  });
});

describe("raw init tool: the scaffold keeps to its description", () => {
  async function scaffold(): Promise<{ root: string; work: string }> {
    const root = tempDir();
    const init = await cli(["init", "tool", "tools/append"], { cwd: root });
    expect(init.status).toBe(0);
    const work = join(root, "work");
    mkdirSync(work);
    return { root, work };
  }

  async function append(root: string, work: string, args: Record<string, unknown>) {
    const run = await cli(
      [
        "call",
        "append",
        "--args",
        JSON.stringify(args),
        "--tool",
        "./tools/append",
        "--cwd",
        work,
        "--approve",
        "yes",
        "--format",
        "json",
      ],
      { cwd: root },
    );
    return json(run).result;
  }

  it("appends under the working directory", async () => {
    const { root, work } = await scaffold();
    expect((await append(root, work, { path: "notes/today.txt", line: "hello" })).isError).toBe(false);
    expect(readFileSync(join(work, "notes", "today.txt"), "utf8")).toBe("hello\n");
  });

  it("refuses .., absolute paths and links out of the working directory, and writes nothing there", async () => {
    const { root, work } = await scaffold();
    expect(await append(root, work, { path: "../outside.txt", line: "x" })).toMatchObject({ isError: true });
    expect(existsSync(join(root, "outside.txt"))).toBe(false);
    expect(await append(root, work, { path: join(root, "abs.txt"), line: "x" })).toMatchObject({
      isError: true,
    });
    expect(existsSync(join(root, "abs.txt"))).toBe(false);
    mkdirSync(join(root, "elsewhere"));
    symlinkSync(join(root, "elsewhere"), join(work, "link"));
    expect(await append(root, work, { path: "link/escaped.txt", line: "x" })).toMatchObject({
      isError: true,
    });
    expect(existsSync(join(root, "elsewhere", "escaped.txt"))).toBe(false);
    symlinkSync(join(root, "target.txt"), join(work, "file-link"));
    expect(await append(root, work, { path: "file-link", line: "x" })).toMatchObject({ isError: true });
    expect(existsSync(join(root, "target.txt"))).toBe(false);
  });

  it("refuses a line with any line break, so the result is always one appended line", async () => {
    const { root, work } = await scaffold();
    for (const line of ["a\u2028b", "a\rb", "a\u000bb"]) {
      expect(await append(root, work, { path: "one.txt", line })).toMatchObject({ isError: true });
    }
    expect(existsSync(join(work, "one.txt"))).toBe(false);
  });
});
