import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyPanelUpdate, type PanelDocument, updatePanelState } from "../src/index.js";
import { accept } from "./helpers.js";

const stored = accept({
  title: "Ship",
  status: "active",
  progress: { done: 1, total: 4 },
  blocks: [
    {
      id: "tasks",
      kind: "checklist",
      items: [
        { id: "t1", label: "One", status: "done" },
        {
          id: "t2",
          label: "Two",
          children: [
            { id: "t3", label: "Three", children: [{ id: "t4", label: "Four", status: "blocked" }] },
            { id: "t5", label: "Five" },
          ],
        },
      ],
    },
    { id: "steps", kind: "steps", items: [{ id: "s1", label: "Build" }] },
    { id: "kv", kind: "key_value", entries: [{ key: "env", value: "prod" }] },
    {
      id: "tbl",
      kind: "table",
      columns: [
        { id: "name", label: "Name" },
        { id: "size", label: "Size" },
      ],
      rows: [{ id: "r1", cells: { name: "a", size: "1" } }],
    },
    { id: "files", kind: "files", entries: [{ path: "a.ts", status: "added" }] },
    {
      id: "log",
      kind: "timeline",
      max: 3,
      events: [
        { id: "e1", at: 1, level: "info", label: "one" },
        { id: "e2", at: 2, level: "info", label: "two" },
      ],
    },
    { id: "md", kind: "markdown", text: "hello" },
  ],
});

function patched(...patches: unknown[]): PanelDocument {
  const result = applyPanelUpdate(stored, { panel: "todo", op: "patch", patches });
  if (!result.ok) throw new Error(`expected the patch to apply: ${JSON.stringify(result.issues)}`);
  return result.document;
}

function rejected(...patches: unknown[]) {
  const before = JSON.stringify(stored);
  const result = applyPanelUpdate(stored, { panel: "todo", op: "patch", patches });
  expect(JSON.stringify(stored)).toBe(before);
  if (result.ok) throw new Error("expected the patch to be rejected");
  expect(result.issues).toHaveLength(1);
  return result.issues[0];
}

const rejectedMessage = (...patches: unknown[]) => rejected(...patches)?.message;

function block<T = Record<string, unknown>>(document: PanelDocument, id: string): T {
  return document.blocks.find((b) => b.id === id) as T;
}

type Tree = { id: string; label: string; status?: string; children?: Tree[] };
const ids = (items: Tree[] | undefined): unknown[] =>
  (items ?? []).map((i) => (i.children === undefined ? i.id : [i.id, ids(i.children)]));

describe("set", () => {
  it("sets and removes top-level fields", () => {
    const document = patched(
      { op: "set", field: "title", value: "New" },
      { op: "set", field: "status", value: null },
      { op: "set", field: "progress", value: null },
      { op: "set", field: "summary", value: "" },
      { op: "set", field: "context_summary", value: "ctx" },
      { op: "set", field: "subtitle", value: "sub" },
    );
    expect(document).toMatchObject({ title: "New", summary: "", context_summary: "ctx", subtitle: "sub" });
    expect("status" in document).toBe(false);
    expect("progress" in document).toBe(false);
  });

  it("copies the value and judges it in the final validation", () => {
    const progress = { done: 2, total: 4 };
    const document = patched({ op: "set", field: "progress", value: progress });
    expect(document.progress).toEqual(progress);
    expect(document.progress).not.toBe(progress);
    expect(rejectedMessage({ op: "set", field: "summary", value: 3 })).toBe("/summary: must be a string");
    expect(rejectedMessage({ op: "set", field: "status", value: "loud" })).toBe(
      "/status: must be one of idle, active, done, failed",
    );
    expect(rejectedMessage({ op: "set", field: "progress", value: { done: 5, total: 4 } })).toBe(
      "/progress/done: must not exceed total",
    );
  });
});

