import { describe, expect, it } from "vitest";
import { MAX_PANEL_DOCUMENT_BYTES, validatePanelDocument } from "../src/index.js";
import { accept, documentIssue, documentMessage, documentOfBytes, withBlock } from "./helpers.js";

const md = (text: string) => ({ id: "m", kind: "markdown", text });

describe("top-level fields", () => {
  it("accepts the minimal document and every field at its limit", () => {
    expect(accept({ blocks: [] })).toEqual({ blocks: [] });
    const full = {
      title: "t".repeat(80),
      subtitle: "s".repeat(120),
      status: "failed",
      progress: { done: 3, total: 3 },
      summary: "u".repeat(120),
      context_summary: "c".repeat(2048),
      blocks: [],
    };
    expect(accept(full)).toEqual(full);
    expect(accept({ summary: "", blocks: [] })).toEqual({ summary: "", blocks: [] });
    expect(accept({ progress: { done: 0, total: 0 }, blocks: [] }).progress).toEqual({ done: 0, total: 0 });
  });

  it.each([
    ["an array", [], "/", "must be an object"],
    ["a string", "doc", "/", "must be an object"],
    ["null", null, "/", "must be an object"],
    ["an unknown field", { blocks: [], theme: "dark" }, "/theme", "unknown field"],
    ["an unknown field with a slash", { blocks: [], "a/b~c": 1 }, "/a~1b~0c", "unknown field"],
    ["a missing blocks", {}, "/blocks", "must be an array"],
    ["a non-string title", { title: 1, blocks: [] }, "/title", "must be a string"],
    [
      "an 81-character title",
      { title: "t".repeat(81), blocks: [] },
      "/title",
      "must be at most 80 characters",
    ],
    [
      "a 121-character subtitle",
      { subtitle: "s".repeat(121), blocks: [] },
      "/subtitle",
      "must be at most 120 characters",
    ],
    ["a bad status", { status: "loud", blocks: [] }, "/status", "must be one of idle, active, done, failed"],
    [
      "a 121-character summary",
      { summary: "u".repeat(121), blocks: [] },
      "/summary",
      "must be at most 120 characters",
    ],
    [
      "a 2049-byte context_summary",
      { context_summary: "c".repeat(2049), blocks: [] },
      "/context_summary",
      "must be at most 2048 bytes",
    ],
    [
      "a context_summary of 1025 two-byte characters",
      { context_summary: "é".repeat(1025), blocks: [] },
      "/context_summary",
      "must be at most 2048 bytes",
    ],
    ["a non-object progress", { progress: [1, 2], blocks: [] }, "/progress", "must be an object"],
    [
      "an unknown progress field",
      { progress: { done: 1, total: 2, pct: 50 }, blocks: [] },
      "/progress/pct",
      "unknown field",
    ],
    [
      "a missing progress.done",
      { progress: { total: 2 }, blocks: [] },
      "/progress/done",
      "must be an integer of at least 0",
    ],
    [
      "a negative progress.done",
      { progress: { done: -1, total: 2 }, blocks: [] },
      "/progress/done",
      "must be an integer of at least 0",
    ],
    [
      "a fractional progress.total",
      { progress: { done: 1, total: 2.5 }, blocks: [] },
      "/progress/total",
      "must be an integer of at least 0",
    ],
    [
      "an unsafe progress.total",
      { progress: { done: 1, total: 2 ** 53 }, blocks: [] },
      "/progress/total",
      "must be an integer of at least 0",
    ],
    [
      "done above total",
      { progress: { done: 3, total: 2 }, blocks: [] },
      "/progress/done",
      "must not exceed total",
    ],
    ["non-array blocks", { blocks: {} }, "/blocks", "must be an array"],
    [
      "21 blocks",
      { blocks: Array.from({ length: 21 }, (_, i) => ({ id: `b${i}`, kind: "markdown", text: "" })) },
      "/blocks",
      "must have at most 20 entries",
    ],
    ["a duplicate block id", { blocks: [md("a"), md("b")] }, "/blocks/1/id", "duplicate block id"],
  ])("rejects %s", (_name, document, pointer, reason) => {
    expect(documentIssue(document)).toEqual({
      code: "panel_invalid",
      message: `${pointer}: ${reason}`,
      path: pointer,
    });
  });

  it("accepts exactly 20 blocks", () => {
    accept({ blocks: Array.from({ length: 20 }, (_, i) => ({ id: `b${i}`, kind: "markdown", text: "" })) });
  });

  it("counts characters as code points and bytes as UTF-8", () => {
    accept({ title: "😀".repeat(80), subtitle: "é".repeat(120), blocks: [] });
    expect(documentMessage({ title: "😀".repeat(81), blocks: [] })).toBe(
      "/title: must be at most 80 characters",
    );
    accept({ context_summary: "é".repeat(1024), blocks: [] });
    accept({ context_summary: "😀".repeat(512), blocks: [] });
    expect(documentMessage({ context_summary: `${"😀".repeat(512)}a`, blocks: [] })).toBe(
      "/context_summary: must be at most 2048 bytes",
    );
  });

  it("runs the checks in the order of the spec", () => {
    const bad = {
      blocks: 1,
      progress: { done: 2, total: 1 },
      context_summary: 1,
      summary: 1,
      status: 1,
      subtitle: 1,
      title: 1,
    };
    expect(documentMessage({ ...bad, extra: 1 })).toBe("/extra: unknown field");
    expect(documentMessage(bad)).toBe("/title: must be a string");
    expect(documentMessage({ ...bad, title: "" })).toBe("/subtitle: must be a string");
    expect(documentMessage({ ...bad, title: "", subtitle: "" })).toBe(
      "/status: must be one of idle, active, done, failed",
    );
    const noStatus = { ...bad, title: "", subtitle: "", status: "idle" };
    expect(documentMessage(noStatus)).toBe("/summary: must be a string");
    expect(documentMessage({ ...noStatus, summary: "" })).toBe("/context_summary: must be a string");
    expect(documentMessage({ ...noStatus, summary: "", context_summary: "" })).toBe(
      "/progress/done: must not exceed total",
    );
    expect(
      documentMessage({ ...noStatus, summary: "", context_summary: "", progress: { done: 0, total: 0 } }),
    ).toBe("/blocks: must be an array");
  });

  it("reports a bad block before a later duplicate and the duplicate after the block's own checks", () => {
    expect(documentMessage({ blocks: [md(""), { ...md(""), text: 1 }] })).toBe(
      "/blocks/1/text: must be a string",
    );
  });
});

