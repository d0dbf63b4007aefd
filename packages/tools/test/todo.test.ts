import { renderPanelText, validatePanelUpdate } from "@raw/panel";
import { extractPanelBlocks, resolveAction } from "@raw/panel/host";
import { describe, expect, it } from "vitest";
import { handler, validateArgs } from "../src/todo/index.js";
import { TODO_INPUT_SCHEMA, TODO_MANIFEST } from "../src/todo/manifest.js";
import { schemaChecked, schemaRejects, textOf } from "./helpers.js";
import { panelSession } from "./panel-context.js";

const cwd = "/work";
const owner = "builtin/todo";

const plan = {
  mode: "replace",
  title: "Ship",
  items: [
    { id: "t1", label: "Write the failing test", status: "done" },
    { id: "t2", label: "Fix the API", status: "in_progress" },
    { id: "t5", label: "Validate input", status: "blocked", parent: "t2" },
    { id: "t3", label: "Update docs" },
  ],
} as const;

describe("todo: replace and merge through context.panels", () => {
  it("replace publishes a new checklist document, nested by parent; the result is one short line", async () => {
    const session = panelSession(owner, TODO_MANIFEST);
    const { call, context } = session.begin(cwd);
    const result = await handler(plan, context);
    expect(result).toEqual({
      isError: false,
      content: [{ type: "text", text: "todo updated (revision 1): 1/3 · Fix the API" }],
    });
    expect(renderPanelText("Todo", context.panels.get("todo")?.document as never)).toBe(
      [
        "Ship (1/3)",
        "[x] Write the failing test",
        "[~] Fix the API",
        "  [!] Validate input",
        "[ ] Update docs",
      ].join("\n"),
    );
    call.settle({ hasOtherContent: true });
  });

  it("merge upserts by id (fields kept), appends new items, removes ids and sets the title", async () => {
    const session = panelSession(owner, TODO_MANIFEST);
    const first = session.begin(cwd);
    await handler(plan, first.context);
    first.call.settle({ hasOtherContent: true });

    const { call, context } = session.begin(cwd);
    const result = await handler(
      {
        mode: "merge",
        title: "Ship it",
        items: [
          { id: "t2", status: "done" },
          { id: "t6", label: "Add a regression test", parent: "t2" },
          { id: "t4", label: "Release", priority: "high" },
        ],
        remove: ["t5"],
      },
      context,
    );
    expect(textOf(result)).toBe("todo updated (revision 2): 1/4");
    expect(renderPanelText("Todo", context.panels.get("todo")?.document as never)).toBe(
      [
        "Ship it (1/4)",
        "[x] Write the failing test",
        "[x] Fix the API",
        "  [ ] Add a regression test",
        "[ ] Update docs",
        "[ ] Release",
      ].join("\n"),
    );
    const settled = call.settle({ hasOtherContent: true });
    expect(settled.receipts).toMatchObject([{ panel: "todo", revision: 2, op: "patch", source: "tool" }]);
  });

  it("merge on a panel without a document creates the list", async () => {
    const session = panelSession(owner, TODO_MANIFEST);
    const { context } = session.begin(cwd);
    const result = await handler({ mode: "merge", items: [{ id: "a", label: "A" }] }, context);
    expect(textOf(result)).toBe("todo updated (revision 1): 0/1");
  });

  it("a rejected update is an error result with the panel code", async () => {
    const session = panelSession(owner, TODO_MANIFEST);
    const first = session.begin(cwd);
    await handler(plan, first.context);
    first.call.settle({ hasOtherContent: true });
    const { context } = session.begin(cwd);
    const result = await handler({ mode: "merge", items: [{ id: "new", status: "done" }] }, context);
    expect(result).toMatchObject({ isError: true, code: "panel_invalid" });
    expect(textOf(result)).toBe("/blocks/0/items/3/label: must be a string");
    expect(context.panels.get("todo")?.revision).toBe(1);
  });
});

describe("todo: without context.panels", () => {
  it("returns only a panel result block; the host confirms it to the model", async () => {
    const result = await handler(plan, { cwd, maxOutputBytes: 65_536 });
    expect(result.isError).toBe(false);
    expect(result.content).toHaveLength(1);
    const block = result.content[0] as Record<string, unknown>;
    expect(block).toMatchObject({ type: "panel", panel: "todo", op: "replace" });
    expect(validatePanelUpdate(block, { ignoreKeys: ["type"] }).ok).toBe(true);

    const session = panelSession(owner, TODO_MANIFEST);
    const { call } = session.begin(cwd);
    const { content, panelBlocks } = extractPanelBlocks(result.content);
    call.applyResultBlocks(panelBlocks);
    expect(call.settle({ hasOtherContent: content.length > 0 }).modelLines).toEqual([
      "panel todo updated (revision 1): 1/3 · Fix the API",
    ]);
  });

  it("merge becomes a patch block", async () => {
    const result = await handler(
      { mode: "merge", items: [{ id: "t1", status: "done" }] },
      { cwd, maxOutputBytes: 1000 },
    );
    expect(result.content).toEqual([
      {
        type: "panel",
        panel: "todo",
        op: "patch",
        patches: [{ op: "upsert_items", block: "tasks", items: [{ id: "t1", status: "done" }] }],
      },
    ]);
  });
});

