import { definePinnedSurface, valueNames } from "@raw/test-support/surface";
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

/** Most runtime names (values, not types) `@raw/panel` exports: what a consumer of the contract needs (issue 24). */
const MAX_ROOT_VALUES = 60;

describe("what @raw/panel holds, and what it left to its subpaths", () => {
  const values = (entry: string) => valueNames(names[entry] ?? []);

  it(`exports at most ${MAX_ROOT_VALUES} runtime names, none of them deprecated`, () => {
    expect(values(".").length).toBeLessThanOrEqual(MAX_ROOT_VALUES);
    expect((names["."] ?? []).filter((line) => line.endsWith("(deprecated)"))).toEqual([]);
  });

  it("exports each name from one entry point only (no alias of a host or internal name)", () => {
    const root = new Set((names["."] ?? []).map((line) => line.replace(/^type /, "")));
    for (const entry of ["./host", "./internal", "./testing"]) {
      const shared = (names[entry] ?? [])
        .map((line) => line.replace(/^type /, ""))
        .filter((n) => root.has(n));
      expect(shared, entry).toEqual([]);
    }
    for (const name of Object.keys(host)) expect(Object.hasOwn(api, name), name).toBe(false);
    for (const name of Object.keys(internal)) expect(Object.hasOwn(api, name), name).toBe(false);
  });

  it("the document model stays in @raw/panel; the runtime a host runs is @raw/panel/host", () => {
    for (const name of [
      "validatePanelDocument",
      "validatePanelUpdate",
      "applyPanelUpdate",
      "updatePanelState",
      "parsePanelDeclarations",
      "renderPanelText",
      "derivePanelSummary",
      "PanelDocumentSchema",
      "MAX_PANEL_DOCUMENT_BYTES",
      "PANEL_INVALID",
      "type PanelDocument",
      "type FormField",
    ]) {
      expect(names["."]).toContain(name);
    }
    for (const name of [
      "createPanelHost",
      "createInteractionService",
      "bindInteractionContext",
      "extractPanelBlocks",
      "resolveAction",
      "userActionNote",
      "prepareForm",
      "validateFormAnswers",
      "renderReceiptLine",
      "renderPanelsText",
      "type PanelHost",
      "type InteractionStore",
    ]) {
      expect(names["./host"]).toContain(name);
    }
  });
});
