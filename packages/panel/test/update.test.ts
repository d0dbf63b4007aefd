import { describe, expect, it } from "vitest";
import { validatePanelUpdate } from "../src/index.js";

function issue(update: unknown, options = {}) {
  const result = validatePanelUpdate(update, options);
  if (result.ok) throw new Error("expected the update to be rejected");
  expect(result.issues).toHaveLength(1);
  return result.issues[0];
}

const message = (update: unknown) => issue(update)?.message;
const patch = (...patches: unknown[]) => ({ panel: "todo", op: "patch", patches });

describe("validatePanelUpdate", () => {
  it("accepts the three ops and copies a replace document", () => {
    const document = { blocks: [] };
    const replace = validatePanelUpdate({ panel: "todo", op: "replace", document, base_revision: 0 });
    expect(replace).toEqual({
      ok: true,
      update: { panel: "todo", op: "replace", document, base_revision: 0 },
    });
    expect(replace.ok && replace.update.op === "replace" && replace.update.document).not.toBe(document);
    expect(validatePanelUpdate({ panel: "todo", op: "close" })).toEqual({
      ok: true,
      update: { panel: "todo", op: "close" },
    });
    expect(validatePanelUpdate(patch({ op: "set", field: "status", value: "done" }))).toEqual({
      ok: true,
      update: { panel: "todo", op: "patch", patches: [{ op: "set", field: "status", value: "done" }] },
    });
  });

  it.each([
    ["a non-object", "x", "/: must be an object"],
    ["an array", [], "/: must be an object"],
    ["a missing panel", { op: "close" }, "/panel: must match ^[a-z][a-z0-9_-]{0,31}$"],
    ["a full panel id", { panel: "tool#todo", op: "close" }, "/panel: must match ^[a-z][a-z0-9_-]{0,31}$"],
    ["an unknown op", { panel: "todo", op: "merge" }, "/op: must be replace, patch or close"],
    ["a missing op", { panel: "todo" }, "/op: must be replace, patch or close"],
    ["close with a document", { panel: "todo", op: "close", document: {} }, "/document: unknown field"],
    [
      "replace with patches",
      { panel: "todo", op: "replace", document: { blocks: [] }, patches: [] },
      "/patches: unknown field",
    ],
    ["a result block's type", { type: "panel", panel: "todo", op: "close" }, "/type: unknown field"],
    [
      "a negative base_revision",
      { panel: "todo", op: "close", base_revision: -1 },
      "/base_revision: must be an integer of at least 0",
    ],
    [
      "a string base_revision",
      { panel: "todo", op: "close", base_revision: "1" },
      "/base_revision: must be an integer of at least 0",
    ],
    [
      "an unsafe base_revision",
      { panel: "todo", op: "close", base_revision: 2 ** 53 },
      "/base_revision: must be an integer of at least 0",
    ],
    ["replace without document", { panel: "todo", op: "replace" }, "/document: is required"],
    [
      "replace with a non-object document",
      { panel: "todo", op: "replace", document: 5 },
      "/: must be an object",
    ],
    [
      "replace with a bad nested item",
      {
        panel: "todo",
        op: "replace",
        document: { blocks: [{ id: "t", kind: "checklist", items: [{ id: "a", label: "A", oops: 1 }] }] },
      },
      "/blocks/0/items/0/oops: unknown field",
    ],
    ["patch without patches", { panel: "todo", op: "patch" }, "/patches: must be an array"],
    ["patch with no patches", patch(), "/patches: must have at least 1 entries"],
  ])("rejects %s", (_name, update, expected) => {
    expect(message(update)).toBe(expected);
  });

  it("reports a too-large replace document", () => {
    const document = {
      blocks: [0, 1, 2, 3, 4].map((i) => ({ id: `m${i}`, kind: "markdown", text: "a".repeat(16_000) })),
    };
    expect(issue({ panel: "todo", op: "replace", document })).toEqual({
      code: "panel_too_large",
      message: `document is ${JSON.stringify(document).length} bytes; the limit is 65536`,
    });
  });

  it("checks the panel, then the op, then keys, then base_revision", () => {
    expect(message({ panel: 1, op: "x", zz: 1, base_revision: -1 })).toBe(
      "/panel: must match ^[a-z][a-z0-9_-]{0,31}$",
    );
    expect(message({ panel: "a", op: "x", zz: 1, base_revision: -1 })).toBe(
      "/op: must be replace, patch or close",
    );
    expect(message({ panel: "a", op: "close", zz: 1, base_revision: -1 })).toBe("/zz: unknown field");
    expect(message({ panel: "a", op: "replace", base_revision: -1 })).toBe(
      "/base_revision: must be an integer of at least 0",
    );
  });

  it("takes a resolved panel id and ignored keys from the host", () => {
    expect(validatePanelUpdate({ op: "close" }, { panel: "todo" })).toEqual({
      ok: true,
      update: { panel: "todo", op: "close" },
    });
    expect(
      validatePanelUpdate(
        { type: "panel", panel: "tool#todo", op: "close" },
        { panel: "todo", ignoreKeys: ["type"] },
      ),
    ).toEqual({
      ok: true,
      update: { panel: "todo", op: "close" },
    });
  });
});