describe("set_block and remove_block", () => {
  const note = { id: "note", kind: "markdown", text: "n" };

  it("replaces a block in place, ignoring before", () => {
    const document = patched({
      op: "set_block",
      block: { id: "kv", kind: "markdown", text: "x" },
      before: "tasks",
    });
    expect(document.blocks.map((b) => b.id)).toEqual(["tasks", "steps", "kv", "tbl", "files", "log", "md"]);
    expect(block(document, "kv")).toEqual({ id: "kv", kind: "markdown", text: "x" });
  });

  it("inserts before a block or appends", () => {
    expect(patched({ op: "set_block", block: note, before: "steps" }).blocks.map((b) => b.id)).toEqual([
      "tasks",
      "note",
      "steps",
      "kv",
      "tbl",
      "files",
      "log",
      "md",
    ]);
    expect(patched({ op: "set_block", block: note }).blocks.at(-1)?.id).toBe("note");
  });

  it("rejects an unknown before block and a shape error inside the block", () => {
    expect(rejected({ op: "set_block", block: note, before: "nope" })).toEqual({
      code: "panel_invalid",
      message: '/patches/0/before: unknown block "nope"',
      path: "/patches/0/before",
    });
    expect(rejectedMessage({ op: "set_block", block: { ...note, text: 1 } })).toBe(
      "/patches/0/block/text: must be a string",
    );
  });

  it("removes a block, and fails when the same id is removed twice", () => {
    expect(patched({ op: "remove_block", id: "md" }).blocks.map((b) => b.id)).not.toContain("md");
    expect(rejectedMessage({ op: "remove_block", id: "md" }, { op: "remove_block", id: "md" })).toBe(
      '/patches/1/id: unknown block "md"',
    );
  });

  it("rejects a 21st block in the final validation", () => {
    const blocks = Array.from({ length: 13 }, (_, i) => ({
      op: "set_block",
      block: { id: `x${i}`, kind: "markdown", text: "" },
    }));
    expect(
      rejectedMessage(...blocks.slice(0, 13), {
        op: "set_block",
        block: { id: "y", kind: "markdown", text: "" },
      }),
    ).toBe("/blocks: must have at most 20 entries");
  });
});

