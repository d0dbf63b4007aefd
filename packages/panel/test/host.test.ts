import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import {
  type BeginCallInput,
  createPanelHost,
  type PanelCall,
  type PanelFrame,
  type PanelHostOptions,
} from "../src/host-entry.js";
import type { PanelDeclaration } from "../src/types.js";
import { FakeClock } from "./fake-clock.js";

const OWNER = "tools/todo";

function decl(id: string, overrides: Partial<PanelDeclaration> = {}): PanelDeclaration {
  return {
    id,
    title: id.toUpperCase(),
    icon: "panel",
    open: "never",
    context: "none",
    placement: "sidebar",
    acp_plan: false,
    actions: [],
    ...overrides,
  };
}

const DECLS = [
  decl("todo", { title: "Todo" }),
  decl("notes"),
  decl("view", { placement: "chat", title: "View" }),
];

const checklist = (status = "in_progress") => ({
  title: "Ship",
  blocks: [
    {
      id: "tasks",
      kind: "checklist",
      items: [
        { id: "t1", label: "Write the test", status: "done" },
        { id: "t2", label: "Fix the API", status },
      ],
    },
  ],
});

const markdown = (text = "hi") => ({ blocks: [{ id: "m", kind: "markdown", text }] });

function setup(options: PanelHostOptions = {}) {
  const clock = new FakeClock();
  const frames: PanelFrame[] = [];
  const host = createPanelHost({ clock, onFrame: (f) => frames.push(f), ...options });
  const begin = (input: Partial<BeginCallInput> = {}): PanelCall =>
    host.beginCall({ owner: OWNER, declarations: DECLS, toolCallId: "call-1", source: "model", ...input });
  return { host, clock, frames, begin };
}

async function rejection(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; path?: string }> {
  try {
    await promise;
  } catch (error) {
    if (isContractError(error)) {
      const issue = error.issues[0];
      return issue?.path === undefined
        ? { code: error.code, message: error.message }
        : { code: error.code, message: error.message, path: issue.path };
    }
    throw error;
  }
  throw new Error("did not reject");
}

