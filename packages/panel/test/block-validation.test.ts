import { describe, expect, it } from "vitest";
import { validatePanelBlock, validatePanelDocument, validatePanelFormField } from "../src/index.js";

describe("validatePanelBlock and validatePanelFormField: parts validated at the caller's pointer", () => {
  it("validates a block on its own, pointers starting at the base pointer", () => {
    const block = { id: "m", kind: "mermaid", source: 42 };
    expect(validatePanelBlock(block, { pointer: "/diagram" })).toEqual({
      ok: false,
      issues: [
        { code: "panel_invalid", message: "/diagram/source: must be a string", path: "/diagram/source" },
      ],
    });
    // The same rule as inside a document, only the pointer differs.
    const inDocument = validatePanelDocument({ blocks: [block] });
    expect(!inDocument.ok && inDocument.issues[0]?.message).toBe("/blocks/0/source: must be a string");
    expect(validatePanelBlock("nope")).toEqual({
      ok: false,
      issues: [{ code: "panel_invalid", message: "/: must be an object", path: "/" }],
    });
    const ok = validatePanelBlock({ id: "m", kind: "markdown", text: "# hi" });
    expect(ok.ok && Object.isFrozen(ok.block)).toBe(true);
  });

  it("validates one form field at the caller's pointer", () => {
    expect(
      validatePanelFormField(
        { id: "q", label: "Pick", kind: "single_select", options: [{ id: "a", label: "" }] },
        { pointer: "/questions/3" },
      ),
    ).toEqual({
      ok: false,
      issues: [
        {
          code: "panel_invalid",
          message: "/questions/3/options/0/label: must not be empty",
          path: "/questions/3/options/0/label",
        },
      ],
    });
    const ok = validatePanelFormField({ id: "q", label: "Name", kind: "text" });
    expect(ok).toEqual({ ok: true, field: { id: "q", label: "Name", kind: "text" } });
  });

  it("turns a throwing getter into is not serializable at the base pointer", () => {
    const hostile = {
      id: "x",
      get kind(): string {
        throw new Error("boom");
      },
    };
    expect(validatePanelBlock(hostile, { pointer: "/b" })).toEqual({
      ok: false,
      issues: [{ code: "panel_invalid", message: "/b: is not serializable", path: "/b" }],
    });
  });
});
