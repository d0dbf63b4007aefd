import { describe, expect, it } from "vitest";
import { isHookId, parseHookSelection } from "../src/index.js";

describe("parseHookSelection", () => {
  it.each(["agent/guard", "local/a_b-c", "pkg/tools/hooks/guard", "pkgdep/app/dep/hooks/guard"])(
    "accepts %s",
    (id) => {
      expect(isHookId(id)).toBe(true);
    },
  );

  it.each(["builtin/guard", "agent/Guard", "agent/", "guard", "pkg/tools/guard", "agent/a/b", 3])(
    "refuses %s",
    (id) => {
      expect(parseHookSelection([id])).toEqual({
        ok: false,
        issues: [{ code: "hook_selection_invalid", message: `invalid hook id: ${String(id)}`, path: "/0" }],
      });
    },
  );

  it("reports duplicates and keeps the order", () => {
    expect(parseHookSelection(["agent/b", "agent/a"])).toEqual({ ok: true, ids: ["agent/b", "agent/a"] });
    expect(parseHookSelection(["agent/a", "local/a", "agent/a"])).toEqual({
      ok: false,
      issues: [{ code: "hook_selection_duplicate", message: "duplicate selected hook: agent/a", path: "/2" }],
    });
    expect(parseHookSelection(undefined)).toEqual({ ok: true, ids: [] });
  });
});