describe("context.panels", () => {
  it("advertises protocol 2 and applies streaming updates with revisions", async () => {
    const { begin, host } = setup();
    const call = begin();
    expect(call.context.protocol).toBe(2);
    expect(call.context.get("todo")).toBeUndefined();
    await expect(call.context.update("todo", { op: "replace", document: checklist() })).resolves.toEqual({
      revision: 1,
    });
    await expect(
      call.context.update(`${OWNER}#todo`, {
        op: "patch",
        base_revision: 1,
        patches: [{ op: "set", field: "subtitle", value: "now" }],
      }),
    ).resolves.toEqual({ revision: 2 });
    expect(call.context.get("todo")).toMatchObject({ revision: 2, document: { subtitle: "now" } });
    expect(call.context.get(`${OWNER}#todo`)?.revision).toBe(2);
    expect(host.get(`${OWNER}#todo`)).toMatchObject({ revision: 2, closed: false, id: "todo", owner: OWNER });
  });

  it.each<[string, unknown, unknown, { code: string; message: string; path?: string }]>([
    [
      "a non-string panel",
      7,
      { op: "close" },
      { code: "panel_invalid", message: "/panel: must be a string, got <number>", path: "/panel" },
    ],
    [
      "a null panel",
      null,
      {},
      { code: "panel_invalid", message: "/panel: must be a string, got <null>", path: "/panel" },
    ],
    [
      "an array panel",
      ["todo"],
      {},
      { code: "panel_invalid", message: "/panel: must be a string, got <array>", path: "/panel" },
    ],
    [
      "another owner's full id",
      "tools/other#todo",
      { op: "replace", document: markdown() },
      { code: "panel_not_owned", message: 'panel "tools/other#todo" belongs to another owner' },
    ],
    [
      "an undeclared panel",
      "nope",
      { op: "replace", document: markdown() },
      { code: "panel_undeclared", message: 'tool tools/todo did not declare panel "nope"' },
    ],
    [
      "an undeclared panel before its shape",
      "Bad Id",
      { op: "oops" },
      { code: "panel_undeclared", message: 'tool tools/todo did not declare panel "Bad Id"' },
    ],
    [
      "a body that is not an object",
      "todo",
      null,
      { code: "panel_invalid", message: "/: must be an object", path: "/" },
    ],
    [
      "an unknown op",
      "todo",
      { op: "merge" },
      { code: "panel_invalid", message: "/op: must be replace, patch or close", path: "/op" },
    ],
    [
      "a close with a document",
      "todo",
      { op: "close", document: markdown() },
      { code: "panel_invalid", message: "/document: unknown field", path: "/document" },
    ],
    [
      "an invalid document with a stale base revision",
      "todo",
      { op: "replace", base_revision: 9, document: { blocks: "no" } },
      { code: "panel_invalid", message: "/blocks: must be an array", path: "/blocks" },
    ],
    [
      "a stale base revision",
      "todo",
      { op: "replace", base_revision: 3, document: markdown() },
      { code: "panel_revision_conflict", message: 'panel "todo" is at revision 0, not 3' },
    ],
    [
      "a patch without a document",
      "todo",
      { op: "patch", patches: [{ op: "set", field: "title", value: "x" }] },
      { code: "panel_unknown", message: 'panel "todo" has no document yet' },
    ],
    [
      "a close without a document",
      "todo",
      { op: "close" },
      { code: "panel_unknown", message: 'panel "todo" has no document yet' },
    ],
  ])("rejects %s", async (_name, panel, body, expected) => {
    const { begin } = setup();
    const call = begin();
    expect(await rejection(call.context.update(panel, body))).toEqual(expected);
    expect(call.context.get("todo")).toBeUndefined();
  });

  it("rejects a document over 65,536 bytes with panel_too_large", async () => {
    const { begin } = setup();
    const call = begin();
    const blocks = Array.from({ length: 5 }, (_, i) => ({
      id: `m${i}`,
      kind: "markdown",
      text: "x".repeat(16_000),
    }));
    const size = Buffer.byteLength(JSON.stringify({ blocks }));
    expect(await rejection(call.context.update("todo", { op: "replace", document: { blocks } }))).toEqual({
      code: "panel_too_large",
      message: `document is ${size} bytes; the limit is 65536`,
    });
  });

  it("reports a base revision conflict against the current revision", async () => {
    const { begin } = setup();
    const call = begin();
    await call.context.update("todo", { op: "replace", base_revision: 0, document: markdown() });
    expect(await rejection(call.context.update("todo", { op: "close", base_revision: 0 }))).toEqual({
      code: "panel_revision_conflict",
      message: 'panel "todo" is at revision 1, not 0',
    });
    // A rejected update uses no revision.
    await expect(call.context.update("todo", { op: "close", base_revision: 1 })).resolves.toEqual({
      revision: 2,
    });
  });

  it("turns a throwing getter into panel_invalid", async () => {
    const { begin } = setup();
    const body = {
      op: "replace",
      get document(): unknown {
        throw new Error("boom");
      },
    };
    expect(await rejection(begin().context.update("todo", body))).toEqual({
      code: "panel_invalid",
      message: "/: update could not be applied: boom",
      path: "/",
    });
  });

  it("closes, keeps the document, reopens only on replace", async () => {
    const { begin, host } = setup();
    const call = begin();
    await call.context.update("todo", { op: "replace", document: markdown("a") });
    await call.context.update("todo", { op: "close" });
    expect(host.get(`${OWNER}#todo`)).toMatchObject({ revision: 2, closed: true, document: markdown("a") });
    await call.context.update("todo", { op: "close" });
    await call.context.update("todo", { op: "patch", patches: [{ op: "set", field: "title", value: "T" }] });
    expect(host.get(`${OWNER}#todo`)).toMatchObject({ revision: 4, closed: true });
    await call.context.update("todo", { op: "replace", document: markdown("b") });
    expect(host.get(`${OWNER}#todo`)).toMatchObject({ revision: 5, closed: false });
  });

  it("closes the update window at settle; get keeps working", async () => {
    const { begin } = setup();
    const call = begin();
    await call.context.update("todo", { op: "replace", document: markdown() });
    call.settle({ hasOtherContent: true });
    expect(await rejection(call.context.update("todo", { op: "close" }))).toEqual({
      code: "panel_closed_context",
      message: "context.panels.update was called after the handler settled",
    });
    // Even an invalid update after settle reports the closed context first.
    expect((await rejection(call.context.update(5, null))).code).toBe("panel_closed_context");
    expect(call.context.get("todo")?.revision).toBe(1);
  });

  it("closes the update window when the handler settles (closeContext)", async () => {
    const { begin } = setup();
    const call = begin();
    call.closeContext();
    expect((await rejection(call.context.update("todo", { op: "replace", document: markdown() }))).code).toBe(
      "panel_closed_context",
    );
    call.applyResultBlocks([{ type: "panel", panel: "todo", op: "replace", document: markdown() }]);
    expect(call.settle().modelLines).toEqual(["panel todo updated (revision 1): Todo"]);
  });

  it("routes a registry's panel sink to the open call", () => {
    const { begin, host } = setup();
    host.sink([{ type: "panel", panel: "todo", op: "replace", document: markdown() }]);
    const call = begin();
    host.sink([{ type: "panel", panel: "todo", op: "replace", document: markdown() }]);
    expect(call.settle({ hasOtherContent: true }).receipts).toHaveLength(1);
    host.sink([{ type: "panel", panel: "todo", op: "close" }]);
    expect(host.get(`${OWNER}#todo`)?.closed).toBe(false);
  });

  it("closes the update window when the result blocks are applied", async () => {
    const { begin } = setup();
    const call = begin();
    call.applyResultBlocks([]);
    expect((await rejection(call.context.update("todo", { op: "replace", document: markdown() }))).code).toBe(
      "panel_closed_context",
    );
  });
});

