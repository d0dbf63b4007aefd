import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isContractError } from "@raw/schema";
import { createToolRegistry, type ToolRegistry } from "@raw/tool-api";
import { afterEach, describe, expect, it } from "vitest";
import { type McpMount, type MountMcpServerOptions, mountMcpServer } from "../src/index.js";
import { alive, fixture } from "./helpers.js";

const mounts: McpMount[] = [];
afterEach(async () => {
  for (const m of mounts.splice(0)) await m.close();
});

function localTool(registry: ToolRegistry): void {
  registry.register({
    name: "local",
    description: "A host tool next to the MCP ones.",
    inputSchema: { type: "object" },
    handler: () => ({ isError: false, content: [{ type: "text", text: "local ok" }] }),
  });
}

async function mountFake(
  registry: ToolRegistry,
  mode: string,
  extra: Partial<MountMcpServerOptions> = {},
  args: string[] = [],
): Promise<McpMount> {
  const m = await mountMcpServer(registry, {
    name: "fake",
    command: process.execPath,
    args: [fixture("fake-server.mjs"), mode, ...args],
    stderr: "ignore",
    toolName: (tool) => tool,
    // Deadlines far above what the checks below allow: "at once" means well before the deadline, even on a busy CI.
    callTimeoutMs: 20_000,
    connectTimeoutMs: 20_000,
    ...extra,
  });
  mounts.push(m);
  return m;
}

const call = (registry: ToolRegistry, name: string, args: unknown = { text: "hi" }, extra = {}) =>
  registry.dispatch({ name, arguments: args }, { cwd: "/", ...extra });

