import { renderPanelText } from "@raw/panel";
import { extractPanelBlocks } from "@raw/panel/host";
import { describe, expect, it } from "vitest";
import { handler, validateArgs } from "../src/diagram/index.js";
import { DIAGRAM_INPUT_SCHEMA, DIAGRAM_MANIFEST } from "../src/diagram/manifest.js";
import { schemaRejects, textOf } from "./helpers.js";
import { panelSession } from "./panel-context.js";

const source = "flowchart LR\nA-->B";

describe("diagram", () => {
  it("publishes a mermaid block in a fresh chat view by default", async () => {
    const session = panelSession("builtin/diagram", DIAGRAM_MANIFEST);
    const { call, context } = session.begin("/work");
    const result = await handler({ source, title: "Flow" }, context);
    expect(result).toEqual({
      isError: false,
      content: [{ type: "text", text: "diagram published on chat_diagram (revision 1)" }],
    });
    const state = context.panels.get("chat_diagram");
    expect(state?.document).toEqual({ title: "Flow", blocks: [{ id: "diagram", kind: "mermaid", source }] });
    expect(renderPanelText("Diagram", state?.document as never)).toBe(
      "Flow\n```mermaid\nflowchart LR\nA-->B\n```",
    );
    const { receipts } = call.settle({ hasOtherContent: true });
    expect(receipts).toMatchObject([{ panel: "chat_diagram", revision: 1, view: expect.any(String) }]);
    expect(session.host.list()).toEqual([]);
  });

  it("publishes on the sidebar panel, revised by later calls", async () => {
    const session = panelSession("builtin/diagram", DIAGRAM_MANIFEST);
    const first = session.begin("/work");
    await handler({ source, placement: "sidebar" }, first.context);
    first.call.settle({ hasOtherContent: true });
    const second = session.begin("/work");
    const result = await handler(
      { source: "sequenceDiagram\nA->>B: hi", placement: "sidebar" },
      second.context,
    );
    expect(textOf(result)).toBe("diagram published on diagram (revision 2)");
    second.call.settle({ hasOtherContent: true });
    expect(session.host.list().map((panel) => [panel.fullId, panel.revision])).toEqual([
      ["builtin/diagram#diagram", 2],
    ]);
  });

  it("without context.panels returns only a panel result block", async () => {
    const result = await handler({ source }, { cwd: "/work", maxOutputBytes: 65_536 });
    expect(result.content).toEqual([
      {
        type: "panel",
        panel: "chat_diagram",
        op: "replace",
        document: { blocks: [{ id: "diagram", kind: "mermaid", source }] },
      },
    ]);
    const session = panelSession("builtin/diagram", DIAGRAM_MANIFEST);
    const { call } = session.begin("/work");
    call.applyResultBlocks(extractPanelBlocks(result.content).panelBlocks);
    expect(call.settle().modelLines).toEqual(["panel chat_diagram updated (revision 1): Diagram"]);
  });

  it("a rejected update is an error result with the panel code", async () => {
    const session = panelSession("builtin/diagram", DIAGRAM_MANIFEST);
    const { call, context } = session.begin("/work");
    call.closeContext();
    const result = await handler({ source }, context);
    expect(result).toMatchObject({ isError: true, code: "panel_closed_context" });
  });

  // What the input schema guarantees; dispatch checks it first, so validateArgs no longer repeats it.
  it.each([
    [null, ""],
    [{ source, theme: "dark" }, ""],
    [{ source, placement: "popup" }, "/placement"],
    [{ source: "" }, "/source"],
    [{ source, title: "t".repeat(81) }, "/title"],
    [{ title: "t" }, ""],
  ])("the input schema rejects %j at %j", (args, path) => {
    expect(schemaRejects(DIAGRAM_INPUT_SCHEMA, args)).toContain(path);
  });

  // What only validateArgs checks (the document it would publish): the schema accepts these.
  it.each([
    [{ source: "a\rb" }, "/source: contains a control character"],
    [{ source: "é".repeat(8193) }, "/source: must be at most 16384 bytes"],
    [{ source, title: "a\u001bb" }, "/title: contains a control character"],
  ])("validateArgs(%j) → %s", (args, message) => {
    expect(schemaRejects(DIAGRAM_INPUT_SCHEMA, args)).toEqual([]);
    expect(validateArgs(args)).toBe(message);
  });

  it("validateArgs accepts the limits", () => {
    expect(
      validateArgs({ source: "a".repeat(16_384), title: "t".repeat(80), placement: "sidebar" }),
    ).toBeUndefined();
  });
});
