// ACP binding overhead (issue 26): a command-mode `write_file` prompt through `serveAcpAgent` (the agent `raw acp`
// runs, here over in-memory ACP streams in this process, with an `allow` rule) against the same call through a host
// session's dispatch (what `raw call` runs), in one process. Target: acp <= 1.2 x call + 1 ms. Beside it, the permission
// round trip: the same prompt with the default `ask` and a client that answers `allow_once` at once.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gateRows } from "../lib/acp-gate-rows.mjs";
import { compareAsync, info, row, skipped } from "../lib/harness.mjs";

const SUITE = "acp";
const root = fileURLToPath(new URL("../../", import.meta.url));

async function load() {
  // The SDK is a dependency of @raw/acp: resolved from that package, as the agent resolves it.
  const fromAcp = createRequire(join(root, "packages/acp/package.json"));
  const sdk = await import(fromAcp.resolve("@agentclientprotocol/sdk"));
  const { serveAcpAgent, createAcpGate } = await import("@raw/acp");
  const { openHostSession } = await import("@raw/host");
  const { loadToolFolders } = await import("@raw/tool-api");
  const { bundledToolFolders } = await import("@raw/tools");
  return { sdk, serveAcpAgent, createAcpGate, openHostSession, loadToolFolders, bundledToolFolders };
}

function pipePair() {
  const toClient = new TransformStream();
  const toAgent = new TransformStream();
  return {
    agent: { writable: toClient.writable, readable: toAgent.readable },
    client: { writable: toAgent.writable, readable: toClient.readable },
  };
}

export async function run() {
  let m;
  try {
    m = await load();
  } catch (error) {
    return [
      skipped(
        SUITE,
        "acp / call write_file",
        `@raw/acp is not built or installed: ${error?.message ?? error}`,
      ),
    ];
  }
  const dir = mkdtempSync(join(tmpdir(), "raw-bench-acp-"));
  const tools = await m.loadToolFolders(
    m.bundledToolFolders().map((f) => ({ dir: f.dir, identity: f.identity })),
  );
  const allow = [{ match: "builtin/write_file", effect: "allow" }];
  const args = { operations: [{ path: "out.txt", mode: "overwrite", content: "hello\n" }] };
  const text = `write_file ${JSON.stringify(args)}`;

  async function agentClient(rules) {
    const pair = pipePair();
    m.serveAcpAgent({
      connection: pair.agent,
      session: (binding) =>
        m.openHostSession({
          cwd: binding.cwd,
          tools,
          rules,
          approve: binding.approve,
          interactionAdapter: binding.interactionAdapter,
        }),
    });
    const app = m.sdk
      .client({ name: "bench" })
      .onNotification("session/update", () => undefined)
      .onRequest("session/request_permission", () => ({
        outcome: { outcome: "selected", optionId: "allow_once" },
      }));
    const connection = app.connect(pair.client);
    await connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await connection.agent.request("session/new", { cwd: dir, mcpServers: [] });
    const prompt = async () => {
      const r = await connection.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text }],
      });
      if (r.stopReason !== "end_turn") throw new Error(`acp turn ended ${r.stopReason}`);
    };
    return { prompt, close: () => connection.close() };
  }

  const host = m.openHostSession({ cwd: dir, tools, rules: allow });
  const allowed = await agentClient(allow);
  const asked = await agentClient(undefined);
  try {
    const call = async () => {
      const r = await host.dispatch({ name: "write_file", arguments: args });
      if (r.result.isError) throw new Error(`call failed: ${r.result.code}`);
    };
    const t = await compareAsync({ call, acp: allowed.prompt, ask: asked.prompt }, { rounds: 10, calls: 30 });
    const target = 1.2 * t.call + 1;
    return [
      row(
        SUITE,
        "acp / (1.2 x call + 1 ms), command-mode write_file with an allow rule",
        t.acp / target,
        { max: 1 },
        `acp ${t.acp.toFixed(3)} ms, call ${t.call.toFixed(3)} ms, overhead ${(t.acp - t.call).toFixed(3)} ms (median per call)`,
      ),
      info(
        SUITE,
        "permission round trip (ask + allow_once at once) added to the acp call",
        `ask ${t.ask.toFixed(3)} ms, acp ${t.acp.toFixed(3)} ms, added ${(t.ask - t.acp).toFixed(3)} ms (median per call)`,
      ),
      ...(await gateRows(SUITE, m, dir)),
    ];
  } finally {
    allowed.close();
    asked.close();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
