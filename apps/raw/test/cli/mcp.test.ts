import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { appRoot, bin, fixtures, raw, tempDir } from "./helpers.js";

// `raw mcp proxy` in front of real servers installed from npm, driven by the official SDK client over stdio.
const require = createRequire(import.meta.url);
const entry = (pkg: string) => join(dirname(require.resolve(`${pkg}/package.json`)), "dist", "index.js");
const filesystem = entry("@modelcontextprotocol/server-filesystem");
const everything = entry("@modelcontextprotocol/server-everything");
const rulesFile = join(fixtures, "mcp", "rules.json");
const hookDir = join(fixtures, "mcp", "deny-forbidden");

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function proxyClient(
  serverCommand: string[],
  options: {
    name: string;
    trace?: string;
    elicit?: () => Record<string, unknown>;
    rules?: string;
    hook?: string;
  },
): Promise<Client> {
  const args = [
    bin,
    "mcp",
    "proxy",
    "--rules",
    options.rules ?? rulesFile,
    "--hook",
    options.hook ?? hookDir,
    "--name",
    options.name,
  ];
  if (options.trace) args.push("--trace", options.trace);
  const c = new Client(
    { name: "proxy-test", version: "1" },
    { capabilities: options.elicit ? { elicitation: { form: {} } } : {} },
  );
  if (options.elicit) {
    const elicit = options.elicit;
    c.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: elicit() as never }));
  }
  await c.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...args, "--", ...serverCommand],
      cwd: appRoot,
      stderr: "ignore",
    }),
  );
  clients.push(c);
  return c;
}

const text = (result: unknown) =>
  ((result as CallToolResult).content as Array<{ text?: string }>).map((b) => b.text ?? "").join("\n");

