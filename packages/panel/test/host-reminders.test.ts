import { describe, expect, it } from "vitest";
import { compactionReminders, createPanelHost, type PanelState } from "../src/host-entry.js";
import { renderPanelText } from "../src/index.js";
import type { PanelDeclaration } from "../src/types.js";
import { FakeClock } from "./fake-clock.js";

function decl(
  id: string,
  context: "none" | "summary",
  placement: "chat" | "sidebar" = "sidebar",
): PanelDeclaration {
  return {
    id,
    title: id.toUpperCase(),
    icon: "panel",
    open: "never",
    context,
    placement,
    acp_plan: false,
    actions: [],
  };
}

async function panels(documents: Array<[string, unknown]>, closed: string[] = []): Promise<PanelState[]> {
  const clock = new FakeClock();
  const host = createPanelHost({ clock });
  const declarations = [
    decl("a", "summary"),
    decl("b", "summary"),
    decl("c", "none"),
    decl("d", "summary"),
    decl("v", "summary", "chat"),
  ];
  const call = host.beginCall({ owner: "tools/t", declarations });
  for (const [id, document] of documents) {
    clock.advance(10);
    await call.context.update(id, { op: "replace", document });
  }
  for (const id of closed) await call.context.update(id, { op: "close" });
  call.settle({ hasOtherContent: true });
  return host.list();
}

describe("compactionReminders", () => {
  it("reminds of open summary panels, most recently updated first", async () => {
    const list = await panels(
      [
        ["a", { title: "Alpha", context_summary: "alpha state", blocks: [] }],
        ["b", { blocks: [{ id: "m", kind: "markdown", text: "beta" }] }],
        ["c", { context_summary: "never", blocks: [] }],
        ["d", { context_summary: "closed", blocks: [] }],
        ["v", { context_summary: "chat", blocks: [] }],
      ],
      ["d"],
    );
    const b = list.find((p) => p.id === "b");
    expect(compactionReminders(list)).toEqual([
      `[Raw panel state]\nCurrent state of B (tools/t) at revision 1:\n${renderPanelText("B", b?.document ?? { blocks: [] })}`,
      "[Raw panel state]\nCurrent state of Alpha (tools/t) at revision 1:\nalpha state",
    ]);
  });

  it("cuts each body to 2048 bytes and all reminders to 8192 bytes, skipping bodies under 16 bytes", async () => {
    const big = (id: string) =>
      [
        id,
        {
          context_summary: "x".repeat(2048),
          blocks: [{ id: "m", kind: "markdown", text: "y".repeat(9000) }],
        },
      ] as [string, unknown];
    const list = await panels([
      big("a"),
      big("b"),
      ["d", { blocks: [{ id: "m", kind: "markdown", text: "z".repeat(9000) }] }],
    ]);
    const reminders = compactionReminders(list);
    const sizes = reminders.map((r) => Buffer.byteLength(r));
    expect(reminders).toHaveLength(3);
    const header = Buffer.byteLength("[Raw panel state]\nCurrent state of D (tools/t) at revision 1:\n");
    expect(sizes[0]).toBe(header + 2048);
    expect(reminders[0]?.endsWith("z…")).toBe(true);
    // context_summary of exactly 2048 bytes is kept whole.
    expect(reminders[1]?.endsWith("x".repeat(2048))).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(8192);
  });

  it("skips a panel when less than 16 bytes would remain for its body", () => {
    const state = (id: string, updatedAt: number, summary: string): PanelState => ({
      fullId: `tools/t#${id}`,
      owner: "tools/t",
      id,
      declaration: decl(id, "summary"),
      revision: 1,
      document: { context_summary: summary, blocks: [] },
      closed: false,
      createdAt: 0,
      updatedAt,
    });
    const header = Buffer.byteLength("[Raw panel state]\nCurrent state of A (tools/t) at revision 1:\n");
    // Three full reminders, a fourth cut to exactly what remains, and no room left for a fifth.
    const list = ["a", "b", "c", "d", "e"].map((id, i) => state(id, 100 - i, "s".repeat(2048)));
    const reminders = compactionReminders(list);
    expect(reminders).toHaveLength(4);
    expect(Buffer.byteLength(reminders[3] ?? "")).toBe(8192 - 3 * (header + 2048));
    expect(reminders.reduce((n, r) => n + Buffer.byteLength(r), 0)).toBe(8192);
    // Leave header + 15 bytes after four reminders: the fifth panel is skipped.
    const last = 8192 - 5 * header - 15 - 3 * 2048;
    const tight = ["a", "b", "c", "d"].map((id, i) => state(id, 9 - i, "s".repeat(i < 3 ? 2048 : last)));
    expect(compactionReminders([...tight, state("e", 1, "s".repeat(100))])).toHaveLength(4);
    const roomy = [...tight.slice(0, 3), state("d", 6, "s".repeat(last - 1))];
    const five = compactionReminders([...roomy, state("e", 1, "s".repeat(100))]);
    expect(five).toHaveLength(5);
    expect(five[4]?.endsWith(`\n${"s".repeat(13)}…`)).toBe(true);
    // Ties in updatedAt are ordered by full id.
    const tied = compactionReminders([state("b", 5, "bb"), state("a", 5, "aa")]);
    expect(tied.map((r) => r.slice(-2))).toEqual(["aa", "bb"]);
  });
});
