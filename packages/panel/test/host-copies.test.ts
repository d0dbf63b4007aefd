import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { bindInteractionContext, createInteractionService, createPanelHost } from "../src/host-entry.js";

// The built CommonJS copy of `@raw/panel/host` (turbo builds the package before its tests): another copy of every
// module, as when one program mixes `require` and `import`.
const require = createRequire(import.meta.url);
const commonJs = require("../dist/host.cjs") as typeof import("../src/host-entry.js");

const declaration = {
  id: "questions",
  title: "Questions",
  icon: "file-text",
  open: "never",
  context: "none",
  placement: "chat",
  acp_plan: false,
  actions: [
    { id: "submit", label: "Send", scope: "block", blocks: ["form"], kind: "response", response: "submit" },
    { id: "cancel", label: "Cancel", scope: "block", blocks: ["form"], kind: "response", response: "cancel" },
  ],
};

describe("a panel call carries its own state", () => {
  it("the CommonJS build is another copy of the module", () => {
    expect(commonJs.createPanelHost).not.toBe(createPanelHost);
  });

  it("bindInteractionContext of one copy binds a call of a host of the other copy", async () => {
    const declarations = require("../dist/index.cjs").parsePanelDeclarations([declaration]);
    expect(declarations.ok).toBe(true);
    const host = commonJs.createPanelHost();
    const call = host.beginCall({
      owner: "local/ask",
      declarations: declarations.declarations,
      toolCallId: "c1",
      source: "model",
    });
    const service = createInteractionService({
      adapter: async (request) => ({
        requestId: request.identity.requestId,
        expectedRevision: request.revision,
        idempotencyKey: "k1",
        response: "cancel" as const,
      }),
    });
    const bound = bindInteractionContext(service, call, { maxOutputBytes: 65_536 });
    const result = await bound.request({
      panel: "questions",
      document: { blocks: [{ id: "form", kind: "form", fields: [{ id: "a", label: "A", kind: "text" }] }] },
    });
    expect(result).toMatchObject({ status: "cancelled" });
    expect(host.get("local/ask#questions")).toBeUndefined();
  });

  it("a call's internals are not an enumerable field, and an object that is not a call is refused", () => {
    const call = createPanelHost().beginCall({
      owner: "local/t",
      declarations: [],
      toolCallId: "c2",
      source: "model",
    });
    expect(Object.keys(call)).not.toContain("internals");
    expect(JSON.stringify(Object.getOwnPropertySymbols(call).map(String))).toContain(
      "raw.panel/2.call-internals",
    );
    expect(() =>
      bindInteractionContext(
        createInteractionService({ interactive: true }),
        { ...call },
        { maxOutputBytes: 1000 },
      ),
    ).toThrow(/not a panel call/);
  });
});
