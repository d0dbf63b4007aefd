import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHookDispatcher, loadHookFolder } from "@raw/hook-protocol";
import { createPanelHost, resolveAction } from "@raw/panel/host";
import { createToolRegistry, type LoadedTool, loadToolFolders } from "@raw/tool-api";
import { bundledToolFolders } from "@raw/tools";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../cli/helpers.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
let tools: LoadedTool[];

beforeAll(async () => {
  tools = await loadToolFolders(bundledToolFolders());
});

describe("the bundled tools through the registry", () => {
  it("load as builtin tools and register together", () => {
    const registry = createToolRegistry();
    registry.register(tools.map((tool) => tool.registration));
    expect(registry.definitions().map((d) => d.name)).toEqual([
      "write_file",
      "bash",
      "todo",
      "ask_user",
      "diagram",
    ]);
  });

  it("write_file: effects feed an `ask` rule on files[*].path; validateArgs and the handler run in the pipeline", async () => {
    const registry = createToolRegistry({
      rules: [
        {
          match: "builtin/write_file",
          effect: "ask",
          when: { source: "effects", any: "files[*].path", regex: "/protected/" },
        },
      ],
    });
    registry.register(tools.map((tool) => tool.registration));
    const cwd = tempDir();
    const guarded = await registry.dispatch(
      {
        name: "write_file",
        arguments: { patch: "*** Begin Patch\n*** Add File: protected/x\n+x\n*** End Patch\n" },
      },
      { cwd },
    );
    expect(guarded).toMatchObject({ isError: true, code: "approval_required" });
    const invalid = await registry.dispatch({ name: "write_file", arguments: { patch: "nope" } }, { cwd });
    expect(invalid).toMatchObject({ isError: true, code: "invalid_arguments" });
    const ok = await registry.dispatch(
      {
        name: "write_file",
        arguments: { operations: [{ path: "notes/a.md", mode: "overwrite", content: "hi" }] },
      },
      { cwd },
    );
    expect(ok).toMatchObject({
      isError: false,
      content: [{ type: "json", value: { results: [{ status: "ok", bytes_written: 2 }] } }],
    });
    expect(readFileSync(join(cwd, "notes/a.md"), "utf8")).toBe("hi");
  });

  it("bash: the guard hook denies a direct rm before the handler runs", async () => {
    const hook = await loadHookFolder(join(root, "hooks/guard"), {
      id: "agent/guard",
      snapshotDir: tempDir(),
    });
    const hooks = createHookDispatcher([hook], {
      tools: tools.map((tool) => ({
        name: tool.registration.name,
        identity: tool.identity,
        inputSchema: tool.registration.inputSchema,
        effectsSchema: tool.registration.effectsSchema,
        conditionSources: tool.registration.conditionSources,
      })),
    });
    // The two packages type `effects` differently (unknown vs. an object); the port is the same at run time.
    const registry = createToolRegistry({ preToolUse: (request) => hooks.preToolUse(request as never) });
    registry.register(tools.map((tool) => tool.registration));
    const cwd = tempDir();
    const denied = await registry.dispatch(
      { name: "bash", arguments: { commands: [{ command: "touch a" }, { command: "rm a" }] } },
      { cwd },
    );
    expect(denied).toMatchObject({ isError: true, code: "hook_denied" });
    const allowed = await registry.dispatch(
      { name: "bash", arguments: { commands: [{ command: "echo hi" }] } },
      { cwd },
    );
    expect(allowed).toMatchObject({
      isError: false,
      exitCode: 0,
      content: [{ value: { results: [{ stdout: "hi\n" }] } }],
    });
  });

  it("todo: a panel action runs the declaring tool again with source user_action", async () => {
    const host = createPanelHost();
    const registry = createToolRegistry({ panelSink: host.sink });
    registry.register(tools.map((tool) => tool.registration));
    const todo = tools.find((tool) => tool.identity === "builtin/todo");
    if (todo?.registration.panels === undefined) throw new Error("todo has no panels");
    const declarations = todo.registration.panels as never;
    const run = async (args: unknown, source: "model" | "user_action", toolCallId: string) => {
      const call = host.beginCall({ owner: "builtin/todo", declarations, toolCallId, source });
      const result = await registry.dispatch(
        { name: "todo", arguments: args, toolCallId, source },
        { cwd: "/work", panels: call.context as never },
      );
      call.closeContext();
      const settled = call.settle({ hasOtherContent: result.content.length > 0 });
      return { result, settled };
    };
    const first = await run(
      {
        mode: "replace",
        items: [
          { id: "a", label: "Write it" },
          { id: "b", label: "Ship it" },
        ],
      },
      "model",
      "c1",
    );
    expect(first.result.content).toEqual([{ type: "text", text: "todo updated (revision 1): 0/2" }]);

    const panel = host.get("builtin/todo#todo");
    const resolved = resolveAction(
      panel?.declaration as never,
      panel?.document as never,
      { action: "done", block: "tasks", item: "a" },
      { toolName: "todo", operationId: "op-1" },
    );
    if (!resolved.ok || resolved.kind !== "tool") throw new Error(JSON.stringify(resolved));
    const clicked = await run(resolved.call.arguments, "user_action", resolved.call.toolCallId);
    expect(clicked.result.content).toEqual([{ type: "text", text: "todo updated (revision 2): 1/2" }]);
    expect(clicked.settled.receipts).toMatchObject([{ panel: "todo", revision: 2, source: "user_action" }]);
  });
});
