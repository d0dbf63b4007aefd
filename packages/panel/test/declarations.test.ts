import { describe, expect, it } from "vitest";
import { parsePanelDeclaration, parsePanelDeclarations } from "../src/index.js";

const base = { id: "todo", title: "Todo" };
const prompt = {
  id: "ask",
  label: "Ask",
  scope: "panel",
  kind: "prompt",
  text: "Tell me about {{panel.id}}",
};
const tool = { id: "retry", label: "Retry", scope: "item", kind: "tool", arguments: { step: "{{item.id}}" } };
const response = { id: "send", label: "Send", scope: "block", kind: "response", response: "submit" };

function reject(value: unknown, pointer?: string) {
  const result = parsePanelDeclaration(value, pointer === undefined ? {} : { pointer });
  if (result.ok) throw new Error("expected a failure");
  expect(result.issues).toHaveLength(1);
  return result.issues[0];
}

describe("parsePanelDeclaration", () => {
  it("normalizes a minimal declaration with every default", () => {
    const result = parsePanelDeclaration(base);
    expect(result).toEqual({
      ok: true,
      declaration: {
        id: "todo",
        title: "Todo",
        icon: "panel",
        open: "never",
        context: "none",
        placement: "sidebar",
        acp_plan: false,
        actions: [],
      },
      warnings: [],
    });
    if (result.ok) {
      expect(Object.keys(result.declaration)).toEqual([
        "id",
        "title",
        "icon",
        "open",
        "context",
        "placement",
        "acp_plan",
        "actions",
      ]);
      expect(Object.isFrozen(result.declaration)).toBe(true);
    }
  });

  it("keeps given values and copies actions", () => {
    const input = {
      ...base,
      icon: "gauge",
      open: "first_update",
      context: "summary",
      placement: "chat",
      acp_plan: true,
      actions: [prompt, tool, response],
    };
    const result = parsePanelDeclaration(input);
    expect(result.ok && result.declaration).toEqual(input);
    expect(result.ok && result.declaration.actions[1]?.arguments).not.toBe(tool.arguments);
  });

  it("accepts a 40-character title, counting code points", () => {
    expect(parsePanelDeclaration({ ...base, title: "t".repeat(40) }).ok).toBe(true);
    expect(parsePanelDeclaration({ ...base, title: "😀".repeat(40) }).ok).toBe(true);
    expect(reject({ ...base, title: "😀".repeat(41) })?.message).toBe(
      "/title: must be at most 40 characters",
    );
  });

  it("warns about an unknown icon and falls back to panel", () => {
    const result = parsePanelDeclaration({ ...base, icon: "rocket" }, { pointer: "/panels/2" });
    expect(result).toMatchObject({ ok: true, declaration: { icon: "panel" } });
    // The contract's warning object is exactly { code, message } (panels.md §2.2)...
    expect(result.ok && result.warnings).toStrictEqual([
      { code: "panel_icon_unknown", message: '/panels/2: unknown icon "rocket" falls back to "panel"' },
    ]);
    expect(result.ok && JSON.parse(JSON.stringify(result.warnings))).toStrictEqual([
      { code: "panel_icon_unknown", message: '/panels/2: unknown icon "rocket" falls back to "panel"' },
    ]);
    // ...and the icon's pointer rides along, non-enumerable, for tools that place the warning.
    expect(result.ok && result.warnings[0]?.path).toBe("/panels/2/icon");
    const root = parsePanelDeclaration({ ...base, icon: "rocket" });
    expect(root.ok && root.warnings[0]?.message).toBe('/: unknown icon "rocket" falls back to "panel"');
    expect(root.ok && root.warnings[0]?.path).toBe("/icon");
  });

  it.each([
    ["a non-object", [], "/", "must be an object"],
    ["null", null, "/", "must be an object"],
    ["an unknown field", { ...base, color: "red" }, "/color", "unknown field"],
    ["an unknown field before a bad id", { id: 1, zz: 1 }, "/zz", "unknown field"],
    ["a missing id", { title: "T" }, "/id", "must match ^[a-z][a-z0-9_-]{0,31}$"],
    ["an upper-case id", { ...base, id: "Todo" }, "/id", "must match ^[a-z][a-z0-9_-]{0,31}$"],
    ["a 33-character id", { ...base, id: `a${"b".repeat(32)}` }, "/id", "must match ^[a-z][a-z0-9_-]{0,31}$"],
    ["a missing title", { id: "todo" }, "/title", "must be a string"],
    [
      "a control character in the title",
      { ...base, title: "a\rb" },
      "/title",
      "contains a control character",
    ],
    ["a 41-character title", { ...base, title: "t".repeat(41) }, "/title", "must be at most 40 characters"],
    ["an empty title", { ...base, title: "" }, "/title", "must not be empty"],
    ["a non-string icon", { ...base, icon: 3 }, "/icon", "must be a string"],
    ["a bad open", { ...base, open: "always" }, "/open", "must be one of never, first_update"],
    ["a bad context", { ...base, context: "full" }, "/context", "must be one of none, summary"],
    ["a bad placement", { ...base, placement: "modal" }, "/placement", "must be one of chat, sidebar"],
    ["a bad acp_plan", { ...base, acp_plan: "yes" }, "/acp_plan", "must be a boolean"],
    ["non-array actions", { ...base, actions: {} }, "/actions", "must be an array"],
    [
      "9 actions",
      { ...base, actions: Array.from({ length: 9 }, (_, i) => ({ ...prompt, id: `a${i}` })) },
      "/actions",
      "must have at most 8 entries",
    ],
    [
      "a duplicate action id",
      { ...base, actions: [prompt, { ...tool, id: "ask" }] },
      "/actions/1/id",
      "duplicate action id",
    ],
    [
      "two primary actions",
      {
        ...base,
        actions: [
          { ...tool, primary: true },
          { ...tool, id: "again", primary: true },
        ],
      },
      "/actions",
      "at most one primary action",
    ],
  ])("rejects %s", (_name, value, pointer, reason) => {
    expect(reject(value)).toEqual({ code: "panel_invalid", message: `${pointer}: ${reason}`, path: pointer });
  });

  it("checks in the order of the spec: id before title before open", () => {
    expect(reject({ id: "A", title: "", open: "x" })?.path).toBe("/id");
    expect(reject({ id: "a", title: "", open: "x" })?.path).toBe("/title");
  });

  it("reports an invalid action before a later duplicate, and the duplicate after its own checks", () => {
    expect(reject({ ...base, actions: [prompt, { ...prompt, label: "" }] })?.message).toBe(
      "/actions/1/label: must not be empty",
    );
  });

  it("accepts exactly 8 actions", () => {
    const actions = Array.from({ length: 8 }, (_, i) => ({ ...prompt, id: `a${i}` }));
    expect(parsePanelDeclaration({ ...base, actions }).ok).toBe(true);
  });

  it("prefixes pointers with the declaration's location", () => {
    expect(reject({ ...base, title: 5 }, "/panels/0")).toEqual({
      code: "panel_invalid",
      message: "/panels/0/title: must be a string",
      path: "/panels/0/title",
    });
    expect(reject("x", "/panels/3")?.message).toBe("/panels/3: must be an object");
  });

  it("does not mutate its input and treats __proto__ as data", () => {
    const input = JSON.parse('{"id":"todo","title":"T","__proto__":{"polluted":true}}');
    expect(reject(input)?.message).toBe("/__proto__: unknown field");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const args = JSON.parse('{"__proto__":{"x":"{{item.id}}"}}');
    const result = parsePanelDeclaration({ ...base, actions: [{ ...tool, arguments: args }] });
    expect(result.ok).toBe(true);
    const copied = result.ok ? result.declaration.actions[0]?.arguments : undefined;
    expect(Object.keys(copied ?? {})).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
  });
});