describe("control characters", () => {
  it.each([["\u0000"], ["\u0008"], ["\u000b"], ["\u000c"], ["\r"], ["\u001b"], ["\u001f"], ["\u007f"]])(
    "rejects %j everywhere",
    (c) => {
      expect(documentMessage({ title: `a${c}`, blocks: [] })).toBe("/title: contains a control character");
      expect(documentMessage(withBlock(md(`x${c}`)))).toBe("/blocks/0/text: contains a control character");
      expect(documentMessage(withBlock({ id: "b", kind: `x${c}` }))).toBe(
        "/blocks/0/kind: contains a control character",
      );
    },
  );

  it("allows tab and line feed, and characters just outside the ranges", () => {
    accept({
      title: "a\tb\nc \u00a0 \u2029 \u202f \u2065",
      context_summary: "x\ny\tz",
      blocks: [md("# T\n\n\tcode\n")],
    });
  });

  it("checks the control character before the length", () => {
    expect(documentMessage({ title: `${"t".repeat(100)}\r`, blocks: [] })).toBe(
      "/title: contains a control character",
    );
  });
});

describe("size", () => {
  it("accepts exactly 65,536 serialized bytes and rejects one more", () => {
    expect(MAX_PANEL_DOCUMENT_BYTES).toBe(65_536);
    accept(documentOfBytes(65_536));
    expect(documentIssue(documentOfBytes(65_537))).toEqual({
      code: "panel_too_large",
      message: "document is 65537 bytes; the limit is 65536",
    });
  });

  it("counts UTF-8 bytes, not UTF-16 units", () => {
    const ascii = documentOfBytes(65_536) as { blocks: Array<{ text: string }> };
    const last = ascii.blocks[ascii.blocks.length - 1] as { text: string };
    // Swap two ASCII bytes for one two-byte character: same bytes, one unit shorter.
    last.text = `${last.text.slice(2)}é`;
    accept(ascii);
    last.text = `${last.text.slice(1)}é`;
    expect(documentIssue(ascii)).toEqual({
      code: "panel_too_large",
      message: "document is 65537 bytes; the limit is 65536",
    });
  });

  it("checks the size after every structural rule", () => {
    const big = documentOfBytes(70_000);
    expect(documentMessage({ ...big, status: "loud" })).toBe(
      "/status: must be one of idle, active, done, failed",
    );
  });
});

