import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createMcpServer, mountMcpServer } from "../src/index.js";

// A finished call is finished: no `notifications/cancelled` goes to the upstream server for a request it already
// answered, when the downstream client goes away later (the SDK client's abort listener outlives its request, so the
// dispatch signal ending afterwards must not reach it). Seen as one stray cancellation per finished call in the
// proxy's trace and CPU profile.
const server = fileURLToPath(new URL("./fixtures/fake-server.mjs", import.meta.url));

describe("mountMcpServer behind createMcpServer", () => {
  it("sends no cancellation for requests the server already answered, also when the client closes", async () => {
    const sent: string[] = [];
    const host = createMcpServer({ cwd: "/w", tools: [], rules: [{ match: "*", effect: "allow" }] });
    const mount = await mountMcpServer(host.session.registry, {
      name: "fake",
      command: process.execPath,
      args: [server, "good"],
      stderr: "ignore",
      toolName: (tool) => tool,
      observe: (direction, message) => {
        if (direction === "send") sent.push(String((message as { method?: string }).method));
      },
    });
    try {
      const client = new Client({ name: "c", version: "1" });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await host.connect(b);
      await client.connect(a);
      for (let i = 0; i < 5; i++) {
        const result = await client.callTool({ name: "ok", arguments: { text: "hi" } });
        expect(result.isError).not.toBe(true);
      }
      await client.close();
      await host.close();
      // The upstream is still connected: anything sent on the close would be observed by now.
      await new Promise((resolve) => setImmediate(resolve));
      expect(sent.filter((m) => m === "tools/call")).toHaveLength(5);
      expect(sent.filter((m) => m === "notifications/cancelled")).toEqual([]);
    } finally {
      await mount.close();
    }
  });
});