describe("action declarations", () => {
  const reason = (action: unknown) => reject({ ...base, actions: [action] })?.message;

  it.each([
    ["a non-object", 1, "/actions/0: must be an object"],
    ["an unknown field", { ...prompt, extra: 1 }, "/actions/0/extra: unknown field"],
    ["a bad id", { ...prompt, id: "Ask" }, "/actions/0/id: must match ^[a-z][a-z0-9_-]{0,31}$"],
    ["an empty label", { ...prompt, label: "" }, "/actions/0/label: must not be empty"],
    [
      "a 33-character label",
      { ...prompt, label: "l".repeat(33) },
      "/actions/0/label: must be at most 32 characters",
    ],
    ["a bad scope", { ...prompt, scope: "menu" }, "/actions/0/scope: must be one of panel, block, item"],
    [
      "a missing scope",
      { ...prompt, scope: undefined },
      "/actions/0/scope: must be one of panel, block, item",
    ],
    ["a bad kind", { ...prompt, kind: "link" }, "/actions/0/kind: must be one of prompt, tool, response"],
    [
      "response on a prompt",
      { ...prompt, response: "submit" },
      "/actions/0/response: is only for response actions",
    ],
    [
      "blocks on a panel action",
      { ...prompt, blocks: ["a"] },
      "/actions/0/blocks: is not allowed for panel scope",
    ],
    ["non-array blocks", { ...prompt, scope: "block", blocks: "a" }, "/actions/0/blocks: must be an array"],
    [
      "empty blocks",
      { ...prompt, scope: "block", blocks: [] },
      "/actions/0/blocks: must have at least 1 entries",
    ],
    [
      "21 blocks",
      { ...prompt, scope: "block", blocks: Array.from({ length: 21 }, (_, i) => `b${i}`) },
      "/actions/0/blocks: must have at most 20 entries",
    ],
    [
      "a bad block id",
      { ...prompt, scope: "block", blocks: ["a", "b c"] },
      "/actions/0/blocks/1: must match ^[A-Za-z0-9_-]{1,32}$",
    ],
    ["a prompt without text", { ...prompt, text: undefined }, "/actions/0/text: must be a string"],
    ["an empty prompt text", { ...prompt, text: "" }, "/actions/0/text: must not be empty"],
    [
      "a 2001-character prompt",
      { ...prompt, text: "t".repeat(2001) },
      "/actions/0/text: must be at most 2000 characters",
    ],
    ["a non-boolean send", { ...prompt, send: 1 }, "/actions/0/send: must be a boolean"],
    ["arguments on a prompt", { ...prompt, arguments: {} }, "/actions/0/arguments: is only for tool actions"],
    [
      "an unknown prompt template",
      { ...prompt, text: "Do {{ item.name }}" },
      "/actions/0/text: unknown template {{item.name}}",
    ],
    [
      "a tool without arguments",
      { ...tool, arguments: undefined },
      "/actions/0/arguments: must be an object",
    ],
    ["array arguments", { ...tool, arguments: [] }, "/actions/0/arguments: must be an object"],
    ["text on a tool", { ...tool, text: "x" }, "/actions/0: text and send are only for prompt actions"],
    ["send on a tool", { ...tool, send: false }, "/actions/0: text and send are only for prompt actions"],
    [
      "an unknown template inside arguments",
      { ...tool, arguments: { a: { "b/c": ["ok {{block.id}}", "{{session.id}}"] } } },
      "/actions/0/arguments/a/b~1c/1: unknown template {{session.id}}",
    ],
    [
      "a response on panel scope",
      { ...response, scope: "panel" },
      "/actions/0/scope: response actions require block scope",
    ],
    [
      "a response without response",
      { ...response, response: undefined },
      "/actions/0/response: must be one of submit, cancel",
    ],
    [
      "a bad response",
      { ...response, response: "accept" },
      "/actions/0/response: must be one of submit, cancel",
    ],
    [
      "a response with arguments",
      { ...response, arguments: {} },
      "/actions/0: response actions do not accept execution arguments or item predicates",
    ],
    [
      "a response with when",
      { ...response, when: { status: ["done"] } },
      "/actions/0: response actions do not accept execution arguments or item predicates",
    ],
    ["a false primary", { ...tool, primary: false }, "/actions/0/primary: must be true"],
    [
      "a primary block action",
      { ...tool, scope: "block", primary: true },
      "/actions/0/primary: is only for item actions",
    ],
    ["an empty confirm", { ...tool, confirm: "" }, "/actions/0/confirm: must not be empty"],
    [
      "a 201-character confirm",
      { ...tool, confirm: "c".repeat(201) },
      "/actions/0/confirm: must be at most 200 characters",
    ],
    ["a non-object when", { ...tool, when: [] }, "/actions/0/when: must be an object"],
    [
      "an unknown when key",
      { ...tool, when: { status: ["done"], level: 1 } },
      "/actions/0/when/level: unknown field",
    ],
    ["a when without status", { ...tool, when: {} }, "/actions/0/when/status: must be an array"],
    [
      "an empty when status",
      { ...tool, when: { status: [] } },
      "/actions/0/when/status: must have at least 1 entries",
    ],
    [
      "7 when statuses",
      { ...tool, when: { status: ["done", "done", "done", "done", "done", "done", "done"] } },
      "/actions/0/when/status: must have at most 6 entries",
    ],
    [
      "an unknown when status",
      { ...tool, when: { status: ["done", "finished"] } },
      "/actions/0/when/status/1: must be one of pending, in_progress, done, skipped, blocked, failed",
    ],
  ])("rejects %s", (_name, action, message) => {
    expect(reason(action)).toBe(message);
  });

  it.each([
    [
      "all four templates with inner whitespace",
      { ...prompt, scope: "item", text: "{{ panel.id }}{{block.id}}{{item.id}}{{  item.label }}" },
    ],
    [
      "non-string argument values",
      { ...tool, arguments: { n: 1, b: true, z: null, list: [1, "{{item.label}}"] } },
    ],
    ["a primary item action with when", { ...tool, primary: true, when: { status: ["pending", "failed"] } }],
    ["a response with blocks", { ...response, blocks: ["form"] }],
    [
      "a 32-character label and 200-character confirm",
      { ...tool, label: "l".repeat(32), confirm: "c".repeat(200) },
    ],
    ["single braces", { ...prompt, text: "{item.id} and {{ panel.id }}" }],
    ["a 2000-character prompt", { ...prompt, text: "😀".repeat(2000) }],
    [
      "6 when statuses",
      { ...tool, when: { status: ["pending", "in_progress", "done", "skipped", "blocked", "failed"] } },
    ],
    ["20 blocks", { ...prompt, scope: "block", blocks: Array.from({ length: 20 }, (_, i) => `b${i}`) }],
  ])("accepts %s", (_name, action) => {
    expect(parsePanelDeclaration({ ...base, actions: [action] }).ok).toBe(true);
  });
});