/** Pids of live processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker) && alive(Number(entry)))
        out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

async function timed<T>(work: Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work;
  return [value, performance.now() - start];
}

async function mountError(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work;
  } catch (error) {
    if (isContractError(error)) return error.issues[0] as { code: string; message: string };
    throw error;
  }
  throw new Error("expected the mount to fail");
}

describe("bad servers: the registry stays usable, calls end with codes within their deadline", () => {
  it("a server that crashes during a call: mcp_connection_closed at once, then it is started again", async () => {
    const registry = createToolRegistry();
    localTool(registry);
    const m = await mountFake(registry, "crash");
    const firstPid = m.pid as number;
    const [result, ms] = await timed(call(registry, "bad"));
    expect(result.code).toBe("mcp_connection_closed");
    expect(ms).toBeLessThan(5_000);
    expect(alive(firstPid)).toBe(false);
    expect((await call(registry, "local")).isError).toBe(false);
    const again = await call(registry, "ok");
    expect(again.content).toEqual([{ type: "text", text: 'ok {"text":"hi"}' }]);
    expect(m.pid).not.toBe(firstPid);
  });

  it("a server that hangs on a call: mcp_timeout at the call deadline, with a cancellation sent", async () => {
    const registry = createToolRegistry();
    const sent: string[] = [];
    await mountFake(registry, "hang", {
      callTimeoutMs: 800,
      observe: (dir, message) => {
        if (dir === "send" && "method" in message) sent.push(message.method);
      },
    });
    const [result, ms] = await timed(call(registry, "bad"));
    expect(result.code).toBe("mcp_timeout");
    expect(ms).toBeGreaterThanOrEqual(700);
    expect(ms).toBeLessThan(6_000);
    expect(sent).toContain("notifications/cancelled");
    expect((await call(registry, "ok")).isError).toBe(false);
  });

  it("a server that hangs on initialize: the mount fails with mcp_connect_timeout and leaves no process", async () => {
    const registry = createToolRegistry();
    let pid: number | undefined;
    const [error, ms] = await timed(
      mountError(
        mountMcpServer(registry, {
          name: "hung",
          command: process.execPath,
          args: [fixture("fake-server.mjs"), "hang-init"],
          stderr: "ignore",
          connectTimeoutMs: 700,
          observe: () => undefined,
        }).then((m) => {
          pid = m.pid;
          return m;
        }),
      ),
    );
    expect(pid).toBeUndefined();
    expect(error.code).toBe("mcp_connect_timeout");
    expect(error.message).toContain("hung");
    expect(ms).toBeLessThan(8_000);
    expect(registry.definitions()).toEqual([]);
  });

  it("a server that cannot start: mcp_connect_failed naming it", async () => {
    const registry = createToolRegistry();
    const error = await mountError(
      mountMcpServer(registry, { name: "nope", command: "/nonexistent/raw-mcp-server", stderr: "ignore" }),
    );
    expect(error.code).toBe("mcp_connect_failed");
    expect(error.message).toContain("nope");
    const crashed = await mountError(
      mountMcpServer(registry, {
        name: "dies",
        command: process.execPath,
        args: [fixture("fake-server.mjs"), "crash-init"],
        stderr: "ignore",
      }),
    );
    expect(crashed.code).toBe("mcp_connect_failed");
  });

  it("malformed JSON-RPC for a call: mcp_invalid_result at once; the connection stays usable", async () => {
    const registry = createToolRegistry();
    await mountFake(registry, "malformed");
    const [result, ms] = await timed(call(registry, "bad"));
    expect(result.code).toBe("mcp_invalid_result");
    expect(ms).toBeLessThan(5_000);
    expect((await call(registry, "ok")).isError).toBe(false);
  });

  it("a garbage line with no id: the call ends with mcp_timeout at its deadline", async () => {
    const registry = createToolRegistry();
    await mountFake(registry, "garbage", { callTimeoutMs: 600 });
    const [result, ms] = await timed(call(registry, "bad"));
    expect(result.code).toBe("mcp_timeout");
    expect(ms).toBeLessThan(6_000);
    expect((await call(registry, "ok")).isError).toBe(false);
  });

  it("a result that is not a CallToolResult: mcp_invalid_result", async () => {
    const registry = createToolRegistry();
    await mountFake(registry, "invalid-result");
    expect((await call(registry, "bad")).code).toBe("mcp_invalid_result");
  });

  it("a 50 MB result: mcp_message_too_large within the deadline, memory bounded, connection usable", async () => {
    const registry = createToolRegistry();
    await mountFake(registry, "huge", { callTimeoutMs: 15_000 });
    const [result, ms] = await timed(call(registry, "bad"));
    expect(result.code).toBe("mcp_message_too_large");
    expect(ms).toBeLessThan(15_000);
    expect((await call(registry, "ok")).isError).toBe(false);
  }, 60_000);

  it("a 50 MB result under a larger message limit is capped like any other result", async () => {
    const registry = createToolRegistry();
    await mountFake(registry, "huge", { callTimeoutMs: 30_000, maxMessageBytes: 64 * 1024 * 1024 });
    const result = await call(registry, "bad");
    expect(result.isError).toBe(false);
    expect(result.truncated).toBe(true);
    expect(JSON.stringify(result).length).toBeLessThan(70_000);
  }, 60_000);

  it("a tool list with invalid names and schemas: the valid tools register, the others are reported", async () => {
    const registry = createToolRegistry();
    const warnings: string[] = [];
    const m = await mountFake(registry, "bad-tools", { onWarning: (w) => warnings.push(w.message) });
    expect(m.tools.map((t) => t.identity)).toEqual(["mcp/fake/ok", "mcp/fake/union"]);
    expect(m.skipped.map((s) => [s.tool, s.code])).toEqual([
      ["has space", "mcp_tool_invalid"],
      ["a/b", "mcp_tool_invalid"],
      ["", "mcp_tool_invalid"],
      ["#4", "mcp_tool_invalid"],
      ["#5", "mcp_tool_invalid"],
      ["no_schema", "mcp_tool_invalid"],
      ["string_root", "schema_unsupported"],
      ["remote_ref", "schema_remote_ref"],
      ["ok", "mcp_tool_duplicate"],
    ]);
    expect(warnings.some((w) => w.includes("mcp/fake/remote_ref") && w.endsWith("skipped"))).toBe(true);
    expect((await call(registry, "ok")).isError).toBe(false);
  });

  it("tools/list_changed: tools are added and removed in the registry", async () => {
    const registry = createToolRegistry();
    let changes = 0;
    const m = await mountFake(registry, "list-changed", { onToolsChanged: () => changes++ });
    expect(registry.definitions().map((d) => d.name)).toEqual(["ok", "bad"]);
    await call(registry, "bad");
    // A new tool's schema is first compiled in a worker (a thread started for the listing): allow for its start.
    await expect
      .poll(() => registry.definitions().map((d) => d.name), { timeout: 10_000 })
      .toEqual(["ok", "bad", "added"]);
    expect((await call(registry, "added")).content).toEqual([{ type: "text", text: "added tool" }]);
    await call(registry, "bad");
    await expect
      .poll(() => registry.definitions().map((d) => d.name), { timeout: 10_000 })
      .toEqual(["ok", "bad"]);
    expect(changes).toBe(2);
    expect(m.tools.map((t) => t.name)).toEqual(["ok", "bad"]);
  });

  it("a name collision with a registered tool is reported, the rest registers", async () => {
    const registry = createToolRegistry();
    registry.register({
      name: "ok",
      description: "taken",
      inputSchema: { type: "object" },
      handler: () => ({ isError: false, content: [] }),
    });
    const m = await mountFake(registry, "good");
    expect(m.skipped.map((s) => [s.identity, s.code])).toEqual([
      ["mcp/fake/ok", "registration_duplicate_name"],
    ]);
    expect(m.tools.map((t) => t.name)).toEqual(["bad"]);
  });

  it("no process outlives close(): a server that ignores stdin end and SIGTERM, and a grandchild", async () => {
    const registry = createToolRegistry();
    const stubborn = await mountFake(registry, "stubborn", { toolName: (t) => `s_${t}` });
    const pidFile = join(mkdtempSync(join(tmpdir(), "raw-mcp-pid-")), "pid");
    const parent = await mountFake(registry, "grandchild", { name: "gc", toolName: (t) => `g_${t}` }, [
      pidFile,
    ]);
    await expect.poll(() => readFileSync(pidFile, "utf8").length > 0).toBe(true);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    const pids = [stubborn.pid as number, parent.pid as number, grandchild];
    for (const pid of pids) expect(alive(pid)).toBe(true);
    const [, ms] = await timed(Promise.all([stubborn.close(), parent.close()]));
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(ms).toBeLessThan(8_000);
  });

  it("a server that crashes leaves no grandchild behind either", async () => {
    const registry = createToolRegistry();
    const pidFile = join(mkdtempSync(join(tmpdir(), "raw-mcp-pid-")), "pid");
    await mountFake(registry, "crash-with-grandchild", {}, [pidFile]);
    await expect.poll(() => readFileSync(pidFile, "utf8").length > 0).toBe(true);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(alive(grandchild)).toBe(true);
    expect((await call(registry, "bad")).code).toBe("mcp_connection_closed");
    await expect.poll(() => alive(grandchild)).toBe(false);
  });

  it("close() while a crashed server is being started again leaves no process", async () => {
    const marker = `raw-mcp-marker-${process.pid}-${Date.now()}`;
    const registry = createToolRegistry();
    const m = await mountFake(registry, "crash", {}, [marker]);
    expect(processesWith(marker).length).toBe(1);
    expect((await call(registry, "bad")).code).toBe("mcp_connection_closed");
    const pending = call(registry, "ok");
    await m.close();
    await pending;
    await expect.poll(() => processesWith(marker)).toEqual([]);
    expect(registry.definitions()).toEqual([]);
  });
});
