import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  createToolRegistry,
  type PreToolUseRequest,
  type ToolRegistry,
  type ToolRulesInput,
} from "@raw/tool-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpMount, mountMcpServer } from "../src/index.js";
import { alive, serverEntry, tempDir } from "./helpers.js";

// Real @modelcontextprotocol/server-filesystem, installed from npm, serving a temporary folder.
const root = tempDir();
const rules: ToolRulesInput = [
  { match: "*", effect: "allow" },
  { match: "mcp/fs/move_file", effect: "deny" },
  {
    match: "mcp/fs/write_file",
    effect: "ask",
    when: { source: "arguments", any: "path", regex: "\\.secret$" },
  },
];
const gateSeen: PreToolUseRequest[] = [];
const sent: JSONRPCMessage[] = [];
let registry: ToolRegistry;
let mount: McpMount;

beforeAll(async () => {
  writeFileSync(join(root, "hello.txt"), "hello\n");
  registry = createToolRegistry({
    rules,
    preToolUse: (request) => {
      gateSeen.push(request);
      const content = (request.arguments as { content?: unknown }).content;
      return typeof content === "string" && content.includes("FORBIDDEN")
        ? { blocked: "denied", reason: "no forbidden words" }
        : {};
    },
  });
  mount = await mountMcpServer(registry, {
    name: "fs",
    command: process.execPath,
    args: [serverEntry("@modelcontextprotocol/server-filesystem"), root],
    stderr: "ignore",
    observe: (direction, message) => {
      if (direction === "send") sent.push(message);
    },
  });
});

afterAll(async () => {
  await mount?.close();
});

const call = (tool: string, args: unknown, extra: Record<string, unknown> = {}) =>
  registry.dispatch({ name: `mcp__fs__${tool}`, arguments: args }, { cwd: root, ...extra });

const toolCalls = () =>
  sent
    .filter((m) => "method" in m && m.method === "tools/call")
    .map((m) => (m as { params: unknown }).params);

describe("mountMcpServer on @modelcontextprotocol/server-filesystem", () => {
  it("registers every tool of the real server as mcp/fs/<tool>, with nothing skipped", () => {
    expect(mount.skipped).toEqual([]);
    const identities = mount.tools.map((t) => t.identity);
    expect(identities).toContain("mcp/fs/read_text_file");
    expect(identities).toContain("mcp/fs/write_file");
    expect(identities.length).toBeGreaterThanOrEqual(10);
    expect(registry.inspectionDefinition("mcp__fs__write_file")?.identity).toBe("mcp/fs/write_file");
    expect(registry.inspectionDefinition("mcp__fs__write_file")?.implicitPanels).toBe(true);
  });

  it("a denied tool is absent from definitions and refused at dispatch, and never reaches the server", async () => {
    const names = registry.definitions().map((d) => d.name);
    expect(names).not.toContain("mcp__fs__move_file");
    expect(names).toContain("mcp__fs__read_text_file");
    const before = toolCalls().length;
    const result = await call("move_file", {
      source: join(root, "hello.txt"),
      destination: join(root, "x.txt"),
    });
    expect(result.code).toBe("tool_denied");
    expect(toolCalls().length).toBe(before);
    expect(existsSync(join(root, "hello.txt"))).toBe(true);
  });

  it("reads go through and map text results", async () => {
    const result = await call("read_text_file", { path: join(root, "hello.txt") });
    expect(result.isError).toBe(false);
    expect(result.content[0]).toEqual({ type: "text", text: "hello\n" });
  });

  it("an argument predicate on path turns a write into ask: refused without approval, written when approved", async () => {
    const target = join(root, "key.secret");
    const refused = await call("write_file", { path: target, content: "k" });
    expect(refused.code).toBe("approval_required");
    expect(existsSync(target)).toBe(false);
    const asked: unknown[] = [];
    const approved = await call(
      "write_file",
      { path: target, content: "k" },
      {
        approve: (request: { identity: string; arguments: unknown }) => {
          asked.push([request.identity, request.arguments]);
          return true;
        },
      },
    );
    expect(approved.isError).toBe(false);
    expect(asked).toEqual([["mcp/fs/write_file", { path: target, content: "k" }]]);
    expect(readFileSync(target, "utf8")).toBe("k");
    // A write elsewhere is allowed by the first rule, no approval asked.
    const plain = await call("write_file", { path: join(root, "plain.txt"), content: "p" });
    expect(plain.isError).toBe(false);
  });

  it("a PreToolUse denial stops the call before the server: the file is not written", async () => {
    const target = join(root, "blocked.txt");
    const before = toolCalls().length;
    const result = await call("write_file", { path: target, content: "FORBIDDEN text" });
    expect(result.code).toBe("hook_denied");
    expect(gateSeen.at(-1)?.identity).toBe("mcp/fs/write_file");
    expect(toolCalls().length).toBe(before);
    expect(existsSync(target)).toBe(false);
  });

  it("arguments reach the server byte-for-byte, and the file holds exactly the content", async () => {
    const content = `zero\u0000 tab\t emoji 😀 rtl \u202e bom \ufeff quote " backslash \\ ${"x".repeat(20_000)}\r\nend`;
    const args = { path: join(root, "exact.txt"), content };
    const result = await call("write_file", args);
    expect(result.isError).toBe(false);
    const params = toolCalls().at(-1) as { name: string; arguments: unknown };
    expect(params.name).toBe("write_file");
    expect(JSON.stringify(params.arguments)).toBe(JSON.stringify(args));
    expect(readFileSync(args.path, "utf8")).toBe(content);
  });

  it("schema violations are refused before the server", async () => {
    const before = toolCalls().length;
    const result = await call("write_file", { path: 5 });
    expect(result.code).toBe("invalid_arguments");
    expect(toolCalls().length).toBe(before);
  });

  it("a server error result is an error result with mcp_tool_error", async () => {
    const result = await call("read_text_file", { path: "/etc/passwd" });
    expect(result.isError).toBe(true);
    expect(result.code).toBe("mcp_tool_error");
  });

  it("close() unregisters every tool and ends the server process", async () => {
    const pid = mount.pid as number;
    expect(alive(pid)).toBe(true);
    await mount.close();
    expect(registry.definitions()).toEqual([]);
    expect(alive(pid)).toBe(false);
  });
});
