import { describe, expect, it } from "vitest";
import {
  createPanelHost,
  parsePanelSnapshot,
  restorePanelStates,
  snapshotPanelHost,
} from "../src/host-entry.js";
import type { PanelDeclaration } from "../src/index.js";

const DECLARATION: PanelDeclaration = {
  id: "todo",
  title: "Todo",
  icon: "list-checks",
  open: "first_update",
  context: "none",
  placement: "sidebar",
  acp_plan: false,
  actions: [],
};
const doc = (label: string) => ({
  title: "Ship",
  blocks: [{ id: "tasks", kind: "checklist", items: [{ id: "a", label, status: "done" }] }],
});

async function hostWithPanel() {
  const host = createPanelHost();
  const call = host.beginCall({
    owner: "tools/x",
    declarations: [DECLARATION],
    toolCallId: "c1",
    source: "model",
  });
  await call.context.update("todo", { op: "replace", document: doc("first") });
  await call.context.update("todo", { op: "replace", document: doc("second") });
  call.settle({ hasOtherContent: true });
  return host;
}

describe("panel host snapshots", () => {
  it("restores the panels of a snapshot that went through JSON; revisions continue where they stopped", async () => {
    const before = await hostWithPanel();
    const stored = JSON.parse(JSON.stringify(snapshotPanelHost(before)));
    const after = createPanelHost({ restore: restorePanelStates(stored) });
    expect(after.list()).toEqual(before.list());
    expect(after.get("tools/x#todo")?.revision).toBe(2);
    const call = after.beginCall({
      owner: "tools/x",
      declarations: [DECLARATION],
      toolCallId: "c2",
      source: "model",
    });
    await expect(call.context.update("todo", { op: "replace", document: doc("third") })).resolves.toEqual({
      revision: 3,
    });
    call.settle({ hasOtherContent: true });
    expect(after.get("tools/x#todo")?.revision).toBe(3);
  });

  it("refuses a bad snapshot with panel_snapshot_invalid naming the field; nothing is restored", async () => {
    const good = snapshotPanelHost(await hostWithPanel());
    const cases: Array<[unknown, string]> = [
      [null, ": must be an object"],
      [{ ...good, version: 2 }, "/version: must be 1"],
      [{ ...good, panels: "x" }, "/panels: must be an array"],
      [
        { ...good, panels: [{ ...good.panels[0], revision: 0 }] },
        "/panels/0/revision: must be a positive integer",
      ],
      [{ ...good, panels: [{ ...good.panels[0], id: "Bad Id" }] }, "/panels/0/id: must be a panel id"],
      [
        { ...good, panels: [{ ...good.panels[0], owner: "" }] },
        "/panels/0/owner: must be a non-empty string",
      ],
      [{ ...good, panels: [good.panels[0], good.panels[0]] }, "/panels/1/id: duplicate panel tools/x#todo"],
      [
        {
          ...good,
          panels: [
            { ...good.panels[0], document: { blocks: [{ id: "m", kind: "markdown", text: "a\rb" }] } },
          ],
        },
        "/panels/0/document/blocks/0/text: contains a control character",
      ],
    ];
    for (const [value, message] of cases) {
      const parsed = parsePanelSnapshot(value);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok)
        expect([parsed.issues[0]?.code, parsed.issues[0]?.message]).toEqual([
          "panel_snapshot_invalid",
          message,
        ]);
    }
    expect(() => restorePanelStates({ version: 2 })).toThrow("/version: must be 1");
  });
});
