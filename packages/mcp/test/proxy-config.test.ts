import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createMcpServer, MCP_CONFIG_INVALID, mountMcpServer, parseMcpProxyConfig } from "../src/index.js";

// Panels declared in a proxy config (amendment A11 "panels from config"; the seed: panels "in the server's config
// (for MCP)"): validated like tool.json panels, applied to that MCP tool's `_meta["raw/panel"]` updates.

const server = fileURLToPath(new URL("./fixtures/panel-server.mjs", import.meta.url));
const STATUS = { tool: "show", id: "status", title: "Build status", icon: "activity" };

describe("the published schema (schemas/proxy-config.schema.json, `raw schema mcp-proxy-config`)", () => {
  it("accepts what parseMcpProxyConfig accepts and refuses an unknown key or a panel without its tool", () => {
    const schema = JSON.parse(
      readFileSync(fileURLToPath(new URL("../schemas/proxy-config.schema.json", import.meta.url)), "utf8"),
    );
    const validate = new Ajv2020({ strict: false }).compile(schema);
    const good = { panels: [STATUS], rules: [{ match: "*", effect: "allow" }], hooks: ["h"] };
    expect(validate(good)).toBe(true);
    expect(parseMcpProxyConfig(good).ok).toBe(true);
    for (const bad of [{ extra: 1 }, { panels: [{ id: "a", title: "A" }] }, { hooks: [""] }]) {
      expect(validate(bad)).toBe(false);
      expect(parseMcpProxyConfig(bad).ok).toBe(false);
    }
  });
});

describe("parseMcpProxyConfig", () => {
  it("accepts panels by tool, rules and hooks; normalizes each declaration like tool.json", () => {
    const parsed = parseMcpProxyConfig({
      panels: [STATUS],
      rules: [{ match: "*", effect: "allow" }],
      hooks: ["h"],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const declared = parsed.config.panels.get("show");
    expect(declared?.map((d) => [d.id, d.title, d.icon])).toEqual([["status", "Build status", "activity"]]);
    expect(declared?.[0]?.placement).toBeDefined();
    expect(parsed.config.hooks).toEqual(["h"]);
  });

  it("names the field of every problem with a stable code", () => {
    const parsed = parseMcpProxyConfig({
      panels: [
        { id: "a", title: "A" },
        { tool: "show", id: "b", title: 42 },
        { tool: "has space", id: "c", title: "C" },
        STATUS,
        { ...STATUS, title: "again" },
      ],
      hooks: [""],
      extra: true,
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const found = parsed.issues.map((i) => [i.code, i.path]);
    expect(found).toContainEqual([MCP_CONFIG_INVALID, "/extra"]);
    expect(found).toContainEqual([MCP_CONFIG_INVALID, "/panels/0/tool"]);
    expect(found).toContainEqual([MCP_CONFIG_INVALID, "/panels/2/tool"]);
    expect(found).toContainEqual([MCP_CONFIG_INVALID, "/panels/4/id"]);
    expect(found).toContainEqual([MCP_CONFIG_INVALID, "/hooks/0"]);
    expect(
      found.some(([code, path]) => code === "panel_invalid" && String(path).startsWith("/panels/1")),
    ).toBe(true);
    expect(parseMcpProxyConfig([]).ok).toBe(false);
    expect(parseMcpProxyConfig({ panels: {} }).ok).toBe(false);
  });
});

/** A 2026-07-28 client's `tools/call` result text, over the stateless stdio path (no initialize). */
async function callOverMcp(host: ReturnType<typeof createMcpServer>, name: string, panel: string) {
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  let answer: (message: Record<string, unknown>) => void = () => undefined;
  const done = new Promise<Record<string, unknown>>((resolve) => {
    answer = resolve;
  });
  ours.onmessage = (message) => answer(message as Record<string, unknown>);
  await ours.start();
  await host.connect(theirs);
  await ours.send({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name,
      arguments: { panel, text: "over mcp" },
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
    },
  });
  const result = (await done).result as { content: Array<{ text?: string }> };
  await ours.close();
  return result.content.map((b) => b.text ?? "").join("\n");
}

describe("mountMcpServer with config panels", () => {
  it("a declared panel gets its title; an undeclared id of that tool is panel_undeclared; other tools stay implicit", async () => {
    const parsed = parseMcpProxyConfig({ panels: [STATUS] });
    if (!parsed.ok) throw new Error("config");
    const host = createMcpServer({ cwd: "/w", tools: [], rules: [{ match: "*", effect: "allow" }] });
    const mount = await mountMcpServer(host.session.registry, {
      name: "panels",
      command: process.execPath,
      args: [server],
      stderr: "ignore",
      panels: parsed.config.panels,
      toolName: (tool) => tool,
    });
    try {
      const text = async (name: string, panel: string) => {
        const result = await host.session.dispatch(
          { name, arguments: { panel, text: "green" } },
          { source: "model" },
        );
        const content = result.result.content.map((b) => (b.type === "text" ? b.text : JSON.stringify(b)));
        return [...content, ...result.panels.modelLines].join("\n");
      };
      const declared = await text("show", "status");
      expect(declared).toContain("shown status");
      const state = host.session.panels.get("mcp/panels/show#status");
      expect(state?.declaration.title).toBe("Build status");
      expect(state?.declaration.icon).toBe("activity");
      const undeclared = await text("show", "other");
      expect(undeclared).toContain("panel_undeclared");
      expect(host.session.panels.get("mcp/panels/show#other")).toBeUndefined();
      const implicit = await text("plain", "other");
      expect(implicit).not.toContain("panel_undeclared");
      expect(host.session.panels.get("mcp/panels/plain#other")).toBeDefined();
      // The MCP result carries the §9.3 lines as for any tool (here the rejection; the accepted update needs no line
      // as the result has other content).
      const overMcp = await callOverMcp(host, "show", "status");
      expect(overMcp).toContain("shown status");
      const rejectedOverMcp = await callOverMcp(host, "show", "nope");
      expect(rejectedOverMcp).toContain("panel_undeclared");
      expect(rejectedOverMcp.split("\n")).toEqual([
        "shown nope",
        'panel nope update rejected: panel_undeclared tool mcp/panels/show did not declare panel "nope"',
      ]);
    } finally {
      await mount.close();
      await host.close();
    }
  });
});