describe("patch shapes", () => {
  const at = (p: unknown) =>
    message(patch({ op: "set", field: "title", value: "ok" }, p))?.replace(/^\/patches\/1/, "@");

  it.each([
    ["a non-object", 1, "@: must be an object"],
    ["an unknown op", { op: "move" }, "@/op: unknown patch operation"],
    ["a missing op", { field: "title" }, "@/op: unknown patch operation"],
    ["an inherited op name", { op: "constructor" }, "@/op: unknown patch operation"],
    ["set with an unknown key", { op: "set", field: "title", value: 1, extra: 1 }, "@/extra: unknown field"],
    [
      "set on blocks",
      { op: "set", field: "blocks", value: [] },
      "@/field: must be one of title, subtitle, status, summary, context_summary, progress",
    ],
    ["set without value", { op: "set", field: "title" }, "@/value: is required"],
    ["set_block without block", { op: "set_block" }, "@/block: must be an object"],
    [
      "set_block with a bad block",
      { op: "set_block", block: { id: "b", kind: "markdown" } },
      "@/block/text: must be a string",
    ],
    ["remove_block with a field", { op: "remove_block", id: "a", block: "a" }, "@/block: unknown field"],
    ["upsert_items without items", { op: "upsert_items", block: "b" }, "@/items: must be an array"],
    [
      "upsert_items with no items",
      { op: "upsert_items", block: "b", items: [] },
      "@/items: must have at least 1 entries",
    ],
    [
      "upsert_items with 201 items",
      { op: "upsert_items", block: "b", items: Array.from({ length: 201 }, () => ({})) },
      "@/items: must have at most 200 entries",
    ],
    [
      "upsert_items with a non-object item",
      { op: "upsert_items", block: "b", items: [{}, "x"] },
      "@/items/1: must be an object",
    ],
    [
      "remove_items without a selector",
      { op: "remove_items", block: "b" },
      "@: exactly one of ids, keys or paths is required",
    ],
    [
      "remove_items with two selectors",
      { op: "remove_items", block: "b", ids: ["a"], keys: ["a"] },
      "@: exactly one of ids, keys or paths is required",
    ],
    [
      "remove_items with no ids",
      { op: "remove_items", block: "b", ids: [] },
      "@/ids: must have at least 1 entries",
    ],
    [
      "remove_items with 201 paths",
      { op: "remove_items", block: "b", paths: Array.from({ length: 201 }, (_, i) => `p${i}`) },
      "@/paths: must have at most 200 entries",
    ],
    [
      "remove_items with a non-string key",
      { op: "remove_items", block: "b", keys: ["a", 1] },
      "@/keys/1: must be a string",
    ],
    ["append_events without events", { op: "append_events", block: "b" }, "@/events: must be an array"],
    [
      "append_events with no events",
      { op: "append_events", block: "b", events: [] },
      "@/events: must have at least 1 entries",
    ],
    [
      "append_events with 201 events",
      { op: "append_events", block: "b", events: Array.from({ length: 201 }, () => ({})) },
      "@/events: must have at most 200 entries",
    ],
  ])("rejects %s", (_name, p, expected) => {
    expect(at(p)).toBe(expected);
  });

  it("accepts 200 entries and any number of patches", () => {
    const ids = Array.from({ length: 200 }, (_, i) => `i${i}`);
    const many = Array.from({ length: 500 }, () => ({ op: "remove_items", block: "b", ids }));
    expect(validatePanelUpdate(patch(...many)).ok).toBe(true);
  });

  it("keeps set values as given (judged by the final validation)", () => {
    expect(validatePanelUpdate(patch({ op: "set", field: "summary", value: 3 })).ok).toBe(true);
    expect(validatePanelUpdate(patch({ op: "set", field: "progress", value: null })).ok).toBe(true);
  });
});