describe("rate limit", () => {
  it("accepts 200 updates per panel per call, rejects the 201st, and counts per full id", async () => {
    const { begin } = setup();
    const call = begin();
    for (let i = 0; i < 200; i++) {
      const panel = i % 2 === 0 ? "todo" : `${OWNER}#todo`;
      await expect(
        call.context.update(panel, { op: "replace", document: markdown(`${i}`) }),
      ).resolves.toEqual({
        revision: i + 1,
      });
    }
    const limited = {
      code: "panel_rate_limited",
      message: 'more than 200 updates to "tools/todo#todo" in one tool call',
    };
    expect(await rejection(call.context.update(`${OWNER}#todo`, { op: "close" }))).toEqual(limited);
    // The rate limit is checked before validation.
    expect(await rejection(call.context.update("todo", { op: "nope" }))).toEqual(limited);
    // Other panels are not affected.
    await expect(call.context.update("notes", { op: "replace", document: markdown() })).resolves.toEqual({
      revision: 1,
    });
  });

  it("does not count rejected updates and starts afresh in a new call", async () => {
    const { begin } = setup();
    const first = begin();
    for (let i = 0; i < 50; i++) await first.context.update("todo", { op: "bad" }).catch(() => {});
    for (let i = 0; i < 200; i++) await first.context.update("todo", { op: "replace", document: markdown() });
    expect((await rejection(first.context.update("todo", { op: "close" }))).code).toBe("panel_rate_limited");
    first.settle({ hasOtherContent: true });
    const second = begin();
    await expect(second.context.update("todo", { op: "close" })).resolves.toEqual({ revision: 201 });
  });

  it("counts result blocks together with streaming updates", async () => {
    const { begin } = setup();
    const call = begin();
    for (let i = 0; i < 199; i++) await call.context.update("todo", { op: "replace", document: markdown() });
    call.applyResultBlocks([
      { type: "panel", panel: "todo", op: "close" },
      { type: "panel", panel: "todo", op: "close" },
    ]);
    const { modelLines } = call.settle({ hasOtherContent: true });
    expect(modelLines).toEqual([
      'panel todo update rejected: panel_rate_limited more than 200 updates to "tools/todo#todo" in one tool call',
    ]);
  });
});

