import { createToolRegistry, type ToolHandlerContext } from "@raw/tool-api";
import { describe, expect, it } from "vitest";
import { createMcpServer, listenMcpHttp, mountMcpServer } from "../src/index.js";

describe("mountMcpServer over Streamable HTTP", () => {
  it("mounts a server by URL with a bearer token, calls through, and aborts with cancellation", async () => {
    let aborted = false;
    const upstream = [
      {
        name: "add",
        description: "Adds.",
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
        handler: (args: { a: number; b: number }) => ({
          isError: false,
          content: [{ type: "text", text: String(args.a + args.b) }],
        }),
      },
      {
        name: "wait",
        description: "Waits until aborted.",
        inputSchema: { type: "object" },
        handler: (_args: unknown, context: ToolHandlerContext) =>
          new Promise((resolve) => {
            context.signal?.addEventListener("abort", () => {
              aborted = true;
              resolve({ isError: true, content: [] });
            });
          }),
      },
    ];
    const server = createMcpServer({ cwd: "/", tools: upstream as never });
    const listener = await listenMcpHttp(server, { token: "0123456789abcdef-token" });
    const registry = createToolRegistry({ rules: [{ match: "mcp/up/*", effect: "allow" }] });
    try {
      const mount = await mountMcpServer(registry, {
        name: "up",
        url: listener.url,
        headers: { authorization: "Bearer 0123456789abcdef-token" },
      });
      expect(mount.tools.map((t) => t.identity)).toEqual(["mcp/up/add", "mcp/up/wait"]);
      const sum = await registry.dispatch({ name: "mcp__up__add", arguments: { a: 2, b: 40 } }, { cwd: "/" });
      expect(sum.content).toEqual([{ type: "text", text: "42" }]);
      const controller = new AbortController();
      const pending = registry.dispatch(
        { name: "mcp__up__wait", arguments: {} },
        { cwd: "/", signal: controller.signal },
      );
      await new Promise((r) => setTimeout(r, 200));
      controller.abort();
      expect((await pending).code).toBe("aborted");
      await expect.poll(() => aborted).toBe(true);
      await mount.close();
      // Without the token the server refuses: the mount fails with a code.
      await expect(
        mountMcpServer(registry, { name: "up2", url: listener.url, connectTimeoutMs: 3_000 }),
      ).rejects.toThrow(/could not be started|tools\/list failed/);
    } finally {
      await listener.close();
      await server.close();
    }
  });
});
