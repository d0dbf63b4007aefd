import { describe, expect, it } from "vitest";
import { type ActionRequest, resolveAction, userActionNote } from "../src/host-entry.js";
import type { PanelAction, PanelDeclaration, PanelDocument } from "../src/types.js";

const actions: PanelAction[] = [
  { id: "refresh", label: "Refresh", scope: "panel", kind: "prompt", text: "Refresh {{panel.id}}" },
  { id: "when-panel", label: "W", scope: "panel", kind: "prompt", text: "x", when: { status: ["done"] } },
  { id: "when-block", label: "W", scope: "block", kind: "prompt", text: "x", when: { status: ["done"] } },
  {
    id: "summarize",
    label: "Sum",
    scope: "block",
    kind: "prompt",
    text: "Sum {{ block.id }}",
    blocks: ["tasks"],
  },
  { id: "bad-block", label: "Bad", scope: "block", kind: "prompt", text: "{{item.id}}" },
  {
    id: "retry",
    label: "Retry",
    scope: "item",
    kind: "tool",
    arguments: { step: "{{item.id}}", nested: ["{{ item.label }} in {{block.id}}", 3, true, null], n: 1 },
    when: { status: ["failed", "pending"] },
  },
  { id: "open", label: "Open", scope: "item", kind: "prompt", text: "Open {{item.label}}", send: true },
  { id: "send", label: "Send", scope: "block", kind: "response", response: "submit" },
];

const declaration: PanelDeclaration = {
  id: "todo",
  title: "Todo",
  icon: "panel",
  open: "never",
  context: "none",
  placement: "sidebar",
  acp_plan: false,
  actions,
};

const document: PanelDocument = {
  blocks: [
    {
      id: "tasks",
      kind: "checklist",
      items: [
        { id: "t1", label: "One", status: "done" },
        { id: "t2", label: "Two", children: [{ id: "t5", label: "Five", status: "failed" }] },
      ],
    },
    { id: "s", kind: "steps", items: [{ id: "s1", label: "Step", status: "in_progress" }] },
    {
      id: "tbl",
      kind: "table",
      columns: [
        { id: "name", label: "Name" },
        { id: "v", label: "V" },
      ],
      rows: [
        { id: "r1", cells: { name: "Alpha", v: "1" } },
        { id: "r2", cells: { v: "2" } },
      ],
    },
    { id: "kv", kind: "key_value", entries: [{ key: "k", value: "v" }] },
    { id: "form", kind: "form", fields: [{ id: "f", label: "F", kind: "text" }] },
  ],
};

const resolve = (request: ActionRequest) =>
  resolveAction(declaration, document, request, { operationId: "op-1" });

describe("resolveAction failures, first failure wins", () => {
  it.each<[string, ActionRequest, string]>([
    ["no such action", { action: "nope" }, 'panel todo has no action "nope"'],
    [
      "panel scope with a block",
      { action: "refresh", block: "tasks" },
      "a panel action takes no block or item",
    ],
    ["panel scope with an item", { action: "refresh", item: "t1" }, "a panel action takes no block or item"],
    [
      "panel scope with when",
      { action: "when-panel" },
      "this action is only offered for items with a status",
    ],
    [
      "block scope with when",
      { action: "when-block", block: "tasks" },
      "this action is only offered for items with a status",
    ],
    ["block scope without a block", { action: "summarize" }, 'action "summarize" needs a block'],
    ["item scope without a block", { action: "retry", item: "t1" }, 'action "retry" needs a block'],
    [
      "a block outside blocks",
      { action: "summarize", block: "s" },
      'action "summarize" does not apply to block "s"',
    ],
    [
      "blocks checked before existence",
      { action: "summarize", block: "missing" },
      'action "summarize" does not apply to block "missing"',
    ],
    [
      "a missing block",
      { action: "retry", block: "missing", item: "x" },
      'block "missing" does not exist in the panel',
    ],
    [
      "block scope with an item",
      { action: "summarize", block: "tasks", item: "t1" },
      "a block action takes no item",
    ],
    ["item scope without an item", { action: "retry", block: "tasks" }, 'action "retry" needs an item'],
    [
      "a missing item",
      { action: "retry", block: "tasks", item: "zz" },
      'item "zz" does not exist in block "tasks"',
    ],
    [
      "an item of a kind without items",
      { action: "retry", block: "kv", item: "k" },
      'item "k" does not exist in block "kv"',
    ],
    [
      "a status outside when",
      { action: "retry", block: "tasks", item: "t1" },
      'action "retry" is not available for an item with status done',
    ],
    [
      "a missing status counts as pending",
      { action: "retry", block: "s", item: "s1" },
      'action "retry" is not available for an item with status in_progress',
    ],
    [
      "a response action on a non-form block",
      { action: "send", block: "tasks" },
      "a response action requires a form block",
    ],
    [
      "an unresolvable template",
      { action: "bad-block", block: "tasks" },
      "template {{item.id}} cannot be resolved for this action",
    ],
  ])("%s", (_name, request, message) => {
    expect(resolve(request)).toEqual({ ok: false, issues: [{ code: "invalid_action", message }] });
  });
});

