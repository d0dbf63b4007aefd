/**
 * Issue 11, surfaces 1–2 — amendments A1 and A2 on panels. A2: the C1 controls U+0080–U+009F and the bidi controls
 * U+202A–U+202E and U+2066–U+2069 are refused like C0 controls, with the same message, in every checked string of
 * documents, updates and declarations (and by the published JSON Schemas). A1: what `renderPanelText` and
 * `renderReceiptLine` write holds no raw control, and every single-line item (label, note, cell, path, title) stays
 * one line whatever a document holds.
 */
import { validateWith } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { renderReceiptLine } from "../../src/host-entry.js";
import {
  PanelDocumentSchema,
  parsePanelDeclaration,
  renderPanelText,
  validatePanelDocument,
  validatePanelUpdate,
} from "../../src/index.js";

const A2: number[] = [];
for (let c = 0x80; c <= 0x9f; c++) A2.push(c);
for (let c = 0x202a; c <= 0x202e; c++) A2.push(c);
for (let c = 0x2066; c <= 0x2069; c++) A2.push(c);

const hex = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;

/** Documents with `s` placed in one checked string each, with the pointer the rejection must name. */
function placements(s: string): Array<[string, unknown]> {
  return [
    ["/title", { title: s, blocks: [] }],
    ["/subtitle", { subtitle: s, blocks: [] }],
    ["/summary", { summary: s, blocks: [] }],
    ["/blocks/0/text", { blocks: [{ id: "m", kind: "markdown", text: s }] }],
    ["/blocks/0/title", { blocks: [{ id: "m", kind: "markdown", title: s, text: "x" }] }],
    ["/blocks/0/items/0/label", { blocks: [{ id: "c", kind: "checklist", items: [{ id: "a", label: s }] }] }],
    [
      "/blocks/0/items/0/note",
      { blocks: [{ id: "c", kind: "checklist", items: [{ id: "a", label: "A", note: s }] }] },
    ],
    ["/blocks/0/entries/0/path", { blocks: [{ id: "f", kind: "files", entries: [{ path: s }] }] }],
    [
      "/blocks/0/entries/0/value",
      { blocks: [{ id: "k", kind: "key_value", entries: [{ key: "k", value: s }] }] },
    ],
    [
      "/blocks/0/rows/0/cells/c",
      {
        blocks: [
          {
            id: "t",
            kind: "table",
            columns: [{ id: "c", label: "C" }],
            rows: [{ id: "r", cells: { c: s } }],
          },
        ],
      },
    ],
    [
      "/blocks/0/fields/0/label",
      { blocks: [{ id: "q", kind: "form", fields: [{ id: "f", label: s, kind: "text" }] }] },
    ],
    ["/blocks/0/source", { blocks: [{ id: "d", kind: "mermaid", source: s }] }],
  ];
}

describe("A2: C1 and bidi controls are refused like C0 controls", () => {
  it.each(A2.map((c) => [hex(c), c]))(
    "%s is refused in every checked string, first failure named",
    (_, c) => {
      const s = `ok${String.fromCharCode(c)}ok`;
      for (const [pointer, document] of placements(s)) {
        const result = validatePanelDocument(document);
        expect(result.ok, pointer).toBe(false);
        expect(!result.ok && result.issues).toEqual([
          { code: "panel_invalid", message: `${pointer}: contains a control character`, path: pointer },
        ]);
        expect(validateWith(PanelDocumentSchema, document).length, pointer).toBeGreaterThan(0);
      }
      const update = validatePanelUpdate({
        panel: "board",
        op: "replace",
        document: { title: s, blocks: [] },
      });
      expect(update.ok).toBe(false);
      expect(!update.ok && update.issues[0]?.message).toBe("/title: contains a control character");
      const declaration = parsePanelDeclaration({ id: "todo", title: s });
      expect(!declaration.ok && declaration.issues[0]?.message).toBe("/title: contains a control character");
      const action = { id: "ask", label: "Ask", scope: "panel", kind: "prompt", text: "Tell me" };
      for (const [field, pointer] of [
        ["label", "/actions/0/label"],
        ["text", "/actions/0/text"],
      ] as const) {
        const withAction = parsePanelDeclaration({
          id: "todo",
          title: "T",
          actions: [{ ...action, [field]: s }],
        });
        expect(!withAction.ok && withAction.issues[0]?.message).toBe(
          `${pointer}: contains a control character`,
        );
      }
    },
  );

  it("keeps accepting LF, TAB and the neighbours of the refused ranges", () => {
    for (const s of ["a\tb\nc", "\u00a0", "\u00ff", "\u2029", "\u202f", "\u2065", "\u206a", "😀"]) {
      for (const [pointer, document] of placements(`x${s}`)) {
        expect(validatePanelDocument(document).ok, `${pointer} ${JSON.stringify(s)}`).toBe(true);
      }
    }
  });
});