describe("todo: item actions", () => {
  it("the primary `done` action resolves to arguments that mark the item done through the handler", async () => {
    const session = panelSession(owner, TODO_MANIFEST);
    const first = session.begin(cwd);
    await handler(plan, first.context);
    first.call.settle({ hasOtherContent: true });
    const declaration = session.declarations[0];
    if (declaration === undefined) throw new Error("no declaration");
    const document = session.host.get("builtin/todo#todo")?.document;

    const resolved = resolveAction(
      declaration,
      document as never,
      { action: "done", block: "tasks", item: "t3" },
      {
        toolName: "todo",
      },
    );
    if (!resolved.ok || resolved.kind !== "tool") throw new Error(JSON.stringify(resolved));
    expect(resolved.arguments).toEqual({ mode: "merge", items: [{ id: "t3", status: "done" }] });
    expect(resolved.call).toMatchObject({ name: "todo", source: "user_action" });
    expect(validateArgs(schemaChecked(TODO_INPUT_SCHEMA, resolved.arguments))).toBeUndefined();

    const { call, context } = session.begin(cwd, "user_action");
    const result = await handler(resolved.arguments as never, context);
    expect(textOf(result)).toBe("todo updated (revision 2): 2/3 · Fix the API");
    expect(call.settle({ hasOtherContent: true }).receipts[0]).toMatchObject({ source: "user_action" });

    const again = resolveAction(declaration, session.host.get("builtin/todo#todo")?.document as never, {
      action: "done",
      block: "tasks",
      item: "t3",
    });
    expect(again).toMatchObject({ ok: false });
  });

  it("every declared action resolves on a matching item", () => {
    const declaration = panelSession(owner, TODO_MANIFEST).declarations[0];
    if (declaration === undefined) throw new Error("no declaration");
    const document = {
      blocks: [
        {
          id: "tasks",
          kind: "checklist",
          items: [
            { id: "p", label: "Pending" },
            { id: "d", label: "Done", status: "done" },
          ],
        },
      ],
    };
    const resolve = (action: string, item?: string) =>
      resolveAction(declaration, document as never, item ? { action, block: "tasks", item } : { action });
    expect(resolve("start", "p")).toMatchObject({
      ok: true,
      arguments: { items: [{ id: "p", status: "in_progress" }] },
    });
    expect(resolve("reopen", "d")).toMatchObject({
      ok: true,
      arguments: { items: [{ id: "d", status: "pending" }] },
    });
    expect(resolve("discuss", "p")).toMatchObject({
      ok: true,
      kind: "prompt",
      text: "About the task Pending (p): ",
    });
    expect(resolve("clear")).toMatchObject({ ok: true, arguments: { mode: "replace", items: [] } });
    const cleared = resolve("clear");
    if (cleared.ok && cleared.kind === "tool")
      expect(validateArgs(schemaChecked(TODO_INPUT_SCHEMA, cleared.arguments))).toBeUndefined();
  });
});

describe("todo: arguments", () => {
  // What the input schema guarantees; dispatch checks it first, so validateArgs no longer repeats it.
  it.each([
    [[], ""],
    [{ mode: "replace", extra: 1 }, ""],
    [{ mode: "append" }, "/mode"],
    [{ mode: "replace", items: [{ id: "a b", label: "x" }] }, "/items/0/id"],
    [{ mode: "merge", items: [{ id: "a", status: "loud" }] }, "/items/0/status"],
    [{ mode: "merge", items: [{ id: "a", color: "red" }] }, "/items/0"],
    [{ mode: "merge", items: [{ id: "a", parent: 7 }] }, "/items/0/parent"],
    [{ mode: "merge", remove: "a" }, "/remove"],
  ])("the input schema rejects %j at %j", (args, path) => {
    expect(schemaRejects(TODO_INPUT_SCHEMA, args)).toContain(path);
  });

  // What only validateArgs checks: the schema accepts these.
  it.each([
    [{ mode: "replace", title: "a\rb" }, "/title: contains a control character"],
    [{ mode: "replace", items: [{ id: "a" }] }, "/items/0/label: is required"],
    [{ mode: "merge", items: [{ id: "a", note: "x\u0007" }] }, "/items/0/note: contains a control character"],
    [
      {
        mode: "replace",
        items: [
          { id: "a", label: "x" },
          { id: "a", label: "y" },
        ],
      },
      "/items/1/id: duplicate item id",
    ],
    [
      { mode: "replace", items: [{ id: "a", label: "x", parent: "z" }] },
      "/items/0/parent: must name an earlier item",
    ],
    [
      {
        mode: "replace",
        items: [
          { id: "a", label: "1" },
          { id: "b", label: "2", parent: "a" },
          { id: "c", label: "3", parent: "b" },
          { id: "d", label: "4", parent: "c" },
        ],
      },
      "/items/3/parent: nesting is at most 3 levels",
    ],
    [{ mode: "replace", items: [], remove: ["a"] }, "/remove: is only for merge mode"],
    [{ mode: "merge" }, "/items: merge needs items, remove or title"],
  ])("validateArgs(%j) → %s", (args, message) => {
    expect(validateArgs(schemaChecked(TODO_INPUT_SCHEMA, args))).toBe(message);
  });

  it("accepts a merge of partial items and a replace with an empty list", () => {
    expect(
      validateArgs({ mode: "merge", items: [{ id: "a", status: "done" }], remove: ["b"] }),
    ).toBeUndefined();
    expect(validateArgs({ mode: "replace", items: [] })).toBeUndefined();
  });
});
