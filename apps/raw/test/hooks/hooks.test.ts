import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FILES_EFFECTS_SCHEMA, WRITE_FILE_INPUT_SCHEMA } from "@raw/effects";
import {
  buildHookPayload,
  createHookDispatcher,
  type LoadedHook,
  loadHookFolder,
  parseHookManifest,
  runHook,
} from "@raw/hook-protocol";
import { bundledToolFolders } from "@raw/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const hooksDir = fileURLToPath(new URL("../../hooks/", import.meta.url));
/** The input schema of the bundled bash tool, as its folder of `@raw/tools` declares it. */
const BASH_INPUT_SCHEMA = (() => {
  const bash = bundledToolFolders().find((folder) => folder.name === "bash");
  if (bash === undefined) throw new Error("no bundled bash tool");
  return (
    JSON.parse(readFileSync(join(bash.dir, "tool.json"), "utf8")) as { input_schema: Record<string, unknown> }
  ).input_schema;
})();
const cwd = tmpdir();
let snapshotDir: string;
let guard: LoadedHook;
let notify: LoadedHook;

beforeAll(async () => {
  snapshotDir = mkdtempSync(join(tmpdir(), "raw-hook-snapshots-"));
  guard = await loadHookFolder(join(hooksDir, "guard"), { id: "agent/guard", snapshotDir });
  notify = await loadHookFolder(join(hooksDir, "notify"), { id: "agent/notify", snapshotDir });
});
afterAll(() => rmSync(snapshotDir, { recursive: true, force: true }));

const bash = (...commands: string[]) =>
  buildHookPayload("PreToolUse", {
    cwd,
    turn_id: "op-1",
    tool: {
      identity: "builtin/bash",
      name: "bash",
      tool_call_id: "call-1",
      arguments: { commands: commands.map((command) => ({ command })) },
    },
  });

const write = (...paths: string[]) =>
  buildHookPayload("PreToolUse", {
    cwd,
    tool: {
      identity: "builtin/write_file",
      name: "write_file",
      arguments: { operations: paths.map((path) => ({ path, mode: "overwrite", content: "x" })) },
      effects: { files: paths.map((path) => ({ path, operation: "write" })) },
    },
  });

describe.each(["guard", "notify"])("hooks/%s/hook.json", (name) => {
  it("is a valid raw.hook/2 manifest named after its folder, run with node ./index.mjs", () => {
    const parsed = parseHookManifest(JSON.parse(readFileSync(join(hooksDir, name, "hook.json"), "utf8")), {
      expectedName: name,
    });
    expect(parsed.ok ? [] : parsed.issues).toEqual([]);
    expect(parsed.ok && parsed.manifest).toMatchObject({ name, command: "node", args: ["./index.mjs"] });
  });
});