describe("session limit and eviction", () => {
  const implicit = { owner: "mcp/srv/tool", declarations: [], implicitPanels: true };

  async function fill(call: PanelCall, count: number, clock: FakeClock) {
    for (let i = 0; i < count; i++) {
      clock.advance(10);
      await call.context.update(`p${i}`, { op: "replace", document: markdown(`${i}`) });
    }
  }

  it("refuses a 17th sidebar panel when none is closed", async () => {
    const { begin, clock, host } = setup();
    const call = begin(implicit);
    await fill(call, 16, clock);
    expect(await rejection(call.context.update("p16", { op: "replace", document: markdown() }))).toEqual({
      code: "panel_limit",
      message: "this session already has 16 panels and none is closed",
    });
    // Updating an existing panel is fine.
    await expect(call.context.update("p3", { op: "replace", document: markdown() })).resolves.toEqual({
      revision: 2,
    });
    expect(host.list()).toHaveLength(16);
  });

  it("evicts the least recently updated closed panel", async () => {
    const { begin, clock, host } = setup();
    const first = begin(implicit);
    await fill(first, 16, clock);
    clock.advance(10);
    await first.context.update("p5", { op: "close" });
    clock.advance(10);
    await first.context.update("p2", { op: "close" });
    clock.advance(10);
    await first.context.update("p9", { op: "close" });
    first.settle({ hasOtherContent: true });

    const second = begin(implicit);
    await expect(second.context.update("p16", { op: "replace", document: markdown() })).resolves.toEqual({
      revision: 1,
    });
    expect(host.get("mcp/srv/tool#p5")).toBeUndefined();
    await expect(second.context.update("p17", { op: "replace", document: markdown() })).resolves.toEqual({
      revision: 1,
    });
    expect(host.get("mcp/srv/tool#p2")).toBeUndefined();
    expect(host.list().map((p) => p.id)).not.toContain("p5");
    second.settle({ hasOtherContent: true });
    expect(host.list()).toHaveLength(16);
    expect(host.get("mcp/srv/tool#p9")?.closed).toBe(true);
  });

  it("breaks updatedAt ties by the oldest createdAt", async () => {
    const { begin, clock, host } = setup();
    const call = begin(implicit);
    await fill(call, 16, clock);
    clock.advance(10);
    // Same updatedAt for both; p7 was created earlier than p8... reverse the close order to show it.
    await call.context.update("p8", { op: "close" });
    await call.context.update("p7", { op: "close" });
    await call.context.update("p16", { op: "replace", document: markdown() });
    expect(host.get("mcp/srv/tool#p7")).toBeUndefined();
    expect(host.get("mcp/srv/tool#p8")).toBeDefined();
  });

  it("rolls an eviction back with its call", async () => {
    const { begin, clock, host } = setup();
    const first = begin(implicit);
    await fill(first, 16, clock);
    await first.context.update("p0", { op: "close" });
    first.settle({ hasOtherContent: true });
    const second = begin(implicit);
    await second.context.update("p16", { op: "replace", document: markdown() });
    expect(host.get("mcp/srv/tool#p0")).toBeUndefined();
    second.abandon();
    expect(host.get("mcp/srv/tool#p0")?.closed).toBe(true);
    expect(host.get("mcp/srv/tool#p16")).toBeUndefined();
  });

  it("keeps chat views outside the session limit and the side-panel list", async () => {
    const { begin, clock, host } = setup();
    const filler = begin(implicit);
    await fill(filler, 16, clock);
    filler.settle({ hasOtherContent: true });
    const call = begin();
    await expect(call.context.update("view", { op: "replace", document: markdown() })).resolves.toEqual({
      revision: 1,
    });
    expect(host.list()).toHaveLength(16);
    expect(host.list().some((p) => p.id === "view")).toBe(false);
  });
});

describe("implicit declarations", () => {
  it("creates a declaration from the document title (first 40 characters) or the id", async () => {
    const { host } = setup();
    const call = host.beginCall({ owner: "acp:agent", declarations: [], implicitPanels: true });
    await call.context.update("plan", { op: "replace", document: { title: "é".repeat(50), blocks: [] } });
    await call.context.update("bare", { op: "replace", document: { blocks: [] } });
    expect(host.get("acp:agent#plan")?.declaration).toEqual({
      id: "plan",
      title: "é".repeat(40),
      icon: "panel",
      placement: "sidebar",
      open: "never",
      context: "none",
      acp_plan: false,
      actions: [],
    });
    expect(host.get("acp:agent#bare")?.declaration.title).toBe("bare");
    expect(
      (await rejection(call.context.update("Bad", { op: "replace", document: { blocks: [] } }))).message,
    ).toBe("/panel: must match ^[a-z][a-z0-9_-]{0,31}$");
  });

  it("gives manifest tools no implicit declarations", async () => {
    const { host } = setup();
    const call = host.beginCall({ owner: "tools/x", declarations: [] });
    expect(
      (await rejection(call.context.update("plan", { op: "replace", document: { blocks: [] } }))).code,
    ).toBe("panel_undeclared");
  });
});

