import { validateWith } from "@raw/schema";
import { checkCommittedSchemas } from "@raw/test-support/committed-schemas";
import { describe, expect, it } from "vitest";
import {
  FormAnswersSchema,
  PanelBlockSchema,
  PanelDeclarationSchema,
  PanelDocumentSchema,
  PanelUpdateSchema,
  parsePanelDeclaration,
  validatePanelDocument,
  validatePanelUpdate,
} from "../src/index.js";
import {
  FormAnswersSchemaSource,
  PanelBlockSchemaSource,
  PanelDeclarationSchemaSource,
  PanelDocumentSchemaSource,
  PanelUpdateSchemaSource,
} from "./schema-source.js";

const ID = "https://raw.tlelabs.com/schemas/raw.panel/2";
/** Each committed file: its TypeBox source (build time), the plain object the package exports (run time), its id. */
const files = [
  [
    "panel-declaration.schema.json",
    PanelDeclarationSchemaSource,
    PanelDeclarationSchema,
    `${ID}/panel-declaration.schema.json`,
  ],
  [
    "panel-document.schema.json",
    PanelDocumentSchemaSource,
    PanelDocumentSchema,
    `${ID}/panel-document.schema.json`,
  ],
  ["panel-update.schema.json", PanelUpdateSchemaSource, PanelUpdateSchema, `${ID}/panel-update.schema.json`],
  ["form-answers.schema.json", FormAnswersSchemaSource, FormAnswersSchema, `${ID}/form-answers.schema.json`],
] as const;

checkCommittedSchemas(files, import.meta.url);

it("PanelBlockSchema is the block schema of the source, the items of a document and the update's $defs.block", () => {
  expect(JSON.stringify(PanelBlockSchema)).toBe(JSON.stringify(PanelBlockSchemaSource));
  expect(PanelDocumentSchema.properties.blocks.items).toBe(PanelBlockSchema);
  expect(PanelUpdateSchema.$defs.block).toEqual(PanelBlockSchema);
  expect(PanelBlockSchema.anyOf).toHaveLength(11);
});

const documents = {
  valid: [
    { blocks: [] },
    {
      title: "Ship",
      subtitle: "main",
      status: "active",
      progress: { done: 1, total: 2 },
      summary: "",
      context_summary: "ctx",
      blocks: [
        {
          id: "tasks",
          kind: "checklist",
          title: "Tasks",
          items: [
            {
              id: "a",
              label: "A",
              status: "done",
              priority: "high",
              note: "n",
              ref: { path: "a.ts", line: 1 },
            },
            {
              id: "b",
              label: "B",
              children: [{ id: "c", label: "C", children: [{ id: "d", label: "D", children: [] }] }],
            },
          ],
        },
        { id: "s", kind: "steps", items: [{ id: "s1", label: "S", started_at: 0, ended_at: 5 }] },
        { id: "p", kind: "progress", value: 1.5, max: 2 },
        { id: "p2", kind: "progress", indeterminate: true },
        { id: "kv", kind: "key_value", entries: [{ key: "k", value: "" }] },
        {
          id: "t",
          kind: "table",
          columns: [{ id: "n", label: "" }],
          rows: [{ id: "r", status: "failed", cells: { n: "x" } }],
        },
        { id: "m", kind: "markdown", text: "" },
        { id: "l", kind: "timeline", max: 5, events: [{ id: "e", at: 0, level: "error", label: "E" }] },
        { id: "f", kind: "files", entries: [{ path: "a", status: "deleted", line: 2, label: "" }] },
        {
          id: "q",
          kind: "form",
          fields: [
            { id: "t", label: "T", kind: "text", max_bytes: 10, multiline: true },
            { id: "s", label: "S", kind: "single_select", options: [{ id: "a", label: "A" }] },
            {
              id: "m",
              label: "M",
              kind: "multi_select",
              options: [{ id: "a", label: "A" }],
              min_selected: 0,
              max_selected: 1,
            },
          ],
        },
        { id: "g", kind: "mermaid", source: "graph TD" },
        { id: "u", kind: "chart", anything: [1, { x: null }] },
      ],
    },
  ],
  invalid: [
    { blocks: [], extra: 1 },
    { blocks: [{ id: "m", kind: "markdown" }] },
    { blocks: [{ id: "m", kind: "markdown", text: "", extra: 1 }] },
    { blocks: [{ id: "c", kind: "checklist", items: [{ id: "a", label: "" }] }] },
    {
      blocks: [
        {
          id: "c",
          kind: "checklist",
          items: [
            {
              id: "a",
              label: "A",
              children: [
                {
                  id: "b",
                  label: "B",
                  children: [{ id: "c", label: "C", children: [{ id: "d", label: "D" }] }],
                },
              ],
            },
          ],
        },
      ],
    },
    { blocks: [{ id: "p", kind: "progress", indeterminate: true, value: 1 }] },
    { title: "a\rb", blocks: [] },
    { blocks: [{ id: "x", kind: "" }] },
    { blocks: [{ id: "g", kind: "mermaid", source: "" }] },
  ],
};

