import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractPanelBlocks, MAX_RECEIPT_BYTES, type PanelReceipt } from "../src/host-entry.js";
import {
  boundReceipt,
  confirmationLine,
  cutUtf8,
  modelLinesBlock,
  receiptBytes,
  rejectionLine,
} from "../src/internal.js";

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

describe("cutUtf8", () => {
  it.each([
    ["abc", 3, "abc"],
    ["abcd", 3, "…"],
    ["abcdef", 5, "ab…"],
    ["ééé", 6, "ééé"],
    ["éééé", 6, "é…"],
    ["a😀bc", 6, "a…"],
    ["a😀bcde", 8, "a😀…"],
    ["abcd", 2, ""],
  ])("cuts %j to %i bytes as %j", (s, limit, expected) => {
    expect(cutUtf8(s, limit)).toBe(expected);
  });

  it("keeps whole code points and never exceeds the limit", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.integer({ min: 3, max: 60 }), (s, limit) => {
        const cut = cutUtf8(s, limit);
        expect(bytes(cut)).toBeLessThanOrEqual(limit);
        if (bytes(s) <= limit) expect(cut).toBe(s);
        else {
          expect(cut.endsWith("…")).toBe(true);
          expect(s.startsWith(cut.slice(0, -1))).toBe(true);
          expect(cut.slice(0, -1)).toBe(Array.from(cut.slice(0, -1)).join(""));
        }
      }),
      { seed: 20261202, numRuns: 1000 },
    );
  });
});

describe("model-visible lines", () => {
  it("formats confirmation lines, leaving out an empty summary", () => {
    expect(confirmationLine("todo", 3, "1/3 · Fix the API")).toBe(
      "panel todo updated (revision 3): 1/3 · Fix the API",
    );
    expect(confirmationLine("todo", 1, "")).toBe("panel todo updated (revision 1)");
  });

  it.each([
    ["todo", "panel todo update rejected: panel_invalid /x: bad"],
    ["tools/x#todo", "panel todo update rejected: panel_invalid /x: bad"],
    [null, "panel <null> update rejected: panel_invalid /x: bad"],
    [[1], "panel <array> update rejected: panel_invalid /x: bad"],
    [7, "panel <number> update rejected: panel_invalid /x: bad"],
    [undefined, "panel <undefined> update rejected: panel_invalid /x: bad"],
    [{}, "panel <object> update rejected: panel_invalid /x: bad"],
  ])("names the panel %j", (panel, line) => {
    expect(rejectionLine(panel, "panel_invalid", "/x: bad")).toBe(line);
  });

  it("cuts the id to 64 bytes and the message to 240 bytes at a code-point boundary", () => {
    const line = rejectionLine("p".repeat(70), "panel_invalid", `/title: ${"😀".repeat(100)}`);
    const [, id, message] = /^panel (\S+) update rejected: panel_invalid (.*)$/u.exec(line) ?? [];
    expect(id).toBe(`${"p".repeat(61)}…`);
    expect(bytes(message ?? "")).toBeLessThanOrEqual(240);
    // "/title: " is 8 bytes; 237 − 8 = 229 bytes leave 57 whole emoji (228 bytes).
    expect(message).toBe(`/title: ${"😀".repeat(57)}…`);
  });

  it("joins lines into one text block", () => {
    expect(modelLinesBlock([])).toBeUndefined();
    expect(modelLinesBlock(["a", "b"])).toEqual({ type: "text", text: "a\nb" });
  });
});

describe("extractPanelBlocks", () => {
  it("removes panel blocks in order and leaves the rest", () => {
    const content = [
      { type: "text", text: "hi" },
      { type: "panel", panel: "a", op: "close" },
      { type: "json", value: 1 },
      { type: "panel", panel: "b", op: "close" },
    ];
    const out = extractPanelBlocks(content);
    expect(out.content).toEqual([
      { type: "text", text: "hi" },
      { type: "json", value: 1 },
    ]);
    expect(out.panelBlocks.map((b) => b.panel)).toEqual(["a", "b"]);
    expect(content).toHaveLength(4);
  });

  it("gives empty lists for empty or non-array content", () => {
    expect(extractPanelBlocks([])).toEqual({ content: [], panelBlocks: [] });
    expect(extractPanelBlocks(undefined as never)).toEqual({ content: [], panelBlocks: [] });
  });
});

describe("boundReceipt", () => {
  const base: PanelReceipt = {
    panel: "todo",
    owner: "tools/todo",
    title: "Todo",
    revision: 2,
    summary: "1/3 · Fix",
    progress: { done: 1, total: 3 },
    status: "active",
    op: "patch",
    toolCallId: "call-1",
    source: "tool",
  };

  it("keeps a small receipt as is, keys in contract order", () => {
    const r = boundReceipt({ view: "v", ...base });
    expect(r).toEqual({ ...base, view: "v" });
    expect(Object.keys(r)).toEqual([
      "panel",
      "owner",
      "title",
      "revision",
      "summary",
      "progress",
      "status",
      "op",
      "toolCallId",
      "source",
      "view",
    ]);
  });

  it("gives the summary up first, 64 bytes at a time", () => {
    const summary = "é".repeat(120); // 240 bytes
    const big = { ...base, summary, owner: "o".repeat(780) };
    const size = receiptBytes({ ...big, summary: "" });
    expect(size).toBeLessThan(MAX_RECEIPT_BYTES);
    const r = boundReceipt(big);
    expect(receiptBytes(r)).toBeLessThanOrEqual(MAX_RECEIPT_BYTES);
    // Candidates are cut to 176, 112, 48 bytes: the first that fits wins.
    expect([cutUtf8(summary, 176), cutUtf8(summary, 112), cutUtf8(summary, 48), ""]).toContain(r.summary);
    expect(r.owner).toBe(big.owner);
    expect(r.title).toBe("Todo");
  });

  it("then cuts the title to 80 bytes and the error message to 120 bytes", () => {
    const r = boundReceipt({
      ...base,
      title: "T".repeat(200),
      summary: "s".repeat(100),
      error: { code: "panel_invalid", message: "m".repeat(500) },
      owner: "o".repeat(300),
    });
    expect(r.summary).toBe("");
    expect(r.title).toBe(`${"T".repeat(77)}…`);
    expect(r.error?.message).toBe(`${"m".repeat(117)}…`);
    expect(receiptBytes(r)).toBeLessThanOrEqual(MAX_RECEIPT_BYTES);
  });

  it("never alters identifiers", () => {
    const toolCallId = "c".repeat(2000);
    const r = boundReceipt({ ...base, toolCallId, summary: "x".repeat(120) });
    expect(r.summary).toBe("");
    expect(r.toolCallId).toBe(toolCallId);
    expect(r.panel).toBe("todo");
    expect(r.owner).toBe("tools/todo");
  });

  it("is at most 1 KiB whenever the identifiers leave room", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 120 }),
        fc.string({ unit: "grapheme", maxLength: 80 }),
        fc.string({ unit: "grapheme", maxLength: 400 }),
        fc.string({ unit: "grapheme-ascii", maxLength: 300 }),
        (summary, title, message, owner) => {
          const r = boundReceipt({
            ...base,
            summary,
            title,
            owner,
            error: { code: "panel_invalid", message },
          });
          expect(receiptBytes(r)).toBeLessThanOrEqual(MAX_RECEIPT_BYTES);
        },
      ),
      { seed: 20261202, numRuns: 1000 },
    );
  });
});