describe("chat placement", () => {
  it("creates a fresh view instance per call; get never reads a previous call's instance", async () => {
    const { begin, host } = setup();
    const first = begin();
    await first.context.update("view", { op: "replace", document: markdown("a") });
    await expect(first.context.update("view", { op: "close" })).resolves.toEqual({ revision: 2 });
    const firstReceipt = first.settle({ hasOtherContent: true }).receipts[0];
    const firstView = firstReceipt?.view ?? "";
    expect(firstView).toMatch(/^[0-9a-f-]{36}$/);
    expect(host.getView(firstView)).toMatchObject({ revision: 2, closed: true });

    const second = begin({ toolCallId: "call-2" });
    expect(second.context.get("view")).toBeUndefined();
    expect((await rejection(second.context.update("view", { op: "close" }))).code).toBe("panel_unknown");
    await expect(second.context.update("view", { op: "replace", document: markdown("b") })).resolves.toEqual({
      revision: 1,
    });
    const secondView = second.settle({ hasOtherContent: true }).receipts[0]?.view;
    expect(secondView).not.toBe(firstView);
    expect(host.getView(firstView)?.document).toEqual(markdown("a"));
  });

  it("discards a chat view on rollback", async () => {
    const { begin, host } = setup();
    const call = begin();
    await call.context.update("view", { op: "replace", document: markdown() });
    const view = call.settle({ hasOtherContent: true }).receipts[0]?.view ?? "";
    call.abandon();
    expect(host.getView(view)).toBeUndefined();
  });
});

