import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import { createToolRegistry, type ToolRegistration } from "../src/index.js";

const foreignSchema = {
  type: "object",
  properties: { n: { type: ["string", "number"] }, u: { type: "string", format: "x-vendor" } },
  "x-extra": true,
  required: ["n"],
};
const reg = (patch: Partial<ToolRegistration> = {}): ToolRegistration => ({
  name: "mcp_tool",
  identity: "mcp/srv/tool",
  description: "A tool from an MCP server.",
  inputSchema: foreignSchema,
  handler: (args) => ({ isError: false, content: [{ type: "text", text: JSON.stringify(args) }] }),
  ...patch,
});

describe("schemaProfile and unregister", () => {
  it("a strict registration of a foreign schema fails with schema_unsupported", () => {
    const registry = createToolRegistry();
    try {
      registry.register(reg());
      expect.unreachable();
    } catch (error) {
      expect(isContractError(error) && error.issues[0]?.code).toBe("schema_unsupported");
    }
  });

  it("schemaProfile: foreign registers it, and dispatch still validates the arguments", async () => {
    const registry = createToolRegistry();
    registry.register(reg({ schemaProfile: "foreign" }));
    const good = await registry.dispatch({ name: "mcp_tool", arguments: { n: 2, u: "?" } }, { cwd: "/w" });
    expect(good).toEqual({ isError: false, content: [{ type: "text", text: '{"n":2,"u":"?"}' }] });
    const bad = await registry.dispatch({ name: "mcp_tool", arguments: { n: true } }, { cwd: "/w" });
    expect(bad.isError).toBe(true);
    expect(bad.code).toBe("invalid_arguments");
  });

  it("an unknown schemaProfile value is registration_invalid", () => {
    const registry = createToolRegistry();
    expect(() => registry.register(reg({ schemaProfile: "lenient" as "strict" }))).toThrow(
      /invalid registration/,
    );
  });

  it("unregister removes a tool from definitions and dispatch, and frees its name", async () => {
    const registry = createToolRegistry();
    registry.register(reg({ schemaProfile: "foreign" }));
    expect(registry.unregister("mcp_tool")).toBe(true);
    expect(registry.unregister("mcp_tool")).toBe(false);
    expect(registry.definitions()).toEqual([]);
    expect(registry.inspectionDefinition("mcp_tool")).toBeUndefined();
    const gone = await registry.dispatch({ name: "mcp_tool", arguments: { n: 1 } }, { cwd: "/w" });
    expect(gone.code).toBe("tool_not_exposed");
    registry.register(reg({ schemaProfile: "foreign" }));
    expect(registry.definitions().map((d) => d.name)).toEqual(["mcp_tool"]);
  });
});
