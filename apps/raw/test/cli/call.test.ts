import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixtures, lines, tempDir } from "./helpers.js";

const callFixtures = join(fixtures, "call");

interface Trace {
  tool: string;
  identity: string | null;
  toolCallId: string;
  arguments: unknown;
  effects: unknown;
  steps: Array<{ step: string; status: string; text: string; data?: Record<string, unknown> }>;
  hooks: Array<Record<string, unknown>>;
  panels: Array<{ receipt: Record<string, unknown>; text: string | null }>;
  result: {
    isError: boolean;
    code?: string;
    content: Array<{ type: string; text?: string; value?: unknown }>;
  };
  modelLines: string[];
}

async function call(
  tool: string,
  args: unknown,
  extra: string[] = [],
  cwd?: string,
): Promise<{ status: number | null; trace: Trace }> {
  const run = await cli(
    ["call", tool, "--args", JSON.stringify(args), "--format", "json", ...extra],
    cwd ? { cwd } : {},
  );
  expect(run.stderr).toBe("");
  return { status: run.status, trace: JSON.parse(run.stdout) as Trace };
}

/** `[step, status]` pairs of a trace. */
function steps(trace: Trace): string[][] {
  return trace.steps.map((s) => [s.step, s.status]);
}

const PASSED = [
  ["exposure", "ok"],
  ["validation", "ok"],
];

describe("raw call: each bundled tool through the real pipeline", () => {
  it("write_file writes real files and reports its intended effects and the Files changed panel", async () => {
    const cwd = tempDir();
    const { status, trace } = await call(
      "write_file",
      { operations: [{ path: "docs/a.txt", mode: "overwrite", content: "hello\n" }] },
      ["--cwd", cwd, "--approve", "yes"],
    );
    expect(status).toBe(0);
    expect(readFileSync(join(cwd, "docs", "a.txt"), "utf8")).toBe("hello\n");
    expect(trace.identity).toBe("builtin/write_file");
    expect(trace.effects).toEqual({ files: [{ path: join(cwd, "docs", "a.txt"), operation: "write" }] });
    expect(steps(trace)).toEqual([
      ...PASSED,
      ["effects", "ok"],
      // Without --rules, raw call asks before write_file; --approve yes answers.
      ["policy", "ask"],
      ["hook", "none"],
      ["approval", "approved"],
      ["handler", "ran"],
      ["panel", "updated"],
      ["result", "ok"],
    ]);
    expect(trace.steps[2]?.text).toBe(`write ${join(cwd, "docs", "a.txt")}`);
    expect(trace.panels[0]?.receipt).toMatchObject({ panel: "files_changed", owner: "builtin/write_file" });
    expect(trace.result.content[0]?.value).toEqual({
      results: [{ index: 0, path: "docs/a.txt", mode: "overwrite", status: "ok", bytes_written: 6 }],
    });
  });

  it("write_file applies a patch with a move (effects name both ends)", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "notes.txt"), "draft\n");
    const patch =
      "*** Begin Patch\n*** Update File: notes.txt\n*** Move to: done/notes.txt\n@@\n-draft\n+final\n*** End Patch";
    const { status, trace } = await call("write_file", { patch }, ["--cwd", cwd, "--approve", "yes"]);
    expect(status).toBe(0);
    expect(existsSync(join(cwd, "notes.txt"))).toBe(false);
    expect(readFileSync(join(cwd, "done", "notes.txt"), "utf8")).toBe("final\n");
    expect(trace.effects).toEqual({
      files: [
        { path: join(cwd, "notes.txt"), operation: "rename_source" },
        { path: join(cwd, "done", "notes.txt"), operation: "rename_destination" },
      ],
    });
  });

  it("bash runs real processes in the session folder", async () => {
    const cwd = tempDir();
    const { status, trace } = await call(
      "bash",
      { commands: [{ command: "echo hi > out.txt && cat out.txt" }] },
      ["--cwd", cwd, "--approve", "yes"],
    );
    expect(status).toBe(0);
    expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("hi\n");
    expect(trace.steps.find((s) => s.step === "effects")).toEqual({
      step: "effects",
      status: "none",
      text: "the tool declares no intended effects",
    });
    expect(trace.result.content[0]?.value).toMatchObject({
      results: [{ index: 0, status: "ok", stdout: "hi\n" }],
    });
  });

  it("bash reports a failing command with the tool's own code (exit 1)", async () => {
    const { status, trace } = await call(
      "bash",
      { commands: [{ command: "exit 3" }, { command: "echo never" }] },
      ["--cwd", tempDir(), "--approve", "yes"],
    );
    expect(status).toBe(1);
    expect(trace.result).toMatchObject({ isError: true, code: "command_failed" });
    expect(steps(trace).at(-2)).toEqual(["handler", "ran"]);
  });

  it("todo renders its panel as text with renderPanelText", async () => {
    const { status, trace } = await call("todo", {
      mode: "replace",
      title: "Ship",
      items: [
        { id: "a", label: "Write tests", status: "done" },
        { id: "b", label: "Fix the API", status: "in_progress" },
      ],
    });
    expect(status).toBe(0);
    expect(trace.panels[0]?.text).toBe("Ship (1/2)\n[x] Write tests\n[~] Fix the API");
    expect(trace.result.content).toEqual([
      { type: "text", text: "todo updated (revision 1): 1/2 · Fix the API" },
    ]);
  });

  it("diagram renders a Mermaid block as a fenced source", async () => {
    const { status, trace } = await call("diagram", { source: "flowchart LR\nA-->B", title: "Flow" });
    expect(status).toBe(0);
    expect(trace.panels[0]?.text).toBe("Flow\n```mermaid\nflowchart LR\nA-->B\n```");
  });

  it("ask_user without a terminal fails at once with interaction_unavailable", async () => {
    const { status, trace } = await call("ask_user", {
      questions: [
        { id: "env", label: "Which environment?", kind: "single_select", options: [{ id: "s", label: "S" }] },
      ],
    });
    expect(status).toBe(1);
    expect(trace.result).toMatchObject({ isError: true, code: "interaction_unavailable" });
    expect(trace.result.content[0]?.text).toBe("interaction_unavailable: this host has no response adapter");
  });

  it("prints a text trace step by step", async () => {
    const run = await cli([
      "call",
      "todo",
      "--args",
      '{"mode":"replace","items":[{"id":"a","label":"One"}]}',
    ]);
    expect(run.status).toBe(0);
    expect(lines(run.stdout)).toEqual([
      'call todo {"mode":"replace","items":[{"id":"a","label":"One"}]}',
      "  exposure    ok         todo → builtin/todo",
      "  validation  ok         the arguments match the input schema",
      "  effects     none       the tool declares no intended effects",
      "  policy      allow      no rule applies (the default is allow)",
      "  hook        none       no hooks selected",
      "  approval    skipped    not needed: the policy decision is allow",
      expect.stringMatching(/^ {2}handler {5}ran {8}\d+ ms$/),
      "  panel       updated    ▸ Todo r1 · 0/1",
      "                           Todo (0/1)",
      "                           [ ] One",
      "  result      ok         todo updated (revision 1): 0/1",
    ]);
  });
});

