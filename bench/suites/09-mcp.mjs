// MCP proxy overhead (issue 14): one tools/call of a trivial stdio server through `raw mcp proxy` (rules, the whole
// dispatch pipeline, a second stdio hop) against the same SDK client calling the server directly.
// Target: proxy <= 1.10 x direct + 0.3 ms. Beside it, the floor: a bare proxy built from the SDK's own Server and
// Client with no Raw step (lib/bare-mcp-proxy.mjs), measured in the same rounds.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { compareAsync, info, row, skipped } from "../lib/harness.mjs";

const SUITE = "mcp";
const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = join(root, "apps/raw/dist/bin.js");
const server = join(root, "packages/mcp/test/fixtures/fake-server.mjs");
const bareProxy = fileURLToPath(new URL("../lib/bare-mcp-proxy.mjs", import.meta.url));

async function connect(command, args) {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
  return client;
}

export async function run() {
  if (!existsSync(bin))
    return [skipped(SUITE, "proxy / direct tools/call", "apps/raw is not built (npm run build)")];
  const dir = mkdtempSync(join(tmpdir(), "raw-bench-mcp-"));
  const rules = join(dir, "rules.json");
  writeFileSync(rules, JSON.stringify([{ match: "*", effect: "allow" }]));
  const direct = await connect(process.execPath, [server, "good"]);
  const proxied = await connect(process.execPath, [
    bin,
    "mcp",
    "proxy",
    "--rules",
    rules,
    "--",
    process.execPath,
    server,
    "good",
  ]);
  const bare = await connect(process.execPath, [bareProxy, process.execPath, server, "good"]);
  try {
    const args = { name: "ok", arguments: { text: "hello" } };
    for (const [name, client] of [
      ["proxy", proxied],
      ["bare proxy", bare],
    ]) {
      const check = await client.callTool(args);
      if (check.isError) throw new Error(`${name} call failed: ${JSON.stringify(check)}`);
    }
    const t = await compareAsync(
      {
        direct: () => direct.callTool(args),
        proxy: () => proxied.callTool(args),
        bare: () => bare.callTool(args),
      },
      { rounds: 10, calls: 50 },
    );
    const allowed = 1.1 * t.direct + 0.3;
    return [
      info(
        SUITE,
        "floor: bare SDK proxy (Server + Client, no Raw step) / (1.10 x direct + 0.3 ms)",
        `${(t.bare / allowed).toFixed(3)}x; bare ${t.bare.toFixed(3)} ms, direct ${t.direct.toFixed(3)} ms, overhead ${(t.bare - t.direct).toFixed(3)} ms; ours / bare ${(t.proxy / t.bare).toFixed(2)}x (median per call, same rounds)`,
      ),
      row(
        SUITE,
        "proxy / (1.10 x direct + 0.3 ms), tools/call of a trivial stdio tool",
        t.proxy / allowed,
        { max: 1 },
        `proxy ${t.proxy.toFixed(3)} ms, direct ${t.direct.toFixed(3)} ms, overhead ${(t.proxy - t.direct).toFixed(3)} ms (median per call)`,
      ),
    ];
  } finally {
    await direct.close();
    await proxied.close();
    await bare.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