describe("upsert_items", () => {
  it("merges an existing item keeping omitted fields and appends new ones (the spec's example)", () => {
    const document = patched(
      {
        op: "upsert_items",
        block: "tasks",
        items: [
          { id: "t1", status: "in_progress" },
          { id: "t9", label: "Nine" },
        ],
      },
      { op: "set", field: "status", value: "done" },
    );
    const items = block<{ items: Tree[] }>(document, "tasks").items;
    expect(items[0]).toEqual({ id: "t1", label: "One", status: "in_progress" });
    expect(items.at(-1)).toEqual({ id: "t9", label: "Nine" });
    expect(document.status).toBe("done");
  });

  it("finds a nested item anywhere and updates it in place, even with another parent named", () => {
    const document = patched({
      op: "upsert_items",
      block: "tasks",
      parent: "t1",
      items: [{ id: "t4", status: "done" }],
    });
    const items = block<{ items: Tree[] }>(document, "tasks").items;
    expect(ids(items)).toEqual(["t1", ["t2", [["t3", ["t4"]], "t5"]]]);
    expect(items[1]?.children?.[0]?.children?.[0]).toEqual({ id: "t4", label: "Four", status: "done" });
  });

  it("appends a new item under its parent, creating children when absent", () => {
    const document = patched(
      { op: "upsert_items", block: "tasks", parent: "t5", items: [{ id: "t6", label: "Six" }] },
      { op: "upsert_items", block: "tasks", parent: "t2", items: [{ id: "t7", label: "Seven" }] },
    );
    expect(ids(block<{ items: Tree[] }>(document, "tasks").items)).toEqual([
      "t1",
      ["t2", [["t3", ["t4"]], ["t5", ["t6"]], "t7"]],
    ]);
  });

  it("drops old descendants when children are replaced; later upserts see the new tree", () => {
    const document = patched({
      op: "upsert_items",
      block: "tasks",
      items: [
        { id: "t2", children: [{ id: "n1", label: "New" }] },
        { id: "t4", label: "Four again" },
        { id: "n1", status: "done" },
      ],
    });
    const items = block<{ items: Tree[] }>(document, "tasks").items;
    expect(ids(items)).toEqual(["t1", ["t2", ["n1"]], "t4"]);
    expect(items[1]?.children?.[0]).toEqual({ id: "n1", label: "New", status: "done" });
    expect(items[2]).toEqual({ id: "t4", label: "Four again" });
  });

  it("lets a new item become a parent in the same patch", () => {
    const document = patched(
      { op: "upsert_items", block: "tasks", items: [{ id: "p", label: "P" }] },
      { op: "upsert_items", block: "tasks", parent: "p", items: [{ id: "c", label: "C" }] },
    );
    expect(ids(block<{ items: Tree[] }>(document, "tasks").items)).toEqual([
      "t1",
      ["t2", [["t3", ["t4"]], "t5"]],
      ["p", ["c"]],
    ]);
  });

  it("merges flat kinds by their key field", () => {
    const document = patched(
      {
        op: "upsert_items",
        block: "steps",
        items: [
          { id: "s1", status: "done" },
          { id: "s2", label: "Ship" },
        ],
      },
      {
        op: "upsert_items",
        block: "kv",
        items: [
          { key: "env", value: "staging" },
          { key: "region", value: "eu" },
        ],
      },
      {
        op: "upsert_items",
        block: "tbl",
        items: [
          { id: "r1", cells: { size: "2" } },
          { id: "r2", cells: {} },
        ],
      },
      { op: "upsert_items", block: "files", items: [{ path: "a.ts", line: 3 }, { path: "b.ts" }] },
    );
    expect(block(document, "steps").items).toEqual([
      { id: "s1", label: "Build", status: "done" },
      { id: "s2", label: "Ship" },
    ]);
    expect(block(document, "kv").entries).toEqual([
      { key: "env", value: "staging" },
      { key: "region", value: "eu" },
    ]);
    expect(block(document, "tbl").rows).toEqual([
      { id: "r1", cells: { size: "2" } },
      { id: "r2", cells: {} },
    ]);
    expect(block(document, "files").entries).toEqual([
      { path: "a.ts", status: "added", line: 3 },
      { path: "b.ts" },
    ]);
  });

  it("turns a __proto__ key into an unknown field without polluting prototypes", () => {
    const items = JSON.parse('[{"id":"t1","__proto__":{"polluted":true}}]');
    expect(rejected({ op: "upsert_items", block: "tasks", items })).toEqual({
      code: "panel_invalid",
      message: "/blocks/0/items/0/__proto__: unknown field",
      path: "/blocks/0/items/0/__proto__",
    });
    const fresh = JSON.parse('[{"id":"z","label":"Z","__proto__":{"polluted":true}}]');
    expect(
      rejectedMessage(
        { op: "upsert_items", block: "kv", items: [{ key: "k", value: "v" }] },
        { op: "upsert_items", block: "tasks", items: fresh },
      ),
    ).toBe("/blocks/0/items/2/__proto__: unknown field");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    [{ op: "upsert_items", block: "nope", items: [{}] }, '/patches/0/block: unknown block "nope"'],
    [
      { op: "upsert_items", block: "log", items: [{}] },
      '/patches/0/block: block "log" (timeline) does not support upsert_items',
    ],
    [
      { op: "upsert_items", block: "md", items: [{}] },
      '/patches/0/block: block "md" (markdown) does not support upsert_items',
    ],
    [
      { op: "upsert_items", block: "steps", parent: "s1", items: [{}] },
      "/patches/0/parent: is only for checklist blocks",
    ],
    [{ op: "upsert_items", block: "tasks", items: [{ label: "x" }] }, "/patches/0/items/0/id: is required"],
    [{ op: "upsert_items", block: "tasks", items: [{ id: 1 }] }, "/patches/0/items/0/id: is required"],
    [{ op: "upsert_items", block: "kv", items: [{ id: "x" }] }, "/patches/0/items/0/key: is required"],
    [{ op: "upsert_items", block: "files", items: [{ id: "x" }] }, "/patches/0/items/0/path: is required"],
    [
      { op: "upsert_items", block: "tbl", items: [{ id: "r1" }, { key: "x" }] },
      "/patches/0/items/1/id: is required",
    ],
    [
      {
        op: "upsert_items",
        block: "tasks",
        parent: "nope",
        items: [{ id: "t1" }, { id: "new", label: "N" }],
      },
      '/patches/0/parent: unknown item "nope"',
    ],
    [
      {
        op: "upsert_items",
        block: "tasks",
        parent: "t5",
        items: [
          { id: "t5", children: "x" },
          { id: "n", label: "N" },
        ],
      },
      '/patches/0/parent: item "t5" has malformed children',
    ],
    [
      { op: "upsert_items", block: "tasks", items: [{ id: "t9" }] },
      "/blocks/0/items/2/label: must be a string",
    ],
    [
      { op: "upsert_items", block: "tasks", parent: "t4", items: [{ id: "t9", label: "Deep" }] },
      "/blocks/0/items/1/children/0/children/0/children: nesting is at most 3 levels",
    ],
    [
      { op: "upsert_items", block: "tbl", items: [{ id: "r1", cells: { other: "x" } }] },
      "/blocks/3/rows/0/cells/other: unknown column",
    ],
  ])("rejects %j", (p, message) => {
    expect(rejectedMessage(p)).toBe(message);
  });

  it("updates an existing item under an unknown parent without looking the parent up", () => {
    const document = patched({
      op: "upsert_items",
      block: "tasks",
      parent: "nope",
      items: [{ id: "t5", status: "done" }],
    });
    expect(ids(block<{ items: Tree[] }>(document, "tasks").items)).toEqual([
      "t1",
      ["t2", [["t3", ["t4"]], "t5"]],
    ]);
  });

  it("reports an exception while merging as a malformed item", () => {
    const item = {
      id: "t1",
      get label(): string {
        throw new Error("boom");
      },
    };
    expect(rejected({ op: "upsert_items", block: "tasks", items: [item] })).toEqual({
      code: "panel_invalid",
      message: "/patches: an item is malformed and could not be merged",
      path: "/patches",
    });
  });
});

