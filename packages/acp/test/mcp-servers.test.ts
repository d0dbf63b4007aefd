import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { mountMcpServer } from "@raw/mcp";
import type { ToolRegistry } from "@raw/tool-api";
import { describe, expect, it } from "vitest";
import type { AcpMcpServer } from "../src/index.js";
import { connect, expectAllValid, updatesOf, workdir } from "./support.js";

const require = createRequire(import.meta.url);
// The reference filesystem server from npm, started over stdio as an editor would start it.
const FS_SERVER = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");

function envOf(list: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of Array.isArray(list) ? list : []) out[entry.name] = entry.value;
  return out;
}

/** Mounts a stdio server of `session/new.mcpServers` as `mcp/<server>/<tool>` (what `raw acp` does). */
const closed: string[] = [];
async function mount(registry: ToolRegistry, server: AcpMcpServer, cwd: string) {
  const mounted = await mountMcpServer(registry, {
    name: server.name,
    command: server.command as string,
    args: server.args as string[],
    env: { ...process.env, ...envOf(server.env) },
    cwd,
    stderr: "ignore",
  });
  return {
    close: async () => {
      await mounted.close();
      closed.push(server.name);
    },
  };
}

describe("session/new.mcpServers: a real MCP server mounted under the session's rules (A12)", () => {
  it("@modelcontextprotocol/server-filesystem over stdio: its tools are mcp/fs/<tool>, asked under an ask rule, and close with the connection", async () => {
    const cwd = workdir();
    let answers = 0;
    const c = await connect({
      cwd,
      rules: [{ match: "mcp/fs/*", effect: "ask" }] as any,
      extra: { mountMcpServer: mount },
      script: {
        permission: () => ({
          outcome: { outcome: "selected", optionId: answers++ === 0 ? "allow_once" : "reject_once" },
        }),
      },
    });
    const { sessionId: s } = await c.connection.agent.request("session/new", {
      cwd,
      mcpServers: [{ name: "fs", command: process.execPath, args: [FS_SERVER, cwd], env: [] }],
    });
    await c.prompt(s, "/tools");
    const listing = updatesOf(c.updates, "agent_message_chunk").at(-1).content.text as string;
    expect(listing).toContain("mcp__fs__write_file  mcp/fs/write_file");
    expect(listing).toContain("mcp/fs/read_text_file");

    const target = join(cwd, "a.txt");
    await c.prompt(s, `mcp__fs__write_file ${JSON.stringify({ path: target, content: "from acp\n" })}`);
    expect(c.permissions).toHaveLength(1);
    expect(c.permissions[0].toolCall.title).toBe("mcp/fs/write_file");
    expect(c.permissions[0].toolCall.content[0].content.text).toMatch(/^approve mcp\/fs\/write_file\?/);
    expect(readFileSync(target, "utf8")).toBe("from acp\n");

    const refused = join(cwd, "b.txt");
    await c.prompt(s, `mcp__fs__write_file ${JSON.stringify({ path: refused, content: "no\n" })}`);
    expect(c.permissions).toHaveLength(2);
    expect(existsSync(refused)).toBe(false);
    const final = updatesOf(c.updates, "tool_call_update").at(-1);
    expect(final).toMatchObject({ status: "failed", rawOutput: { code: "approval_denied" } });

    // The rule covers every tool of the server: a read is asked too (and rejected here).
    await c.prompt(s, `mcp__fs__read_text_file ${JSON.stringify({ path: target })}`);
    expect(c.permissions).toHaveLength(3);
    expectAllValid(c.sent);

    c.disconnect();
    await c.agentConnection.closed.catch(() => undefined);
    for (let i = 0; i < 200 && !closed.includes("fs"); i++) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toContain("fs");
  }, 60_000);

  it("a server that cannot start fails session/new with mcp_mount_failed; the agent stays up for the next session", async () => {
    const cwd = workdir();
    const c = await connect({ cwd, extra: { mountMcpServer: mount } });
    await expect(
      c.connection.agent.request("session/new", {
        cwd,
        mcpServers: [{ name: "broken", command: join(cwd, "no-such-server"), args: [], env: [] }],
      }),
    ).rejects.toMatchObject({ data: { code: "mcp_mount_failed" } });
    const s = await c.newSession();
    expect((await c.prompt(s, "/tools")).stopReason).toBe("end_turn");
  }, 60_000);
});
