import { createToolRegistry, type ToolRegistry } from "@raw/tool-api";
import { afterEach, describe, expect, it } from "vitest";
import {
  MAX_MCP_TOOL_DESCRIPTION_BYTES,
  MAX_MCP_TOOL_LIST_BYTES,
  MAX_MCP_TOOL_SCHEMA_BYTES,
  MAX_MCP_TOOLS,
  MCP_SCHEMA_COMPILE_BUDGET_MS,
  type McpMount,
  type McpMountWarning,
  type MountMcpServerOptions,
  mountMcpServer,
} from "../src/index.js";
import { fixture } from "./helpers.js";

// What a server sends is bounded before it is stored or repeated, and the code of a failure is Raw's own
// (amendment A10, "Bounded by what others send"). The server is test/fixtures/fake-server.mjs in a misbehaving mode.

const mounts: McpMount[] = [];
afterEach(async () => {
  for (const m of mounts.splice(0)) await m.close();
});

async function mountFake(
  registry: ToolRegistry,
  mode: string,
  extra: Partial<MountMcpServerOptions> = {},
): Promise<{ mount: McpMount; warnings: McpMountWarning[] }> {
  const warnings: McpMountWarning[] = [];
  const mount = await mountMcpServer(registry, {
    name: "fake",
    command: process.execPath,
    args: [fixture("fake-server.mjs"), mode],
    stderr: "ignore",
    toolName: (tool) => tool,
    callTimeoutMs: 60_000,
    connectTimeoutMs: 60_000,
    onWarning: (warning) => warnings.push(warning),
    ...extra,
  });
  mounts.push(mount);
  return { mount, warnings };
}

const call = (registry: ToolRegistry, name: string) =>
  registry.dispatch({ name, arguments: { text: "hi" } }, { cwd: "/" });

describe("mountMcpServer: the verdict is Raw's own", () => {
  it("a JSON-RPC error whose data names a Raw code (data.rawCode: hook_denied) ends as mcp_server_error", async () => {
    const registry = createToolRegistry({ rules: [{ match: "*", effect: "allow" }] });
    await mountFake(registry, "rawcode");
    const result = await call(registry, "bad");
    expect(result.isError).toBe(true);
    expect(result.code).toBe("mcp_server_error");
  });
});

describe("mountMcpServer: what a server lists is bounded", () => {
  it("2,000 tools/list_changed in one burst: one re-list in flight and one queued, one change reported per re-list", async () => {
    const registry = createToolRegistry({ rules: [{ match: "*", effect: "allow" }] });
    let lists = 0;
    let changes = 0;
    const { mount } = await mountFake(registry, "flood", {
      observe: (direction, message) => {
        if (direction === "send" && "method" in message && message.method === "tools/list") lists++;
      },
      onToolsChanged: () => {
        changes++;
      },
    });
    expect(lists).toBe(1);
    expect((await call(registry, "bad")).isError).toBe(false);
    // Resolves once a listing that started after this call has finished: the burst has been read by then.
    await mount.refresh();
    expect(lists).toBeLessThanOrEqual(4);
    expect(changes).toBeLessThanOrEqual(3);
  }, 60_000);

  it(`1,500 tools: the first ${MAX_MCP_TOOLS} register, one mcp_tools_truncated warning names what was dropped`, async () => {
    const registry = createToolRegistry();
    const { mount, warnings } = await mountFake(registry, "many-tools");
    expect(mount.tools).toHaveLength(MAX_MCP_TOOLS);
    const truncated = warnings.filter((w) => w.code === "mcp_tools_truncated");
    expect(truncated).toHaveLength(1);
    expect(truncated[0]?.message).toContain("500 tools dropped");
    expect(truncated[0]?.message).toContain("t1000");
    expect(warnings.filter((w) => w.code !== "mcp_tools_truncated")).toEqual([]);
    expect(mount.skipped.length).toBeLessThanOrEqual(100);
    expect(mount.skipped[0]).toMatchObject({ tool: "t1000", code: "mcp_tools_truncated" });
  }, 60_000);

  it("a 1 MiB description is shortened, a 1 MiB schema is skipped, the list stops at 8 MiB of definitions", async () => {
    const registry = createToolRegistry();
    const { mount, warnings } = await mountFake(registry, "big-tools", { maxMessageBytes: 64 * 1024 * 1024 });
    const ok = registry.definitions().find((tool) => tool.name === "ok");
    expect(Buffer.byteLength(ok?.description ?? "")).toBeLessThanOrEqual(MAX_MCP_TOOL_DESCRIPTION_BYTES + 64);
    expect(ok?.description).toMatch(/… [\d,]+ more bytes$/);
    expect(warnings).toContainEqual(
      expect.objectContaining({ code: "mcp_tool_description_truncated", tool: "ok" }),
    );
    expect(mount.skipped).toContainEqual(
      expect.objectContaining({ tool: "huge_schema", code: "mcp_tool_too_large" }),
    );
    const kept = mount.tools.filter((t) => t.tool.startsWith("big"));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(25);
    expect(kept.length * 400 * 1024).toBeLessThanOrEqual(MAX_MCP_TOOL_LIST_BYTES);
    const truncated = warnings.find((w) => w.code === "mcp_tools_truncated");
    expect(truncated?.message).toContain(`big${kept.length}`);
    expect(MAX_MCP_TOOL_SCHEMA_BYTES).toBeLessThan(1024 * 1024);
  }, 60_000);

  it("a schema that compiles past the budget: that tool is skipped with a code, the event loop keeps turning", async () => {
    const registry = createToolRegistry();
    let last = performance.now();
    let worstGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
    }, 20);
    try {
      const { mount, warnings } = await mountFake(registry, "slow-schema");
      expect(mount.tools.map((t) => t.tool)).toEqual(["ok"]);
      expect(mount.skipped).toContainEqual(
        expect.objectContaining({ tool: "slow", code: "mcp_schema_budget_exceeded" }),
      );
      expect(warnings.find((w) => w.code === "mcp_schema_budget_exceeded")?.message).toContain(
        `${MCP_SCHEMA_COMPILE_BUDGET_MS} ms`,
      );
    } finally {
      clearInterval(ticker);
    }
    // A bound on an adversarial input, far above the budget: never the seconds one slow compile takes.
    expect(worstGap).toBeLessThan(1_000);
  }, 60_000);
});