describe("remove_items", () => {
  it("removes checklist items anywhere in the tree with their children", () => {
    const document = patched({ op: "remove_items", block: "tasks", ids: ["t3", "t1"] });
    expect(ids(block<{ items: Tree[] }>(document, "tasks").items)).toEqual([["t2", ["t5"]]]);
  });

  it("removes entries of every supported kind by their selector", () => {
    const document = patched(
      { op: "remove_items", block: "steps", ids: ["s1"] },
      { op: "remove_items", block: "kv", keys: ["env"] },
      { op: "remove_items", block: "tbl", ids: ["r1"] },
      { op: "remove_items", block: "files", paths: ["a.ts"] },
      { op: "remove_items", block: "log", ids: ["e2"] },
    );
    expect(block(document, "steps").items).toEqual([]);
    expect(block(document, "kv").entries).toEqual([]);
    expect(block(document, "tbl").rows).toEqual([]);
    expect(block(document, "files").entries).toEqual([]);
    expect(block(document, "log").events).toEqual([{ id: "e1", at: 1, level: "info", label: "one" }]);
  });

  it.each([
    [{ op: "remove_items", block: "nope", ids: ["a"] }, '/patches/0/block: unknown block "nope"'],
    [
      { op: "remove_items", block: "md", ids: ["a"] },
      '/patches/0/block: block "md" (markdown) does not support remove_items',
    ],
    [{ op: "remove_items", block: "tasks", keys: ["t1"] }, "/patches/0/keys: checklist blocks take ids"],
    [{ op: "remove_items", block: "kv", ids: ["env"] }, "/patches/0/ids: key_value blocks take keys"],
    [{ op: "remove_items", block: "files", ids: ["a.ts"] }, "/patches/0/ids: files blocks take paths"],
    [{ op: "remove_items", block: "log", paths: ["e1"] }, "/patches/0/paths: timeline blocks take ids"],
    [
      { op: "remove_items", block: "tasks", ids: ["t1", "zz"] },
      '/patches/0/ids: "zz" does not exist in block "tasks"',
    ],
    [
      { op: "remove_items", block: "tasks", ids: ["t3", "t4"] },
      '/patches/0/ids: "t4" does not exist in block "tasks"',
    ],
    [
      { op: "remove_items", block: "kv", keys: ["env", "env"] },
      '/patches/0/keys: "env" does not exist in block "kv"',
    ],
  ])("rejects %j", (p, message) => {
    expect(rejectedMessage(p)).toBe(message);
  });
});