describe("result blocks, receipts and model lines", () => {
  it("applies result blocks after streaming updates and confirms when the result is otherwise empty", async () => {
    const { begin } = setup();
    const call = begin();
    await call.context.update("notes", { op: "replace", document: markdown() });
    await call.context.update("todo", { op: "replace", document: checklist() });
    call.applyResultBlocks([
      {
        type: "panel",
        panel: `${OWNER}#todo`,
        op: "patch",
        base_revision: 1,
        patches: [{ op: "upsert_items", block: "tasks", items: [{ id: "t2", status: "done" }] }],
      },
      { type: "panel", panel: "notes", op: "close" },
    ]);
    const { receipts, modelLines } = call.settle({ hasOtherContent: false });
    expect(modelLines).toEqual([
      "panel notes updated (revision 2): NOTES",
      "panel todo updated (revision 2): 2/2",
    ]);
    expect(receipts).toEqual([
      {
        panel: "notes",
        owner: OWNER,
        title: "NOTES",
        revision: 2,
        summary: "NOTES",
        status: "active",
        op: "close",
        toolCallId: "call-1",
        source: "tool",
      },
      {
        panel: "todo",
        owner: OWNER,
        title: "Ship",
        revision: 2,
        summary: "2/2",
        progress: { done: 2, total: 2 },
        status: "active",
        op: "patch",
        toolCallId: "call-1",
        source: "tool",
      },
    ]);
  });

  it("adds no confirmation lines when the result has other content", async () => {
    const { begin } = setup();
    const call = begin();
    await call.context.update("todo", { op: "replace", document: checklist() });
    expect(call.settle({ hasOtherContent: true })).toMatchObject({ modelLines: [] });
  });

  it("leaves ': <summary>' out of a confirmation line with an empty summary", async () => {
    const { begin } = setup();
    const call = begin();
    call.applyResultBlocks([
      { type: "panel", panel: "todo", op: "replace", document: { summary: "", blocks: [] } },
    ]);
    expect(call.settle({ hasOtherContent: false }).modelLines).toEqual(["panel todo updated (revision 1)"]);
  });

  it("writes at most 5 rejection lines, after the confirmations, and one rejection receipt per panel", async () => {
    const { begin } = setup();
    const call = begin({ source: "user_action" });
    call.applyResultBlocks([
      { type: "panel", panel: "todo", op: "replace", document: checklist() },
      { type: "panel", panel: "todo", op: "patch", patches: [] },
      { type: "panel", panel: "todo", op: "close", base_revision: 7 },
      { type: "panel", panel: "nope", op: "close" },
      { type: "panel", panel: 42, op: "close" },
      { type: "panel", panel: "tools/other#x", op: "close" },
      { type: "panel", panel: "notes", op: "patch", patches: [{ op: "set", field: "title", value: "x" }] },
    ]);
    const { receipts, modelLines } = call.settle({ hasOtherContent: false });
    expect(modelLines).toEqual([
      "panel todo updated (revision 1): 1/2 · Fix the API",
      "panel todo update rejected: panel_invalid /patches: must have at least 1 entries",
      'panel todo update rejected: panel_revision_conflict panel "todo" is at revision 1, not 7',
      'panel nope update rejected: panel_undeclared tool tools/todo did not declare panel "nope"',
      "panel <number> update rejected: panel_invalid /panel: must be a string, got <number>",
      'panel x update rejected: panel_not_owned panel "tools/other#x" belongs to another owner',
    ]);
    expect(receipts.map((r) => [r.panel, r.revision, r.error?.code])).toEqual([
      ["todo", 1, undefined],
      ["todo", 1, "panel_invalid"],
      ["nope", 0, "panel_undeclared"],
      ["<number>", 0, "panel_invalid"],
      ["x", 0, "panel_not_owned"],
      ["notes", 0, "panel_unknown"],
    ]);
    expect(receipts[1]).toEqual({
      panel: "todo",
      owner: OWNER,
      title: "Ship",
      revision: 1,
      summary: "",
      status: "active",
      op: "replace",
      toolCallId: "call-1",
      source: "user_action",
      error: { code: "panel_invalid", message: "/patches: must have at least 1 entries" },
    });
    expect(receipts[5]).toMatchObject({ title: "NOTES", status: "idle", summary: "", op: "replace" });
  });

  it("never counts streaming rejections as lines or receipts", async () => {
    const { begin } = setup();
    const call = begin();
    await call.context.update("todo", { op: "nope" }).catch(() => {});
    expect(call.settle({ hasOtherContent: false })).toEqual({ receipts: [], modelLines: [] });
  });

  it("cuts rejection messages to 240 bytes at a code-point boundary and ids to 64 bytes", () => {
    const { begin, host } = setup();
    const call = begin();
    call.applyResultBlocks([{ type: "panel", panel: `${"😀".repeat(100)}#todo`, op: "close" }]);
    const [line] = call.settle({ hasOtherContent: true }).modelLines;
    // `panel "` is 7 bytes; 237 − 7 = 230 bytes hold 57 whole emoji.
    expect(line).toBe(`panel todo update rejected: panel_not_owned panel "${"😀".repeat(57)}…`);
    const implicit = host.beginCall({ owner: "mcp/s/t", declarations: [], implicitPanels: true });
    implicit.applyResultBlocks([{ type: "panel", panel: "p".repeat(70), op: "close" }]);
    expect(implicit.settle({ hasOtherContent: true }).modelLines).toEqual([
      `panel ${"p".repeat(61)}… update rejected: panel_invalid /panel: must match ^[a-z][a-z0-9_-]{0,31}$`,
    ]);
  });

  it("shows non-object result blocks by their panel label", () => {
    const { begin } = setup();
    const call = begin();
    call.applyResultBlocks([{ type: "panel", op: "close" }]);
    expect(call.settle({ hasOtherContent: true }).modelLines).toEqual([
      "panel <undefined> update rejected: panel_invalid /panel: must be a string, got <undefined>",
    ]);
  });

  it("reports a throwing block as an update that could not be applied", () => {
    const { begin } = setup();
    const call = begin();
    const block = {
      type: "panel",
      panel: "todo",
      get op(): string {
        throw new Error("boom");
      },
    };
    call.applyResultBlocks([block]);
    expect(call.settle({ hasOtherContent: true }).modelLines).toEqual([
      "panel todo update rejected: panel_invalid /: update could not be applied: boom",
    ]);
  });

  it("bounds receipts to 1 KiB", async () => {
    const { begin } = setup();
    const call = begin({ toolCallId: "c".repeat(700) });
    await call.context.update("todo", {
      op: "replace",
      document: { title: "😀".repeat(80), summary: "😀".repeat(120), blocks: [] },
    });
    const [receipt] = call.settle({ hasOtherContent: true }).receipts;
    expect(Buffer.byteLength(JSON.stringify(receipt))).toBeLessThanOrEqual(1024);
    expect(receipt?.toolCallId).toBe("c".repeat(700));
  });
});

