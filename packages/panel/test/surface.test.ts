import { definePinnedSurface } from "@raw/test-support/surface";
import { describe, expect, it } from "vitest";
import * as host from "../src/host-entry.js";
import * as api from "../src/index.js";
import * as internal from "../src/internal.js";
import * as testing from "../src/testing.js";

const names = definePinnedSurface(new URL("..", import.meta.url), {
  ".": api,
  "./host": host,
  "./internal": internal,
  "./testing": testing,
});

describe("names moved out of @raw/panel", () => {
  const moved = [...(names["./host"] ?? []), ...(names["./internal"] ?? [])].map((line) =>
    line.replace(/ \(deprecated\)$/, ""),
  );

  it("every one is still exported by @raw/panel as a deprecated alias (nothing disappeared)", () => {
    const root = new Set(names["."]);
    for (const line of moved) expect(root.has(`${line} (deprecated)`), line).toBe(true);
  });

  it("the aliases are the very bindings of @raw/panel/host and @raw/panel/internal", () => {
    for (const [name, value] of Object.entries(host))
      expect((api as Record<string, unknown>)[name], name).toBe(value);
    for (const [name, value] of Object.entries(internal))
      expect((api as Record<string, unknown>)[name], name).toBe(value);
  });

  it("the document model stays in @raw/panel, not deprecated", () => {
    const model = (names["."] ?? []).filter((line) => !line.endsWith("(deprecated)"));
    for (const name of [
      "validatePanelDocument",
      "validatePanelUpdate",
      "applyPanelUpdate",
      "parsePanelDeclarations",
      "extractPanelBlocks",
      "renderPanelText",
      "renderReceiptLine",
      "resolveAction",
      "prepareForm",
      "validateFormAnswers",
      "PanelDocumentSchema",
      "type PanelDocument",
    ]) {
      expect(model).toContain(name);
    }
    for (const name of [
      "createPanelHost",
      "createInteractionService",
      "bindInteractionContext",
      "type PanelHost",
      "type InteractionStore",
    ]) {
      expect(names["./host"]).toContain(name);
    }
  });
});