describe("parsePanelDeclarations", () => {
  it("returns normalized declarations and their warnings", () => {
    const result = parsePanelDeclarations([base, { id: "other", title: "Other", icon: "nope" }], {
      pointer: "/panels",
    });
    expect(result).toMatchObject({
      ok: true,
      declarations: [{ id: "todo" }, { id: "other", icon: "panel" }],
    });
    expect(result.ok && result.warnings).toStrictEqual([
      { code: "panel_icon_unknown", message: '/panels/1: unknown icon "nope" falls back to "panel"' },
    ]);
    expect(result.ok && result.warnings[0]?.path).toBe("/panels/1/icon");
  });

  it("allIssues reports every failing field of every declaration in one run, in check order", () => {
    const declarations = [
      {
        id: "Bad Id",
        title: "",
        icon: 7,
        open: "always",
        context: "full",
        placement: "top",
        acp_plan: "yes",
        colour: "red",
        actions: [
          { id: "a", label: "A", scope: "panel", kind: "prompt" },
          { id: "b", label: "B", scope: "item", kind: "tool", arguments: {}, primary: true },
          { id: "c", label: "C", scope: "item", kind: "tool", arguments: {}, primary: true },
        ],
      },
      { id: "fine", title: "Fine", icon: "rocket" },
      "not an object",
    ];
    const all = parsePanelDeclarations(declarations, { pointer: "/panels", allIssues: true });
    expect(all.ok).toBe(false);
    expect(!all.ok && all.issues.map((issue) => issue.message)).toEqual([
      "/panels/0/colour: unknown field",
      "/panels/0/id: must match ^[a-z][a-z0-9_-]{0,31}$",
      "/panels/0/title: must not be empty",
      "/panels/0/icon: must be a string",
      "/panels/0/open: must be one of never, first_update",
      "/panels/0/context: must be one of none, summary",
      "/panels/0/placement: must be one of chat, sidebar",
      "/panels/0/acp_plan: must be a boolean",
      "/panels/0/actions/0/text: must be a string",
      "/panels/0/actions: at most one primary action",
      "/panels/2: must be an object",
    ]);
    expect(!all.ok && all.issues.every((issue) => issue.code === "panel_invalid")).toBe(true);
    expect(!all.ok && all.issues.map((issue) => issue.path)).toEqual([
      "/panels/0/colour",
      "/panels/0/id",
      "/panels/0/title",
      "/panels/0/icon",
      "/panels/0/open",
      "/panels/0/context",
      "/panels/0/placement",
      "/panels/0/acp_plan",
      "/panels/0/actions/0/text",
      "/panels/0/actions",
      "/panels/2",
    ]);
    // The contract's default: the first failure of each declaration only.
    const first = parsePanelDeclarations(declarations, { pointer: "/panels" });
    expect(!first.ok && first.issues.map((issue) => issue.message)).toEqual([
      "/panels/0/colour: unknown field",
      "/panels/2: must be an object",
    ]);
    // A valid declaration is the same in both modes.
    expect(parsePanelDeclaration(declarations[1], { allIssues: true })).toEqual(
      parsePanelDeclaration(declarations[1]),
    );
  });

  it("accepts 4 declarations and rejects 5 or a non-array", () => {
    const four = ["a", "b", "c", "d"].map((id) => ({ id, title: id }));
    expect(parsePanelDeclarations(four).ok).toBe(true);
    const issue = {
      code: "manifest_invalid_panels",
      message: "panels must be an array of at most 4 declarations",
      path: "/panels",
    };
    expect(parsePanelDeclarations([...four, { id: "e", title: "e" }], { pointer: "/panels" })).toEqual({
      ok: false,
      issues: [issue],
    });
    expect(parsePanelDeclarations({}, { pointer: "/panels" })).toEqual({ ok: false, issues: [issue] });
  });

  it("reports each declaration's first failure, then duplicate ids", () => {
    const result = parsePanelDeclarations(
      [base, { id: "x", title: 1, open: "?" }, { ...base, title: "Again" }, { id: "B" }],
      { pointer: "/panels" },
    );
    expect(result).toEqual({
      ok: false,
      issues: [
        { code: "panel_invalid", message: "/panels/1/title: must be a string", path: "/panels/1/title" },
        {
          code: "panel_invalid",
          message: "/panels/3/id: must match ^[a-z][a-z0-9_-]{0,31}$",
          path: "/panels/3/id",
        },
        { code: "manifest_invalid_panels", message: 'duplicate panel id "todo"', path: "/panels/2/id" },
      ],
    });
  });

  it("uses pointers from the root by default", () => {
    const result = parsePanelDeclarations([null]);
    expect(result).toEqual({
      ok: false,
      issues: [{ code: "panel_invalid", message: "/0: must be an object", path: "/0" }],
    });
  });
});