describe("append_events", () => {
  const event = (id: string) => ({ id, at: 9, level: "success", label: id });

  it("appends and keeps only the newest max", () => {
    const document = patched({ op: "append_events", block: "log", events: [event("e3"), event("e4")] });
    expect(block<{ events: Array<{ id: string }> }>(document, "log").events.map((e) => e.id)).toEqual([
      "e2",
      "e3",
      "e4",
    ]);
  });

  it("keeps the newest 100 without max", () => {
    const withLog = accept({ blocks: [{ id: "log", kind: "timeline", events: [] }] });
    const events = Array.from({ length: 150 }, (_, i) => event(`e${i}`));
    const result = applyPanelUpdate(withLog, {
      panel: "p",
      op: "patch",
      patches: [{ op: "append_events", block: "log", events }],
    });
    const kept = result.ok
      ? (result.document.blocks[0] as unknown as { events: Array<{ id: string }> }).events
      : [];
    expect(kept).toHaveLength(100);
    expect(kept[0]?.id).toBe("e50");
  });

  it("judges duplicates and bad events in the final validation, after trimming", () => {
    expect(rejectedMessage({ op: "append_events", block: "log", events: [event("e2")] })).toBe(
      "/blocks/5/events/2/id: duplicate item id",
    );
    // [e1, e2] + [e1, x, y] keeps the newest 3: the old e1 is gone, so the new one is no duplicate.
    const kept = patched({
      op: "append_events",
      block: "log",
      events: [event("e1"), event("x"), event("y")],
    });
    expect(
      block<{ events: Array<{ id: string; at: number }> }>(kept, "log").events.map((e) => [e.id, e.at]),
    ).toEqual([
      ["e1", 9],
      ["x", 9],
      ["y", 9],
    ]);
    expect(rejectedMessage({ op: "append_events", block: "log", events: [{ id: "x" }] })).toBe(
      "/blocks/5/events/2/at: must be an integer of at least 0",
    );
  });

  it.each([
    [{ op: "append_events", block: "nope", events: [{}] }, '/patches/0/block: unknown block "nope"'],
    [
      { op: "append_events", block: "tasks", events: [{}] },
      '/patches/0/block: block "tasks" is not a timeline',
    ],
  ])("rejects %j", (p, message) => {
    expect(rejectedMessage(p)).toBe(message);
  });
});

describe("applyPanelUpdate", () => {
  it("re-validates the whole result, including the size", () => {
    const text = "a".repeat(13_000);
    const blocks = [0, 1, 2, 3, 4].map((i) => ({
      op: "set_block",
      block: { id: `big${i}`, kind: "markdown", text },
    }));
    expect(rejected(...blocks)?.code).toBe("panel_too_large");
  });

  it("applies patches atomically: a later failure discards earlier patches", () => {
    const before = JSON.stringify(stored);
    rejected({ op: "set", field: "title", value: "x" }, { op: "remove_block", id: "nope" });
    expect(JSON.stringify(stored)).toBe(before);
  });

  it("returns the replace document, keeps the document on close, and needs a document for patch and close", () => {
    const document = { blocks: [] };
    expect(applyPanelUpdate(undefined, { panel: "todo", op: "replace", document })).toMatchObject({
      ok: true,
      document,
    });
    expect(applyPanelUpdate(stored, { panel: "todo", op: "close" })).toMatchObject({
      ok: true,
      document: stored,
    });
    for (const update of [
      { panel: "todo", op: "close" },
      { panel: "todo", op: "patch", patches: [{ op: "set", field: "title", value: "x" }] },
    ]) {
      expect(applyPanelUpdate(undefined, update)).toEqual({
        ok: false,
        issues: [{ code: "panel_unknown", message: 'panel "todo" has no document yet' }],
      });
    }
  });

  it("reports a shape error before a missing document", () => {
    expect(applyPanelUpdate(undefined, { panel: "todo", op: "patch", patches: [] })).toMatchObject({
      ok: false,
      issues: [{ code: "panel_invalid", message: "/patches: must have at least 1 entries" }],
    });
  });

  it("never mutates a stored document that is not frozen, nor the update", () => {
    const plain = JSON.parse(JSON.stringify(stored)) as PanelDocument;
    const update = {
      panel: "todo",
      op: "patch",
      patches: [
        {
          op: "upsert_items",
          block: "tasks",
          items: [
            { id: "t4", status: "done" },
            { id: "n", label: "N" },
          ],
        },
        { op: "remove_items", block: "tasks", ids: ["t5"] },
        { op: "append_events", block: "log", events: [{ id: "e9", at: 1, level: "info", label: "x" }] },
        { op: "upsert_items", block: "tbl", items: [{ id: "r1", cells: { name: "b" } }] },
      ],
    };
    const before = JSON.stringify([plain, update]);
    const result = applyPanelUpdate(plain, update);
    expect(result.ok).toBe(true);
    expect(JSON.stringify([plain, update])).toBe(before);
    expect(result.ok && Object.isFrozen(result.document.blocks[0])).toBe(true);
  });

  it("shares untouched blocks with the previous document", () => {
    const document = patched({ op: "upsert_items", block: "kv", items: [{ key: "env", value: "x" }] });
    expect(document.blocks[0]).toBe(stored.blocks[0]);
    expect(document.blocks[2]).not.toBe(stored.blocks[2]);
  });

  it("takes the panel id from the host", () => {
    expect(applyPanelUpdate(undefined, { op: "close" }, { panel: "notes" })).toEqual({
      ok: false,
      issues: [{ code: "panel_unknown", message: 'panel "notes" has no document yet' }],
    });
  });
});

