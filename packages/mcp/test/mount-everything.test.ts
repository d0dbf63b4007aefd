import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createToolRegistry, type ToolRegistry } from "@raw/tool-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpMount, mountMcpServer, toMcpResult } from "../src/index.js";
import { serverEntry } from "./helpers.js";

// Real @modelcontextprotocol/server-everything, installed from npm, over stdio.
const sent: JSONRPCMessage[] = [];
const received: JSONRPCMessage[] = [];
let registry: ToolRegistry;
let mount: McpMount;

beforeAll(async () => {
  registry = createToolRegistry({ rules: [{ match: "*", effect: "allow" }] });
  mount = await mountMcpServer(registry, {
    name: "everything",
    command: process.execPath,
    args: [serverEntry("@modelcontextprotocol/server-everything"), "stdio"],
    stderr: "ignore",
    toolName: (tool) => tool,
    observe: (direction, message) => {
      if (direction === "send") sent.push(message);
      else received.push(message);
    },
  });
});

afterAll(async () => {
  await mount?.close();
});

const call = (name: string, args: unknown, extra: Record<string, unknown> = {}) =>
  registry.dispatch({ name, arguments: args }, { cwd: "/", ...extra });

describe("mountMcpServer on @modelcontextprotocol/server-everything", () => {
  it("registers every listed tool (foreign schemas with defaults and formats included)", () => {
    expect(mount.skipped).toEqual([]);
    expect(mount.tools.length).toBeGreaterThanOrEqual(10);
    expect(mount.tools.map((t) => t.identity)).toContain("mcp/everything/trigger-long-running-operation");
    expect(mount.serverInfo?.name).toBeTruthy();
  });

  it("maps text, image and structured content", async () => {
    expect((await call("echo", { message: "hi ✓" })).content).toEqual([{ type: "text", text: "Echo: hi ✓" }]);
    const image = await call("get-tiny-image", {});
    expect(image.isError).toBe(false);
    expect(
      image.content.some((b) => b.type === "image" && b.mimeType === "image/png" && b.data.length > 10),
    ).toBe(true);
    const structured = await call("get-structured-content", { location: "Chicago" });
    const json = structured.content.filter((b) => b.type === "json");
    expect(json.length).toBe(1);
    expect(typeof (json[0] as { value: unknown }).value).toBe("object");
  });

  it("resource links go back out to an MCP client as links, as the server gave them", async () => {
    const result = await call("get-resource-links", { count: 2 });
    expect(result.isError).toBe(false);
    const links = toMcpResult(result).content.filter((b) => b.type === "resource_link");
    expect(links.length).toBe(2);
    for (const link of links) {
      expect(typeof link.uri).toBe("string");
      expect(typeof link.name).toBe("string");
    }
  });

  it("abort cancels the long-running tool: MCP cancellation is sent and dispatch returns aborted before the server answers", async () => {
    const controller = new AbortController();
    const pending = call(
      "trigger-long-running-operation",
      { duration: 30, steps: 30 },
      { signal: controller.signal },
    );
    await new Promise((r) => setTimeout(r, 400));
    controller.abort();
    const result = await pending;
    expect(result.code).toBe("aborted");
    const callMessage = sent.find(
      (m) =>
        "method" in m &&
        m.method === "tools/call" &&
        (m.params as { name: string }).name.startsWith("trigger-long"),
    ) as { id: number };
    // The operation runs 30 s: dispatch returned without waiting for the server's answer to the call.
    expect(received.filter((m) => "id" in m && m.id === callMessage.id)).toEqual([]);
    const cancel = sent.find((m) => "method" in m && m.method === "notifications/cancelled") as unknown as {
      params: { requestId: number };
    };
    expect(cancel.params.requestId).toBe(callMessage.id);
    // The server is still usable afterwards.
    expect((await call("get-sum", { a: 2, b: 3 })).isError).toBe(false);
  });
});
