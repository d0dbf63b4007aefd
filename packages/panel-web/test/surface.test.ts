import { expect, it } from "vitest";

it("exports exactly its public names", async () => {
  // The element module needs a DOM; the surface is read from the source's export list instead of importing it.
  const { readFileSync } = await import("node:fs");
  const source = readFileSync(new URL("../src/index.ts", import.meta.url), "utf8");
  const names = [...source.matchAll(/export \{([^}]*)\}/gu)]
    .flatMap((m) => (m[1] ?? "").split(","))
    .map((n) => n.trim())
    .filter((n) => n !== "" && !n.startsWith("type "))
    .sort();
  expect(names).toEqual([
    "ALLOWED_LINK_SCHEMES",
    "EMPTY_PANEL_STATE",
    "MAX_MARKDOWN_NESTING",
    "RawPanelElement",
    "checkDraft",
    "draftAnswers",
    "isAllowedLink",
    "loadMermaidPackage",
    "nextPanelState",
    "panelStyles",
    "renderMarkdown",
    "renderMermaid",
  ]);
});
