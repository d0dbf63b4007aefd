import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { appRoot, bin, fixtures, raw, tempDir } from "./helpers.js";

// `raw mcp proxy --config <file>` (amendment A11 "panels from config"): the upstream's panels, each naming its MCP
// tool, validated like tool.json panels; the same file holds the rules, so a client config needs one path.
const panelServer = join(fixtures, "mcp", "panel-server.mjs");
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

function configFile(config: unknown): string {
  const file = join(tempDir("raw-mcp-config-"), "proxy.json");
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** `raw mcp proxy --config <file>` in front of the panel server, spoken to in 2026-07-28 JSON-RPC over stdio. */
function proxy(config: string) {
  const child = spawn(
    process.execPath,
    [bin, "mcp", "proxy", "--config", config, "--name", "panels", "--", process.execPath, panelServer],
    { cwd: appRoot, stdio: ["pipe", "pipe", "ignore"] },
  );
  children.push(child);
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    waiting.get(Number(message.id))?.(message);
  });
  let id = 0;
  return async (name: string, panel: string) => {
    const requestId = ++id;
    const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(requestId, resolve));
    child.stdin?.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: requestId,
        method: "tools/call",
        params: { name, arguments: { panel, text: "green" }, _meta: META },
      })}\n`,
    );
    const result = (await answer).result as { content: Array<{ text?: string }> };
    return result.content.map((b) => b.text ?? "").join("\n");
  };
}

describe("raw mcp proxy --config", () => {
  it("config panels and rules: an undeclared id of a configured tool is rejected, other tools stay implicit", async () => {
    const call = proxy(
      configFile({
        panels: [{ tool: "show", id: "status", title: "Build status", icon: "activity" }],
        rules: [{ match: "mcp/panels/*", effect: "allow" }],
      }),
    );
    expect(await call("show", "status")).toBe("shown status");
    expect((await call("show", "other")).split("\n")).toEqual([
      "shown other",
      'panel other update rejected: panel_undeclared tool mcp/panels/show did not declare panel "other"',
    ]);
    expect(await call("plain", "other")).toBe("shown other");
  });

  it("a bad config is refused before the server starts, naming the file and the field", () => {
    const bad = configFile({
      panels: [{ tool: "show", id: "status", title: 42 }],
      rules: [{ match: "*", effect: "allow" }],
    });
    const run = raw(["mcp", "proxy", "--config", bad, "--", process.execPath, panelServer]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^raw: panel_invalid: .*proxy\.json \/panels\/0\/title/u);
    expect(run.stderr).not.toContain("    at ");

    const noTool = configFile({ panels: [{ id: "status", title: "S" }], rules: [] });
    const missing = raw(["mcp", "proxy", "--config", noTool, "--", process.execPath, panelServer]);
    expect(missing.stderr).toMatch(
      /^raw: mcp_config_invalid: .*proxy\.json \/panels\/0\/tool: tool must name/u,
    );

    const badRule = configFile({ rules: [{ match: "*", effect: "maybe" }] });
    const rule = raw(["mcp", "proxy", "--config", badRule, "--", process.execPath, panelServer]);
    expect(rule.status).toBe(1);
    expect(rule.stderr).toMatch(/proxy\.json \/rules\/0/u);

    const both = raw([
      "mcp",
      "proxy",
      "--config",
      configFile({ rules: [] }),
      "--rules",
      join(fixtures, "mcp", "rules.json"),
      "--",
      process.execPath,
      panelServer,
    ]);
    expect(both.stderr).toMatch(
      /^raw: mcp_config_invalid: .*\/rules: give the rules in the config or with --rules/u,
    );

    const notJson = join(tempDir("raw-mcp-config-"), "proxy.json");
    writeFileSync(notJson, "{");
    const syntax = raw(["mcp", "proxy", "--config", notJson, "--", process.execPath, panelServer]);
    expect(syntax.stderr).toMatch(/^raw: mcp_config_invalid: .*proxy\.json: not JSON/u);
  });
});