describe("commit and rollback", () => {
  it("rolls back on abandon before settle", async () => {
    const { begin, host } = setup();
    const first = begin();
    await first.context.update("todo", { op: "replace", document: markdown("a") });
    first.settle({ hasOtherContent: true });
    const second = begin();
    await second.context.update("todo", { op: "replace", document: markdown("b") });
    await second.context.update("notes", { op: "replace", document: markdown("n") });
    expect(host.get(`${OWNER}#todo`)?.revision).toBe(2);
    second.abandon();
    expect(host.get(`${OWNER}#todo`)).toMatchObject({ revision: 1, document: markdown("a") });
    expect(host.get(`${OWNER}#notes`)).toBeUndefined();
    expect((await rejection(second.context.update("todo", { op: "close" }))).code).toBe(
      "panel_closed_context",
    );
    expect(second.settle({ hasOtherContent: false })).toEqual({ receipts: [], modelLines: [] });
  });

  it("rolls back a settled call whose commit failed", async () => {
    const { begin, host } = setup();
    const first = begin();
    await first.context.update("todo", { op: "replace", document: markdown("a") });
    first.settle({ hasOtherContent: true });
    const second = begin();
    await second.context.update("todo", { op: "close" });
    second.settle({ hasOtherContent: true });
    expect(host.get(`${OWNER}#todo`)).toMatchObject({ revision: 2, closed: true });
    second.abandon();
    const third = begin();
    expect(third.context.get("todo")?.revision).toBe(1);
    expect(host.get(`${OWNER}#todo`)?.closed).toBe(false);
  });

  it("rolls back an earlier call that was neither settled nor abandoned when a new call begins", async () => {
    const { begin, host } = setup();
    const first = begin();
    await first.context.update("todo", { op: "replace", document: markdown("a") });
    const second = begin();
    expect(second.context.get("todo")).toBeUndefined();
    expect(host.list()).toEqual([]);
    expect((await rejection(first.context.update("todo", { op: "close" }))).code).toBe(
      "panel_closed_context",
    );
    await expect(second.context.update("todo", { op: "replace", document: markdown() })).resolves.toEqual({
      revision: 1,
    });
  });

  it("returns the same settlement when settled twice", async () => {
    const { begin } = setup();
    const call = begin();
    await call.context.update("todo", { op: "replace", document: markdown() });
    const once = call.settle({ hasOtherContent: false });
    expect(call.settle({ hasOtherContent: false })).toBe(once);
  });
});

describe("live frames", () => {
  it("sends at most one frame per panel per 250 ms, the latest state winning, and a final frame at commit", async () => {
    const { begin, clock, frames } = setup();
    const call = begin();
    const summary = () =>
      frames.map((f) =>
        f.type === "update" ? `${f.panel}@${f.revision}${f.live ? "" : "!"}` : `-${f.panel}`,
      );
    await call.context.update("todo", { op: "replace", document: markdown("1") });
    expect(summary()).toEqual(["todo@1"]);
    clock.advance(100);
    await call.context.update("todo", { op: "replace", document: markdown("2") });
    await call.context.update("todo", { op: "replace", document: markdown("3") });
    await call.context.update("notes", { op: "replace", document: markdown() });
    expect(summary()).toEqual(["todo@1", "notes@1"]);
    clock.advance(149);
    expect(summary()).toEqual(["todo@1", "notes@1"]);
    clock.advance(1);
    expect(summary()).toEqual(["todo@1", "notes@1", "todo@3"]);
    clock.advance(250);
    await call.context.update("todo", { op: "replace", document: markdown("4") });
    expect(summary()).toEqual(["todo@1", "notes@1", "todo@3", "todo@4"]);
    await call.context.update("todo", { op: "replace", document: markdown("5") });
    call.settle({ hasOtherContent: true });
    expect(summary()).toEqual(["todo@1", "notes@1", "todo@3", "todo@4", "todo@5!", "notes@1!"]);
    clock.advance(1000);
    expect(frames).toHaveLength(6);
  });

  it("never lets a throwing observer affect panel state", async () => {
    const { host, begin } = setup({
      onFrame: () => {
        throw new Error("observer");
      },
    });
    const seen: number[] = [];
    host.subscribe((f) => {
      if (f.type === "update") seen.push(f.revision);
    });
    const call = begin();
    await expect(call.context.update("todo", { op: "replace", document: markdown() })).resolves.toEqual({
      revision: 1,
    });
    call.settle({ hasOtherContent: true });
    expect(host.get(`${OWNER}#todo`)?.revision).toBe(1);
    expect(seen).toEqual([1, 1]);
  });

  it("shows observers the committed state again after a rollback", async () => {
    const { begin, frames } = setup();
    const call = begin();
    await call.context.update("todo", { op: "replace", document: markdown() });
    call.abandon();
    expect(frames.at(-1)).toMatchObject({ type: "remove", panel: "todo", live: false });
  });
});
