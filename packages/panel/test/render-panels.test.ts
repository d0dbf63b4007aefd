import { describe, expect, it } from "vitest";
import { createPanelHost, renderPanelsText } from "../src/host-entry.js";
import type { PanelDeclaration } from "../src/index.js";
import type { PanelDocument } from "../src/types.js";

const doc = (title: string): PanelDocument =>
  ({
    title,
    blocks: [
      { id: "tasks", kind: "checklist", items: [{ id: "a", label: `${title} task`, status: "done" }] },
    ],
  }) as PanelDocument;

const panel = (owner: string, id: string, closed = false) => ({
  fullId: `${owner}#${id}`,
  id,
  declaration: { title: id },
  document: doc(`${owner} ${id}`),
  closed,
});

describe("renderPanelsText (§14.3)", () => {
  const panels = [
    panel("tools/a", "todo"),
    panel("tools/b", "todo"),
    panel("tools/a", "plan"),
    panel("tools/c", "old", true),
  ];

  it("lists open panels one after another, separated by a blank line", () => {
    expect(renderPanelsText(panels)).toEqual({
      ok: true,
      text: [
        "tools/a todo (1/1)\n[x] tools/a todo task",
        "tools/b todo (1/1)\n[x] tools/b todo task",
        "tools/a plan (1/1)\n[x] tools/a plan task",
      ].join("\n\n"),
    });
  });

  it("includes closed panels on request, each followed by (closed)", () => {
    const result = renderPanelsText(panels, { includeClosed: true });
    expect(result.ok && result.text.endsWith("tools/c old (1/1)\n[x] tools/c old task\n(closed)")).toBe(true);
  });

  it("selects by full id, or by an unambiguous local id", () => {
    expect(renderPanelsText(panels, { select: "tools/b#todo" })).toEqual({
      ok: true,
      text: "tools/b todo (1/1)\n[x] tools/b todo task",
    });
    expect(renderPanelsText(panels, { select: "plan" })).toEqual({
      ok: true,
      text: "tools/a plan (1/1)\n[x] tools/a plan task",
    });
  });

  it("an ambiguous or unknown id, or a closed panel not included: unknown panel <id>", () => {
    for (const select of ["todo", "nope", "tools/c#old", "old"]) {
      expect(renderPanelsText(panels, { select })).toEqual({
        ok: false,
        code: "panel_unknown",
        message: `unknown panel ${select}`,
      });
    }
    expect(renderPanelsText(panels, { select: "old", includeClosed: true })).toMatchObject({ ok: true });
  });

  it("with nothing open: no open panels", () => {
    expect(renderPanelsText([])).toEqual({ ok: true, text: "no open panels" });
    expect(renderPanelsText([panel("tools/c", "old", true)])).toEqual({ ok: true, text: "no open panels" });
  });

  it("renders a real panel host's list", async () => {
    const host = createPanelHost();
    const declaration: PanelDeclaration = {
      id: "todo",
      title: "Todo",
      icon: "list-checks",
      open: "first_update",
      context: "none",
      placement: "sidebar",
      acp_plan: false,
      actions: [],
    };
    const call = host.beginCall({
      owner: "tools/x",
      declarations: [declaration],
      toolCallId: "c1",
      source: "model",
    });
    await call.context.update("todo", { op: "replace", document: doc("Ship") });
    call.settle({ hasOtherContent: true });
    expect(renderPanelsText(host.list())).toEqual({ ok: true, text: "Ship (1/1)\n[x] Ship task" });
  });
});