describe("copies", () => {
  it("returns a deep-frozen copy and never mutates the input", () => {
    const input = {
      title: "T",
      blocks: [
        { id: "c", kind: "checklist", items: [{ id: "a", label: "A", ref: { path: "x" }, children: [] }] },
      ],
    };
    const snapshot = JSON.stringify(input);
    const document = accept(input);
    expect(JSON.stringify(input)).toBe(snapshot);
    expect(document).toEqual(input);
    expect(document).not.toBe(input);
    expect(document.blocks[0]).not.toBe(input.blocks[0]);
    const item = (document.blocks[0] as unknown as { items: Array<{ ref: object; children: unknown[] }> })
      .items[0];
    for (const value of [document, document.blocks, document.blocks[0], item, item?.ref, item?.children]) {
      expect(Object.isFrozen(value)).toBe(true);
    }
  });

  it("keeps the input's key order", () => {
    const document = accept({ blocks: [{ text: "x", kind: "markdown", id: "m" }], title: "T" });
    expect(Object.keys(document)).toEqual(["blocks", "title"]);
    expect(Object.keys(document.blocks[0] ?? {})).toEqual(["text", "kind", "id"]);
  });

  it("leaves out undefined values as JSON does", () => {
    const document = accept({ title: undefined, blocks: [{ ...md("x"), title: undefined }] });
    expect(document).toStrictEqual({ blocks: [{ id: "m", kind: "markdown", text: "x" }] });
  });

  it("returns an already validated document as is", () => {
    const document = accept({ blocks: [md("x")] });
    expect(accept(document)).toBe(document);
  });

  it("treats a __proto__ key as an unknown field and never pollutes prototypes", () => {
    expect(documentMessage(JSON.parse('{"blocks":[],"__proto__":{"polluted":1}}'))).toBe(
      "/__proto__: unknown field",
    );
    expect(
      documentMessage(JSON.parse('{"blocks":[{"id":"m","kind":"markdown","text":"","__proto__":{}}]}')),
    ).toBe("/blocks/0/__proto__: unknown field");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses values that are not plain objects", () => {
    class Doc {
      blocks = [];
    }
    expect(documentMessage(new Doc())).toBe("/: must be an object");
    expect(documentMessage(withBlock(new Map()))).toBe("/blocks/0: must be an object");
    accept(Object.assign(Object.create(null), { blocks: [] }));
  });

  it("reports a throwing getter as not serializable", () => {
    const input = {
      blocks: [],
      get title(): string {
        throw new Error("boom");
      },
    };
    expect(documentIssue(input)).toEqual({
      code: "panel_invalid",
      message: "/: is not serializable",
      path: "/",
    });
  });
});

describe("unknown kinds", () => {
  it("accepts any extra data and checks only the common fields", () => {
    const block = {
      id: "x",
      kind: "chart",
      title: "Chart",
      fallback: "",
      series: [1, 2, { a: null }],
      items: 5,
    };
    const document = accept(withBlock(block));
    expect(document.blocks[0]).toEqual(block);
    expect(Object.isFrozen((document.blocks[0] as unknown as { series: unknown[] }).series)).toBe(true);
  });

  it.each([
    ["a missing id", { kind: "chart" }, "/blocks/0/id", "must match ^[A-Za-z0-9_-]{1,32}$"],
    ["a bad id", { id: "a.b", kind: "chart" }, "/blocks/0/id", "must match ^[A-Za-z0-9_-]{1,32}$"],
    [
      "a 33-character id",
      { id: "i".repeat(33), kind: "chart" },
      "/blocks/0/id",
      "must match ^[A-Za-z0-9_-]{1,32}$",
    ],
    ["a missing kind", { id: "x" }, "/blocks/0/kind", "must be a string"],
    ["an empty kind", { id: "x", kind: "" }, "/blocks/0/kind", "must be a string"],
    ["a non-string kind", { id: "x", kind: 3 }, "/blocks/0/kind", "must be a string"],
    [
      "an 81-character title",
      { id: "x", kind: "chart", title: "t".repeat(81) },
      "/blocks/0/title",
      "must be at most 80 characters",
    ],
    [
      "a 4097-byte fallback",
      { id: "x", kind: "chart", fallback: "f".repeat(4097) },
      "/blocks/0/fallback",
      "must be at most 4096 bytes",
    ],
    ["a BigInt", { id: "x", kind: "chart", data: 1n }, "/blocks/0", "is not serializable"],
  ])("rejects %s", (_name, block, pointer, reason) => {
    expect(documentMessage(withBlock(block))).toBe(`${pointer}: ${reason}`);
  });

  it("rejects a cycle as not serializable", () => {
    const block: Record<string, unknown> = { id: "x", kind: "chart" };
    block.self = block;
    expect(documentMessage(withBlock(block))).toBe("/blocks/0: is not serializable");
  });

  it("accepts a 32-character id and a 4096-byte fallback", () => {
    accept(withBlock({ id: "i".repeat(32), kind: "chart", fallback: "é".repeat(2048) }));
    expect(documentMessage(withBlock({ id: "x", kind: "chart", fallback: `${"é".repeat(2048)}a` }))).toBe(
      "/blocks/0/fallback: must be at most 4096 bytes",
    );
  });

  it("rejects common-field errors before any kind rule", () => {
    expect(documentMessage(withBlock({ id: "x", kind: "markdown", title: 1 }))).toBe(
      "/blocks/0/title: must be a string",
    );
  });

  it("validates the same block object each time", () => {
    const block = { id: "x", kind: "markdown", text: "a" };
    expect(validatePanelDocument({ blocks: [block, { ...block, id: "y" }] }).ok).toBe(true);
  });
});