describe("updatePanelState", () => {
  const replace = { panel: "todo", op: "replace", document: { blocks: [] } };

  it("starts a new panel at revision 1 and counts accepted updates", () => {
    const first = updatePanelState(undefined, { ...replace, base_revision: 0 });
    expect(first).toMatchObject({
      ok: true,
      state: { revision: 1, closed: false },
      update: { op: "replace" },
    });
    if (!first.ok) return;
    const second = updatePanelState(first.state, {
      panel: "todo",
      op: "patch",
      base_revision: 1,
      patches: [{ op: "set", field: "title", value: "T" }],
    });
    expect(second).toMatchObject({
      ok: true,
      state: { revision: 2, closed: false, document: { title: "T", blocks: [] } },
    });
  });

  it("rejects a stale base revision after validation", () => {
    const state = { revision: 3, document: stored };
    expect(updatePanelState(state, { panel: "todo", op: "close", base_revision: 2 })).toEqual({
      ok: false,
      issues: [{ code: "panel_revision_conflict", message: 'panel "todo" is at revision 3, not 2' }],
    });
    expect(updatePanelState(undefined, { ...replace, base_revision: 1 })).toEqual({
      ok: false,
      issues: [{ code: "panel_revision_conflict", message: 'panel "todo" is at revision 0, not 1' }],
    });
    expect(
      updatePanelState(state, {
        panel: "todo",
        op: "patch",
        base_revision: 2,
        patches: [{ op: "set", field: "status", value: "x" }],
      }),
    ).toMatchObject({
      ok: false,
      issues: [{ code: "panel_invalid", message: "/status: must be one of idle, active, done, failed" }],
    });
    expect(updatePanelState(undefined, { panel: "todo", op: "close", base_revision: 5 })).toMatchObject({
      ok: false,
      issues: [{ code: "panel_unknown" }],
    });
  });

  it("closes, keeps the flag on patch, closes again with a new revision, and reopens on replace", () => {
    const open = { revision: 1, document: stored };
    const closed = updatePanelState(open, { panel: "todo", op: "close" });
    expect(closed).toMatchObject({ ok: true, state: { revision: 2, closed: true, document: stored } });
    if (!closed.ok) return;
    const patchedState = updatePanelState(closed.state, {
      panel: "todo",
      op: "patch",
      patches: [{ op: "set", field: "title", value: "x" }],
    });
    expect(patchedState).toMatchObject({ ok: true, state: { revision: 3, closed: true } });
    const again = updatePanelState(closed.state, { panel: "todo", op: "close" });
    expect(again).toMatchObject({ ok: true, state: { revision: 3, closed: true } });
    expect(updatePanelState(closed.state, replace)).toMatchObject({
      ok: true,
      state: { revision: 3, closed: false },
    });
  });
});