describe("guard (PreToolUse)", () => {
  it.each([
    ["rm -rf build"],
    ["ls; rm x"],
    ["echo a && rm b"],
    ["sudo rm -r /tmp/x"],
    ["/bin/rm file"],
    ["(cd sub\nrm all)"],
    ["rm"],
  ])("denies a direct rm: %j", async (command) => {
    const result = await runHook(guard, bash("ls", command), { cwd });
    expect(result.outcome).toBe("denied");
    expect(result.decision).toBe("deny");
    expect(result.reason).toContain("guard: direct rm is not allowed");
    expect(result.receipt).toMatchObject({ id: "agent/guard", event: "PreToolUse", outcome: "denied" });
  });

  it.each([["ls -la"], ["rmdir x"], ["echo rm"], ["git rm --cached x"], ["npm run format"]])(
    "continues without a direct rm: %j",
    async (command) => {
      const result = await runHook(guard, bash(command), { cwd });
      expect(result).toMatchObject({ outcome: "continued", decision: "continue" });
    },
  );

  it("denies a write_file whose effects touch a protected folder, continues otherwise", async () => {
    const denied = await runHook(guard, write("/repo/src/a.ts", "/repo/protected/secret.txt"), { cwd });
    expect(denied).toMatchObject({
      outcome: "denied",
      reason: "guard: /repo/protected/secret.txt is inside a protected folder",
    });
    const allowed = await runHook(guard, write("/repo/src/a.ts", "/repo/protected-not/x"), { cwd });
    expect(allowed).toMatchObject({ outcome: "continued" });
  });

  it("continues for other tools", async () => {
    const payload = buildHookPayload("PreToolUse", {
      cwd,
      tool: {
        identity: "builtin/todo",
        name: "todo",
        arguments: { mode: "replace", items: [{ id: "rm", label: "rm -rf" }] },
      },
    });
    expect(await runHook(guard, payload, { cwd })).toMatchObject({ outcome: "continued" });
  });

  it("through the dispatcher: subscriptions decide whether it runs at all", async () => {
    const hooks = createHookDispatcher([guard], {
      tools: [
        {
          name: "bash",
          identity: "builtin/bash",
          inputSchema: BASH_INPUT_SCHEMA,
          conditionSources: ["arguments"],
        },
        {
          name: "write_file",
          identity: "builtin/write_file",
          inputSchema: WRITE_FILE_INPUT_SCHEMA,
          effectsSchema: FILES_EFFECTS_SCHEMA,
          conditionSources: ["effects"],
        },
      ],
    });
    expect(await hooks.run("PreToolUse", bash("ls -la"))).toEqual({ receipts: [] });
    expect(await hooks.run("PreToolUse", write("/repo/a"))).toEqual({ receipts: [] });
    const denied = await hooks.run("PreToolUse", bash("ls", "rm -rf build"));
    expect(denied).toMatchObject({ blocked: "denied", receipts: [{ id: "agent/guard", outcome: "denied" }] });
    const protectedWrite = await hooks.run("PreToolUse", write("/repo/protected/a"));
    expect(protectedWrite).toMatchObject({
      blocked: "denied",
      reason: "guard: /repo/protected/a is inside a protected folder",
    });
  });
});

describe("notify (PostToolUseFailure, Stop)", () => {
  it("prints a short message for a failed tool call", async () => {
    const payload = buildHookPayload("PostToolUseFailure", {
      cwd,
      turn_id: "op-2",
      tool: {
        identity: "builtin/bash",
        name: "bash",
        arguments: { commands: [{ command: "false" }] },
        result: { isError: true, code: "command_failed", content: [{ type: "text", text: "exit 1\nmore" }] },
      },
    });
    const result = await runHook(notify, payload, { cwd });
    expect(result).toMatchObject({ outcome: "continued", message: "bash failed: command_failed — exit 1" });
    expect(result.decision).toBeUndefined();
    expect(result.receipt).toMatchObject({
      id: "agent/notify",
      event: "PostToolUseFailure",
      message: "bash failed: command_failed — exit 1",
    });
  });

  it("prints a short message when a run stops", async () => {
    const payload = buildHookPayload("Stop", {
      cwd,
      turn_id: "op-3",
      run: { status: "completed", steps: 3 },
    });
    const result = await runHook(notify, payload, { cwd });
    expect(result).toMatchObject({ outcome: "continued", message: "run completed after 3 steps" });
    const failed = buildHookPayload("Stop", {
      cwd,
      turn_id: "op-4",
      run: { status: "error", steps: 1, code: "hook_denied", message: "no" },
    });
    expect((await runHook(notify, failed, { cwd })).message).toBe("run error after 1 step (hook_denied)");
  });

  it("keeps its message within 512 bytes", async () => {
    const payload = buildHookPayload("PostToolUseFailure", {
      cwd,
      tool: {
        identity: "builtin/write_file",
        name: "write_file",
        arguments: {},
        result: { isError: true, code: "tool_error", content: [{ type: "text", text: "é".repeat(600) }] },
      },
    });
    const result = await runHook(notify, payload, { cwd });
    expect(result.outcome).toBe("continued");
    expect(Buffer.byteLength(result.message ?? "")).toBeLessThanOrEqual(512);
    expect(result.message?.endsWith("…")).toBe(true);
  });
});
