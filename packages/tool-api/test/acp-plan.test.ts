import { parsePanelDeclarations } from "@raw/panel";
import { describe, expect, it } from "vitest";
import {
  createToolRegistry,
  selectAcpPlan,
  selectRegistryAcpPlan,
  type ToolPanelDeclaration,
  type ToolRegistration,
} from "../src/index.js";

function declarations(value: unknown[]): ToolPanelDeclaration[] {
  const parsed = parsePanelDeclarations(value);
  if (!parsed.ok) throw new Error(parsed.issues[0]?.message);
  return parsed.declarations as unknown as ToolPanelDeclaration[];
}

const tool = (name: string, panels: unknown[]): ToolRegistration => ({
  name,
  identity: `tools/${name}`,
  description: "A tool.",
  inputSchema: { type: "object" },
  handler: () => ({ isError: false, content: [] }),
  panels: declarations(panels),
});

describe("the single acp_plan mirror (panels.md §2.5)", () => {
  it("keeps the first declaration that sets acp_plan and clears later ones with the exact warning", () => {
    const selection = selectAcpPlan([
      {
        identity: "tools/a",
        panels: declarations([
          { id: "notes", title: "Notes" },
          { id: "plan", title: "Plan", acp_plan: true },
        ]),
      },
      { identity: "tools/b", panels: declarations([{ id: "todo", title: "Todo", acp_plan: true }]) },
      { identity: "tools/c", panels: declarations([{ id: "steps", title: "Steps", acp_plan: true }]) },
    ]);
    expect(selection.mirror).toBe("tools/a#plan");
    expect(selection.warnings).toEqual([
      {
        code: "panel_acp_plan_ignored",
        message: "panel tools/b#todo: acp_plan ignored, tools/a#plan already mirrors the ACP plan",
      },
      {
        code: "panel_acp_plan_ignored",
        message: "panel tools/c#steps: acp_plan ignored, tools/a#plan already mirrors the ACP plan",
      },
    ]);
    expect(selection.panels.get("tools/a")?.map((d) => d.acp_plan)).toEqual([false, true]);
    expect(selection.panels.get("tools/b")?.[0]).toMatchObject({ id: "todo", acp_plan: false });
    expect(selection.panels.get("tools/c")?.[0]).toMatchObject({ id: "steps", acp_plan: false });
  });

  it("no warning with one or no mirror", () => {
    expect(
      selectAcpPlan([{ identity: "tools/a", panels: declarations([{ id: "p", title: "P" }]) }]),
    ).toMatchObject({
      mirror: undefined,
      warnings: [],
    });
  });

  it("follows the agent's selection order through a registry whitelist", () => {
    const registry = createToolRegistry();
    registry.register([
      tool("first", [{ id: "plan", title: "Plan", acp_plan: true }]),
      tool("second", [{ id: "todo", title: "Todo", acp_plan: true }]),
    ]);
    const selection = selectRegistryAcpPlan(registry, ["second", "first"]);
    expect(selection.mirror).toBe("tools/second#todo");
    expect(selection.warnings.map((w) => w.message)).toEqual([
      "panel tools/first#plan: acp_plan ignored, tools/second#todo already mirrors the ACP plan",
    ]);
    expect(selectRegistryAcpPlan(registry, ["first"]).warnings).toEqual([]);
  });
});