describe("properties", () => {
  const blockIds = fc.constantFrom("tasks", "steps", "kv", "tbl", "files", "log", "md", "nope", "__proto__");
  const itemKeys = fc.constantFrom(
    "t1",
    "t2",
    "t3",
    "t4",
    "t5",
    "s1",
    "env",
    "r1",
    "a.ts",
    "e1",
    "x",
    "__proto__",
  );
  const itemField = fc.dictionary(
    fc.constantFrom(
      "id",
      "key",
      "path",
      "label",
      "value",
      "status",
      "children",
      "cells",
      "__proto__",
      "note",
      "at",
      "level",
    ),
    fc.oneof(
      itemKeys,
      fc.jsonValue({ maxDepth: 2 }),
      fc.array(fc.record({ id: itemKeys, label: itemKeys }), { maxLength: 2 }),
    ),
    { maxKeys: 4 },
  );
  const selector = fc.constantFrom("ids", "keys", "paths");
  const patchArb = fc.oneof(
    fc.record({
      op: fc.constant("set"),
      field: fc.constantFrom("title", "status", "progress", "summary", "subtitle", "blocks"),
      value: fc.oneof(
        fc.constantFrom(null, "done", "x", { done: 1, total: 2 }),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    }),
    fc.record(
      {
        op: fc.constant("set_block"),
        block: fc.oneof(
          fc.record({ id: blockIds, kind: fc.constantFrom("markdown", "chart"), text: fc.string() }),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        before: blockIds,
      },
      { requiredKeys: ["op", "block"] },
    ),
    fc.record({ op: fc.constant("remove_block"), id: blockIds }),
    fc.record(
      {
        op: fc.constant("upsert_items"),
        block: blockIds,
        items: fc.array(itemField, { minLength: 1, maxLength: 4 }),
        parent: itemKeys,
      },
      { requiredKeys: ["op", "block", "items"] },
    ),
    fc
      .tuple(blockIds, selector, fc.array(itemKeys, { minLength: 1, maxLength: 3 }))
      .map(([block, key, targets]) => ({ op: "remove_items", block, [key]: targets })),
    fc.record({
      op: fc.constant("append_events"),
      block: blockIds,
      events: fc.array(
        fc.oneof(
          fc.record({ id: itemKeys, at: fc.nat(), level: fc.constant("info"), label: itemKeys }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        { minLength: 1, maxLength: 4 },
      ),
    }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const base = fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constant(1) },
    { weight: 1, arbitrary: fc.nat(2) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 0 }) },
  );
  const updateArb = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        panel: fc.constant("todo"),
        op: fc.constant("patch"),
        patches: fc.array(patchArb, { minLength: 1, maxLength: 5 }),
        base_revision: base,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ panel: fc.constant("todo"), op: fc.constant("close"), base_revision: base }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        panel: fc.constant("todo"),
        op: fc.constant("replace"),
        document: fc.oneof(fc.constant({ blocks: [] }), fc.jsonValue({ maxDepth: 3 })),
        base_revision: base,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          panel: fc.constantFrom("todo", "Todo", 1),
          op: fc.constantFrom("patch", "close", "replace", "merge"),
          patches: fc.array(patchArb, { maxLength: 3 }),
          document: fc.jsonValue({ maxDepth: 3 }),
          base_revision: fc.oneof(fc.nat(3), fc.jsonValue({ maxDepth: 0 })),
        },
        { requiredKeys: ["panel", "op"] },
      ),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );

  it("never throws, never changes the stored document, and returns valid documents", () => {
    fc.assert(
      fc.property(updateArb, fc.boolean(), (update, frozen) => {
        const current = frozen ? stored : (JSON.parse(JSON.stringify(stored)) as PanelDocument);
        const before = JSON.stringify(current);
        const updateBefore = JSON.stringify(update);
        const state = { revision: 1, document: current };
        const result = updatePanelState(state, update);
        if (!frozen) expect(current).toEqual(stored);
        expect(JSON.stringify(current)).toBe(before);
        expect(JSON.stringify(update)).toBe(updateBefore);
        if (result.ok) {
          expect(accept(JSON.parse(JSON.stringify(result.state.document)))).toEqual(result.state.document);
          expect(result.state.revision).toBe(2);
        } else {
          expect(result.issues).toHaveLength(1);
          expect(result.issues[0]?.code).toMatch(/^panel_(invalid|too_large|unknown|revision_conflict)$/);
        }
      }),
      { seed: 20_260_601, numRuns: 3000 },
    );
  });
});