describe("resolveAction successes", () => {
  it("resolves a prompt action to its text", () => {
    expect(resolve({ action: "refresh" })).toEqual({
      ok: true,
      kind: "prompt",
      action: actions[0],
      text: "Refresh todo",
      send: false,
    });
    expect(resolve({ action: "summarize", block: "tasks" })).toMatchObject({ text: "Sum tasks" });
  });

  it("resolves a tool action to its arguments and a user_action call that is not approval", () => {
    const r = resolve({ action: "retry", block: "tasks", item: "t5" });
    expect(r).toEqual({
      ok: true,
      kind: "tool",
      action: actions[5],
      arguments: { step: "t5", nested: ["Five in tasks", 3, true, null], n: 1 },
      call: {
        arguments: { step: "t5", nested: ["Five in tasks", 3, true, null], n: 1 },
        toolCallId: "op-1",
        source: "user_action",
      },
    });
    const named = resolveAction(
      declaration,
      document,
      { action: "retry", block: "tasks", item: "t2" },
      {
        toolName: "todo_tool",
      },
    );
    expect(named.ok && named.kind === "tool" && named.call.name).toBe("todo_tool");
    expect(named.ok && named.kind === "tool" && typeof named.call.toolCallId).toBe("string");
  });

  it("uses a table row's first-column cell as its label, else the row id", () => {
    expect(resolve({ action: "open", block: "tbl", item: "r1" })).toMatchObject({
      text: "Open Alpha",
      send: true,
    });
    expect(resolve({ action: "open", block: "tbl", item: "r2" })).toMatchObject({ text: "Open r2" });
  });

  it("resolves a response action to the action alone", () => {
    expect(resolve({ action: "send", block: "form" })).toEqual({
      ok: true,
      kind: "response",
      action: actions[7],
      response: "submit",
    });
  });

  it("finds nested checklist items and steps", () => {
    expect(resolve({ action: "open", block: "tasks", item: "t5" })).toMatchObject({ text: "Open Five" });
    expect(resolve({ action: "open", block: "s", item: "s1" })).toMatchObject({ text: "Open Step" });
  });

  it("treats a panel without a document as having no blocks", () => {
    expect(resolveAction(declaration, undefined, { action: "summarize", block: "tasks" })).toEqual({
      ok: false,
      issues: [{ code: "invalid_action", message: 'block "tasks" does not exist in the panel' }],
    });
  });
});

describe("userActionNote", () => {
  it("tells the model once what the user ran, in front of the user's text", () => {
    const input = { label: "Retry", title: "Todo", owner: "tools/todo", result: "ok" };
    expect(userActionNote(input)).toBe('The user ran "Retry" on Todo; tools/todo returned: ok');
    expect(userActionNote(input, "and now?")).toBe(
      'The user ran "Retry" on Todo; tools/todo returned: ok\n\nand now?',
    );
  });

  it("keeps at most 1 KiB of the result text", () => {
    const note = userActionNote({ label: "L", title: "T", owner: "o", result: "é".repeat(1000) });
    const result = note.slice(note.indexOf("returned: ") + "returned: ".length);
    expect(result).toBe(`${"é".repeat(510)}…`);
  });
});