/** The code points A1 never lets reach a terminal raw (LF is the line separator of the rendering). */
const RAW =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

describe("A1: renderPanelText and renderReceiptLine escape what a document may hold", () => {
  // What validation lets through and a terminal must not take raw: LF and TAB in one-line fields, zero-width
  // characters, the line and paragraph separators, U+061C and the BOM.
  const sneaky = "a\nforged line\tb\u200b\u2028\u2029\u061c\u2060\ufeff";
  const shown = "a\\nforged line\\tb\\u200b\\u2028\\u2029\\u061c\\u2060\\ufeff";

  it("writes every single-line item as one line, escaped", () => {
    const document = validatePanelDocument({
      title: sneaky,
      subtitle: sneaky,
      blocks: [
        { id: "c", kind: "checklist", title: sneaky, items: [{ id: "a", label: sneaky, note: sneaky }] },
        { id: "s", kind: "steps", items: [{ id: "a", label: sneaky, detail: sneaky }] },
        { id: "k", kind: "key_value", entries: [{ key: sneaky, value: sneaky, ref: { path: sneaky } }] },
        { id: "f", kind: "files", entries: [{ path: sneaky, label: sneaky }] },
        {
          id: "e",
          kind: "timeline",
          events: [{ id: "a", at: 0, level: "info", label: sneaky, detail: sneaky }],
        },
        {
          id: "t",
          kind: "table",
          columns: [{ id: "c", label: sneaky }],
          rows: [{ id: "r", cells: { c: sneaky } }],
        },
        {
          id: "q",
          kind: "form",
          fields: [
            {
              id: "f",
              label: sneaky,
              description: sneaky,
              kind: "single_select",
              options: [{ id: "o", label: sneaky }],
            },
          ],
        },
      ],
    });
    if (!document.ok) throw new Error(JSON.stringify(document.issues));
    const text = renderPanelText(sneaky, document.document);
    expect(text).not.toMatch(RAW);
    expect(text.split("\n")).toEqual([
      `${shown} (0/1) — ${shown}`,
      `## ${shown}`,
      `[ ] ${shown} — ${shown}`,
      `1. [ ] ${shown} — ${shown}`,
      `${shown}: ${shown} (${shown})`,
      `R ${shown} ${shown}`,
      `[info] ${shown} — ${shown}`,
      `  ${shown}`,
      `  ${shown}`,
      `- ${shown} (single_select, optional)`,
      `  ${shown}`,
      `  - ${shown} [o]`,
    ]);
  });

  it("keeps the lines and tabs of markdown and Mermaid source, escaping the rest", () => {
    const document = validatePanelDocument({
      blocks: [
        { id: "m", kind: "markdown", text: "# T\n\n\tcode\u200b\u2028x" },
        { id: "d", kind: "mermaid", source: "flowchart LR\n\tA-->B\u2029", fallback: "f\ng" },
      ],
    });
    if (!document.ok) throw new Error(JSON.stringify(document.issues));
    expect(renderPanelText("P", document.document).split("\n")).toEqual([
      "P",
      "# T",
      "",
      "\tcode\\u200b\\u2028x",
      "f",
      "g",
      "```mermaid",
      "flowchart LR",
      "\tA-->B\\u2029",
      "```",
    ]);
  });

  it("writes a receipt line as one line whatever its title, summary or code hold", () => {
    expect(renderReceiptLine({ title: "T\n\u009b2J", revision: 2, summary: "s\u202e\r" })).toBe(
      "  ▸ T\\n\\x9b2J r2 · s\\u202e\\r",
    );
    expect(renderReceiptLine({ title: "T", revision: 1, summary: "", error: { code: "x\u001b[2K" } })).toBe(
      "  ▸ T update rejected: x\\x1b[2K",
    );
  });
});