function traced(file: string): Array<{ direction: string; message: Record<string, unknown> }> {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe("raw mcp proxy in front of @modelcontextprotocol/server-filesystem", () => {
  it("denied tool absent and refused; predicate → ask; hook denies before the server; bytes unchanged", async () => {
    const root = tempDir("raw-mcp-proxy-");
    const trace = join(tempDir("raw-mcp-trace-"), "trace.jsonl");
    writeFileSync(join(root, "a.txt"), "A");
    const c = await proxyClient([process.execPath, filesystem, root], { name: "fs", trace });
    const { tools } = await c.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain("write_file");
    expect(names).toContain("read_text_file");
    expect(names).not.toContain("move_file");
    // The server's own annotations are passed on for its tools.
    expect(tools.find((t) => t.name === "read_text_file")?.annotations?.readOnlyHint).toBe(true);
    // And their display titles, as the server gave them.
    expect(tools.find((t) => t.name === "read_text_file")?.title).toBe("Read Text File");
    expect(tools.find((t) => t.name === "write_file")?.title).toBe("Write File");

    const moved = await c.callTool({
      name: "move_file",
      arguments: { source: join(root, "a.txt"), destination: join(root, "b.txt") },
    });
    expect(moved.isError).toBe(true);
    expect(text(moved)).toContain("tool_denied");
    expect(existsSync(join(root, "a.txt"))).toBe(true);

    const secret = await c.callTool({
      name: "write_file",
      arguments: { path: join(root, "k.secret"), content: "k" },
    });
    expect(text(secret)).toContain("approval_required");
    expect(existsSync(join(root, "k.secret"))).toBe(false);

    const hooked = await c.callTool({
      name: "write_file",
      arguments: { path: join(root, "h.txt"), content: "a FORBIDDEN word" },
    });
    expect(text(hooked)).toContain("hook_denied");
    expect(existsSync(join(root, "h.txt"))).toBe(false);

    const content = `tab\t nul\u0000 emoji 😀 bidi \u202e quote " back \\ cr\r\n${"z".repeat(5_000)}`;
    const args = { path: join(root, "exact.txt"), content };
    const written = await c.callTool({ name: "write_file", arguments: args });
    expect(written.isError).toBe(false);
    expect(readFileSync(args.path, "utf8")).toBe(content);
    const sentCalls = traced(trace).filter(
      (t) => t.direction === "send" && t.message.method === "tools/call",
    );
    // Only the allowed call reached the server (the denied, asked and hooked ones never did) ...
    expect(sentCalls.map((t) => (t.message.params as { name: string }).name)).toEqual(["write_file"]);
    // ... with exactly the client's arguments.
    expect(
      JSON.stringify((sentCalls[0]?.message.params as { arguments: unknown } | undefined)?.arguments),
    ).toBe(JSON.stringify(args));
  });

  it("the ask path becomes an elicitation for a client that supports it, and the approved write happens", async () => {
    const root = tempDir("raw-mcp-proxy-");
    const c = await proxyClient([process.execPath, filesystem, root], {
      name: "fs",
      elicit: () => ({ approve: true }),
    });
    const result = await c.callTool({
      name: "write_file",
      arguments: { path: join(root, "k.secret"), content: "ok" },
    });
    expect(result.isError).toBe(false);
    expect(readFileSync(join(root, "k.secret"), "utf8")).toBe("ok");
  });
});

describe("the README's filesystem example (packages/mcp/examples/filesystem)", () => {
  const example = join(appRoot, "..", "..", "packages", "mcp", "examples", "filesystem");
  it("allows reads, asks for writes, and its hook denies the secrets folder even when approved", async () => {
    const root = tempDir("raw-mcp-example-");
    mkdirSync(join(root, "secrets"));
    writeFileSync(join(root, "notes.txt"), "public");
    writeFileSync(join(root, "secrets", "key.txt"), "TOPSECRET");
    const options = {
      name: "filesystem",
      rules: join(example, "rules.json"),
      hook: join(example, "hooks", "deny-secrets"),
    };
    const plain = await proxyClient([process.execPath, filesystem, root], options);
    expect(
      text(await plain.callTool({ name: "read_text_file", arguments: { path: join(root, "notes.txt") } })),
    ).toBe("public");
    const write = await plain.callTool({
      name: "write_file",
      arguments: { path: join(root, "new.txt"), content: "n" },
    });
    expect(text(write)).toContain("approval_required");
    expect(existsSync(join(root, "new.txt"))).toBe(false);
    const secret = await plain.callTool({
      name: "read_text_file",
      arguments: { path: join(root, "secrets", "key.txt") },
    });
    expect(text(secret)).toContain("hook_denied");
    expect(text(secret)).not.toContain("TOPSECRET");
    const many = await plain.callTool({
      name: "read_multiple_files",
      arguments: { paths: [join(root, "notes.txt"), join(root, "secrets", "key.txt")] },
    });
    expect(text(many)).toContain("hook_denied");

    const approving = await proxyClient([process.execPath, filesystem, root], {
      ...options,
      elicit: () => ({ approve: true }),
    });
    const approved = await approving.callTool({
      name: "write_file",
      arguments: { path: join(root, "new.txt"), content: "n" },
    });
    expect(approved.isError).toBe(false);
    expect(readFileSync(join(root, "new.txt"), "utf8")).toBe("n");
    const intoSecrets = await approving.callTool({
      name: "write_file",
      arguments: { path: join(root, "secrets", "key.txt"), content: "overwritten" },
    });
    expect(text(intoSecrets)).toContain("hook_denied");
    expect(readFileSync(join(root, "secrets", "key.txt"), "utf8")).toBe("TOPSECRET");
  });
});

describe("raw mcp proxy in front of @modelcontextprotocol/server-everything", () => {
  it("abort cancels the long-running tool: the proxy sends MCP cancellation to the server", async () => {
    const trace = join(tempDir("raw-mcp-trace-"), "trace.jsonl");
    const c = await proxyClient([process.execPath, everything, "stdio"], { name: "everything", trace });
    const controller = new AbortController();
    const pending = c.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 30, steps: 30 } },
      undefined,
      { signal: controller.signal },
    );
    await new Promise((r) => setTimeout(r, 500));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect
      .poll(
        () =>
          traced(trace)
            .filter((t) => t.direction === "send")
            .map((t) => t.message.method),
        { timeout: 5_000 },
      )
      .toContain("notifications/cancelled");
    const events = traced(trace).filter((t) => t.direction === "send");
    const call = events.find((t) => t.message.method === "tools/call");
    const cancel = events.find((t) => t.message.method === "notifications/cancelled");
    expect((cancel?.message.params as { requestId: unknown } | undefined)?.requestId).toBe(call?.message.id);
    const echo = await c.callTool({ name: "echo", arguments: { message: "still here" } });
    expect(text(echo)).toBe("Echo: still here");
  });
});

describe("raw mcp tools", () => {
  it("lists a real server's tools with their canonical identities", () => {
    const root = tempDir("raw-mcp-tools-");
    const run = raw(["mcp", "tools", "--name", "fs", "--", process.execPath, filesystem, root]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("server fs\n");
    expect(run.stdout).toContain("  mcp/fs/write_file\n");
    expect(run.stdout).toContain("  mcp/fs/read_text_file  (server says: read-only)\n");
  });

  it("a server that cannot start is a coded error, no stack", () => {
    const run = raw(["mcp", "tools", "--", "/nonexistent/server"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^raw: mcp_connect_failed: /);
    expect(run.stderr).not.toContain("    at ");
  });

  it("usage errors name the problem", () => {
    expect(raw(["mcp", "proxy", "--", "x"]).stderr).toContain(
      "give --rules <file>, or --config <file> holding rules",
    );
    expect(raw(["mcp", "tools"]).stderr).toContain("give the server command after --");
    expect(raw(["mcp", "nope"]).status).toBe(2);
  });
});