describe("the JSON Schemas agree with the validators on representative values", () => {
  it.each(documents.valid.map((d) => [d]))("accepts document %#", (document) => {
    expect(validatePanelDocument(document).ok).toBe(true);
    expect(validateWith(PanelDocumentSchema, document)).toEqual([]);
  });

  it.each(documents.invalid.map((d) => [d]))("rejects document %#", (document) => {
    expect(validatePanelDocument(document).ok).toBe(false);
    expect(validateWith(PanelDocumentSchema, document).length).toBeGreaterThan(0);
  });

  it("checks declarations", () => {
    const valid = {
      id: "todo",
      title: "Todo",
      icon: "list-checks",
      placement: "chat",
      actions: [
        { id: "a", label: "A", scope: "item", kind: "tool", arguments: { x: "{{item.id}}" }, primary: true },
        { id: "b", label: "B", scope: "panel", kind: "prompt", text: "t", send: true },
        { id: "c", label: "C", scope: "block", kind: "response", response: "cancel", blocks: ["form"] },
      ],
    };
    expect(parsePanelDeclaration(valid).ok).toBe(true);
    expect(validateWith(PanelDeclarationSchema, valid)).toEqual([]);
    for (const invalid of [
      { id: "Todo", title: "T" },
      { id: "todo", title: "" },
      {
        id: "todo",
        title: "T",
        actions: [{ id: "c", label: "C", scope: "item", kind: "response", response: "submit" }],
      },
      {
        id: "todo",
        title: "T",
        actions: [{ id: "t", label: "T", scope: "item", kind: "tool", arguments: {}, text: "x" }],
      },
    ]) {
      expect(parsePanelDeclaration(invalid).ok).toBe(false);
      expect(validateWith(PanelDeclarationSchema, invalid).length).toBeGreaterThan(0);
    }
  });

  it("checks updates", () => {
    const valid = [
      { panel: "todo", op: "replace", document: { blocks: [] }, base_revision: 0 },
      { panel: "todo", op: "close" },
      {
        panel: "todo",
        op: "patch",
        patches: [
          { op: "set", field: "status", value: null },
          { op: "set_block", block: { id: "m", kind: "markdown", text: "" }, before: "x" },
          { op: "remove_block", id: "m" },
          { op: "upsert_items", block: "c", items: [{ id: "a" }], parent: "p" },
          { op: "remove_items", block: "c", keys: ["a"] },
          { op: "append_events", block: "l", events: [{ id: "e", at: 1, level: "info", label: "x" }] },
        ],
      },
    ];
    for (const update of valid) {
      expect(validatePanelUpdate(update).ok).toBe(true);
      expect(validateWith(PanelUpdateSchema, update)).toEqual([]);
    }
    for (const update of [
      { panel: "todo", op: "close", document: {} },
      { panel: "todo", op: "patch", patches: [] },
      { panel: "todo", op: "patch", patches: [{ op: "remove_items", block: "c", ids: ["a"], keys: ["b"] }] },
      { panel: "todo", op: "patch", patches: [{ op: "set", field: "title" }] },
    ]) {
      expect(validatePanelUpdate(update).ok).toBe(false);
      expect(validateWith(PanelUpdateSchema, update).length).toBeGreaterThan(0);
    }
  });

  it("checks form answers", () => {
    expect(validateWith(FormAnswersSchema, { env: "prod", tags: ["a", "b"], __proto__x: "y" })).toEqual([]);
    expect(validateWith(FormAnswersSchema, { env: 1 }).length).toBeGreaterThan(0);
    expect(validateWith(FormAnswersSchema, { "bad key": "x" }).length).toBeGreaterThan(0);
  });
});