describe("raw call: every dispatch outcome the CLI can reach", () => {
  it("tool_not_exposed: an unknown tool", async () => {
    const { status, trace } = await call("nope", {});
    expect(status).toBe(1);
    expect(steps(trace)).toEqual([
      ["exposure", "failed"],
      ["result", "error"],
    ]);
    expect(trace.result).toEqual({
      isError: true,
      code: "tool_not_exposed",
      content: [{ type: "text", text: "tool unavailable: nope" }],
    });
  });

  it("tool_denied: an unconditional deny rule hides the tool (the deciding rule is named)", async () => {
    const { status, trace } = await call("bash", { commands: [{ command: "ls" }] }, [
      "--rules",
      join(callFixtures, "rules", "deny-bash.json"),
    ]);
    expect(status).toBe(1);
    expect(steps(trace)).toEqual([
      ["exposure", "ok"],
      ["policy", "deny"],
      ["result", "error"],
    ]);
    expect(trace.steps[1]?.data).toMatchObject({
      decision: "deny",
      ruleIndex: 0,
      hidden: true,
      rule: { match: "builtin/bash", effect: "deny" },
    });
    expect(trace.result.code).toBe("tool_denied");
    expect(trace.result.content[0]?.text).toBe("tool denied: builtin/bash");
  });

  it("invalid_arguments: the JSON Schema rejects the arguments", async () => {
    const { status, trace } = await call("write_file", { operations: [{ path: 3, mode: "overwrite" }] });
    expect(status).toBe(1);
    expect(steps(trace)).toEqual([
      ["exposure", "ok"],
      ["validation", "failed"],
      ["result", "error"],
    ]);
    expect(trace.result.code).toBe("invalid_arguments");
    expect(trace.result.content[0]?.text).toBe("/operations/0/path: must be string");
  });

  it("invalid_effects: a --tool folder whose descriptor returns effects its schema rejects", async () => {
    const { status, trace } = await call("bad_effects", {}, [
      "--tool",
      join(callFixtures, "tools", "bad-effects"),
    ]);
    expect(status).toBe(1);
    expect(trace.identity).toBe("local/bad-effects");
    expect(steps(trace)).toEqual([...PASSED, ["effects", "failed"], ["result", "error"]]);
    expect(trace.result.code).toBe("invalid_effects");
  });

  it("effects_error: a --tool folder whose descriptor throws", async () => {
    const { status, trace } = await call("effects_throw", {}, [
      "--tool",
      join(callFixtures, "tools", "effects-throw"),
    ]);
    expect(status).toBe(1);
    expect(trace.result).toEqual({
      isError: true,
      code: "effects_error",
      content: [{ type: "text", text: "cannot describe effects_throw: cannot tell" }],
    });
  });

  it("hook_denied: the bundled guard hook denies a direct rm before approval is asked", async () => {
    const { status, trace } = await call("bash", { commands: [{ command: "rm -rf build" }] }, [
      "--hook",
      "guard",
      "--approve",
      "yes",
    ]);
    expect(status).toBe(1);
    expect(steps(trace)).toEqual([
      ...PASSED,
      ["effects", "none"],
      // Without --rules, raw call asks before bash; the gate runs before approval.
      ["policy", "ask"],
      // The denial is said once: the guard's receipt; its reason is the result's text.
      ["hook", "denied"],
      ["result", "error"],
    ]);
    expect(trace.hooks).toEqual([
      expect.objectContaining({ id: "local/guard", event: "PreToolUse", outcome: "denied" }),
    ]);
    expect(trace.result.code).toBe("hook_denied");
    expect(trace.result.content[0]?.text).toBe(
      "guard: direct rm is not allowed (rm -rf build); ask the user to remove files",
    );
  });

  it("hook_error: a hook that exits 1 blocks the call, and its stderr shows in the receipt", async () => {
    const { status, trace } = await call("todo", { mode: "replace", items: [] }, [
      "--hook",
      join(callFixtures, "hooks", "failing"),
    ]);
    expect(status).toBe(1);
    expect(trace.hooks).toEqual([
      expect.objectContaining({
        id: "local/failing",
        outcome: "error",
        code: "exit",
        stderr: "failing hook: cannot reach the policy server\n",
      }),
    ]);
    expect(trace.result).toEqual({
      isError: true,
      code: "hook_error",
      content: [{ type: "text", text: "hook local/failing failed: exit" }],
    });
  });

  it("approval_required: a conditional ask without a terminal", async () => {
    const cwd = tempDir();
    const args = { operations: [{ path: "a.txt", mode: "overwrite", content: "x" }] };
    const rules = join(callFixtures, "rules", "ask-writes.json");
    const { status, trace } = await call("write_file", args, ["--rules", rules, "--cwd", cwd]);
    expect(status).toBe(1);
    expect(steps(trace)).toEqual([
      ...PASSED,
      ["effects", "ok"],
      ["policy", "ask"],
      ["hook", "none"],
      ["approval", "required"],
      ["result", "error"],
    ]);
    expect(trace.result.content[0]?.text).toBe("approval required for write_file");
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });

  it("approval_denied with --approve no, and the handler runs with --approve yes", async () => {
    const cwd = tempDir();
    const args = { operations: [{ path: "a.txt", mode: "overwrite", content: "x" }] };
    const rules = join(callFixtures, "rules", "ask-writes.json");
    const denied = await call("write_file", args, ["--rules", rules, "--cwd", cwd, "--approve", "no"]);
    expect(denied.status).toBe(1);
    expect(denied.trace.result.code).toBe("approval_denied");
    expect(denied.trace.steps.find((s) => s.step === "approval")).toEqual({
      step: "approval",
      status: "denied",
      text: "by --approve no",
    });
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    const approved = await call("write_file", args, ["--rules", rules, "--cwd", cwd, "--approve", "yes"]);
    expect(approved.status).toBe(0);
    expect(approved.trace.steps.find((s) => s.step === "approval")?.status).toBe("approved");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("x");
  });

  it("tool_error: a --tool folder whose handler throws", async () => {
    const { status, trace } = await call("thrower", {}, ["--tool", join(callFixtures, "tools", "thrower")]);
    expect(status).toBe(1);
    expect(steps(trace).slice(-2)).toEqual([
      ["handler", "ran"],
      ["result", "error"],
    ]);
    expect(trace.result).toEqual({
      isError: true,
      code: "tool_error",
      content: [{ type: "text", text: "thrower failed: disk on fire" }],
    });
  });

  it("a PostToolUseFailure notification hook leaves a receipt without changing the result", async () => {
    const { status, trace } = await call("bash", { commands: [{ command: "exit 4" }] }, [
      "--hook",
      "notify",
      "--approve",
      "yes",
    ]);
    expect(status).toBe(1);
    expect(trace.result.code).toBe("command_failed");
    expect(trace.hooks).toEqual([
      expect.objectContaining({
        id: "local/notify",
        event: "PostToolUseFailure",
        outcome: "continued",
        message: expect.stringMatching(/^bash failed: command_failed/),
      }),
    ]);
  });
});
