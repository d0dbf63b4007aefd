import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { appRoot, bin, tempDir } from "./helpers.js";

// `raw mcp proxy` in front of the real filesystem server, driven by a 2026-07-28 peer over stdio: no initialize,
// the envelope in every request's `_meta`, `ask` as `input_required` answered by a retry (amendment A11).
const require = createRequire(import.meta.url);
const filesystem = join(
  dirname(require.resolve("@modelcontextprotocol/server-filesystem/package.json")),
  "dist",
  "index.js",
);
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "modern-e2e", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
const ACCEPT = { raw_approval: { action: "accept", content: { approve: true } } };

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

function rulesFile(): string {
  const file = join(tempDir("raw-mcp-2026-rules-"), "rules.json");
  writeFileSync(
    file,
    JSON.stringify([
      { match: "*", effect: "allow" },
      { match: "mcp/fs/write_file", effect: "ask" },
    ]),
  );
  return file;
}

/** `raw mcp proxy` as a child process, spoken to in 2026-07-28 JSON-RPC over its stdin and stdout. */
function modernProxy(root: string) {
  const child = spawn(
    process.execPath,
    [bin, "mcp", "proxy", "--rules", rulesFile(), "--name", "fs", "--", process.execPath, filesystem, root],
    { cwd: appRoot, stdio: ["pipe", "pipe", "ignore"] },
  );
  children.push(child);
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    waiting.get(Number(message.id))?.(message);
  });
  let id = 0;
  return async (method: string, params: Record<string, unknown>) => {
    const requestId = ++id;
    const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(requestId, resolve));
    child.stdin?.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: requestId, method, params: { ...params, _meta: META } })}\n`,
    );
    const message = await answer;
    return (message.result ?? message.error) as Record<string, unknown>;
  };
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content as Array<{ text?: string }> | undefined) ?? []).map((b) => b.text ?? "").join("\n");

describe("raw mcp proxy for a 2026-07-28 client, in front of @modelcontextprotocol/server-filesystem", () => {
  it("answers without initialize: discover, list, an allowed read, an asked write approved by the retry", async () => {
    const root = tempDir("raw-mcp-2026-");
    writeFileSync(join(root, "a.txt"), "A");
    const call = modernProxy(root);
    const discover = await call("server/discover", {});
    expect(discover.supportedVersions).toContain("2026-07-28");
    const listed = await call("tools/list", {});
    expect((listed.tools as Array<{ name: string }>).map((t) => t.name)).toContain("write_file");
    const read = await call("tools/call", {
      name: "read_text_file",
      arguments: { path: join(root, "a.txt") },
    });
    expect(textOf(read)).toBe("A");

    const args = { path: join(root, "new.txt"), content: "hello" };
    const first = await call("tools/call", { name: "write_file", arguments: args });
    expect(first.resultType).toBe("input_required");
    const message = String(
      (first.inputRequests as Record<string, { params: { message: string } }>).raw_approval?.params.message,
    );
    expect(message.split("\n")[0]).toBe("approve mcp/fs/write_file?");
    expect(existsSync(join(root, "new.txt"))).toBe(false);

    const retry = await call("tools/call", {
      name: "write_file",
      arguments: args,
      requestState: first.requestState,
      inputResponses: ACCEPT,
    });
    expect(retry.isError).not.toBe(true);
    expect(readFileSync(join(root, "new.txt"), "utf8")).toBe("hello");

    // The same approval replayed for other content: refused, the file keeps what was approved.
    const replay = await call("tools/call", {
      name: "write_file",
      arguments: { ...args, content: "evil" },
      requestState: first.requestState,
      inputResponses: ACCEPT,
    });
    expect(textOf(replay)).toContain("approval_denied");
    expect(textOf(replay)).toContain("request_state_arguments_mismatch");
    const again = await call("tools/call", {
      name: "write_file",
      arguments: args,
      requestState: first.requestState,
      inputResponses: ACCEPT,
    });
    expect(textOf(again)).toContain("request_state_used");
    expect(readFileSync(join(root, "new.txt"), "utf8")).toBe("hello");

    // The legacy elicitation for the same call shows the same lines in the same order.
    const legacy: string[] = [];
    const client = new Client(
      { name: "legacy", version: "1" },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      legacy.push(String(request.params.message));
      return { action: "decline" };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          bin,
          "mcp",
          "proxy",
          "--rules",
          rulesFile(),
          "--name",
          "fs",
          "--",
          process.execPath,
          filesystem,
          root,
        ],
        cwd: appRoot,
        stderr: "ignore",
      }),
    );
    await client.callTool({ name: "write_file", arguments: args });
    await client.close();
    expect(message.split("\n")).toEqual((legacy[0] as string).split("\n"));
  });

  it("a declined write and a forged state end approval_denied and the file is never written", async () => {
    const root = tempDir("raw-mcp-2026-");
    const call = modernProxy(root);
    const args = { path: join(root, "no.txt"), content: "x" };
    const first = await call("tools/call", { name: "write_file", arguments: args });
    const declined = await call("tools/call", {
      name: "write_file",
      arguments: args,
      requestState: first.requestState,
      inputResponses: { raw_approval: { action: "decline" } },
    });
    expect((declined._meta as Record<string, unknown>)["raw/code"]).toBe("approval_denied");
    const forged = await call("tools/call", {
      name: "write_file",
      arguments: args,
      requestState: `${String(first.requestState).split(".")[0]}.${"A".repeat(43)}`,
      inputResponses: ACCEPT,
    });
    expect(textOf(forged)).toContain("request_state_invalid");
    expect(existsSync(join(root, "no.txt"))).toBe(false);
  });

  it("the SDK 2.x client negotiates 2026-07-28 and its elicitation handler approves or declines the write", async () => {
    const root = tempDir("raw-mcp-2026-v2-");
    const rules = rulesFile();
    for (const approve of [false, true]) {
      const messages: string[] = [];
      const client = new ClientV2(
        { name: "v2", version: "1" },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
      );
      client.setRequestHandler("elicitation/create", async (request) => {
        messages.push(String((request.params as { message: string }).message));
        return approve ? { action: "accept", content: { approve: true } } : { action: "decline" };
      });
      await client.connect(
        new StdioClientTransportV2({
          command: process.execPath,
          args: [
            bin,
            "mcp",
            "proxy",
            "--rules",
            rules,
            "--name",
            "fs",
            "--",
            process.execPath,
            filesystem,
            root,
          ],
          cwd: appRoot,
          stderr: "ignore",
        }),
      );
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const result = await client.callTool({
        name: "write_file",
        arguments: { path: join(root, "v2.txt"), content: "v2" },
      });
      await client.close();
      expect(messages).toHaveLength(1);
      expect(messages[0]?.split("\n")[0]).toBe("approve mcp/fs/write_file?");
      if (approve) {
        expect(result.isError).not.toBe(true);
        expect(readFileSync(join(root, "v2.txt"), "utf8")).toBe("v2");
      } else {
        expect(JSON.stringify(result.content)).toContain("approval_denied");
        expect(existsSync(join(root, "v2.txt"))).toBe(false);
      }
    }
  });

  it("raw mcp proxy --http serves the gated server on /mcp with the token on every request", async () => {
    const root = tempDir("raw-mcp-proxy-http-");
    writeFileSync(join(root, "a.txt"), "A");
    const token = "a-proxy-token-of-enough-characters";
    const child = spawn(
      process.execPath,
      [
        bin,
        "mcp",
        "proxy",
        "--rules",
        rulesFile(),
        "--name",
        "fs",
        "--http",
        "127.0.0.1:0",
        "--",
        process.execPath,
        filesystem,
        root,
      ],
      { cwd: appRoot, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, RAW_MCP_TOKEN: token } },
    );
    children.push(child);
    let stderr = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
    });
    await expect
      .poll(() => /serving on (\S+)/u.exec(stderr)?.[1], { timeout: 20_000 })
      .toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/u);
    const url = new URL(/serving on (\S+)/u.exec(stderr)?.[1] as string);
    expect(stderr).not.toContain(token);

    const refused = new Client({ name: "no-token", version: "1" });
    await expect(refused.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow(
      /401|unauthorized|token/iu,
    );

    const client = new Client({ name: "with-token", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const read = await client.callTool({ name: "read_text_file", arguments: { path: join(root, "a.txt") } });
    expect(JSON.stringify(read.content)).toContain('"A"');
    const write = await client.callTool({
      name: "write_file",
      arguments: { path: join(root, "w.txt"), content: "w" },
    });
    expect(JSON.stringify(write.content)).toContain("approval_required");
    expect(existsSync(join(root, "w.txt"))).toBe(false);
    await client.close();

    // A 2026-07-28 client over the same HTTP endpoint: no session, the ask as input_required, approved or declined.
    for (const approve of [false, true]) {
      const modern = new ClientV2(
        { name: "v2-http", version: "1" },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
      );
      const messages: string[] = [];
      modern.setRequestHandler("elicitation/create", async (request) => {
        messages.push(String((request.params as { message: string }).message));
        return approve ? { action: "accept", content: { approve: true } } : { action: "decline" };
      });
      await modern.connect(
        new HttpTransportV2(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      );
      expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const result = await modern.callTool({
        name: "write_file",
        arguments: { path: join(root, "v2-http.txt"), content: "v2" },
      });
      await modern.close();
      expect(messages.map((m) => m.split("\n")[0])).toEqual(["approve mcp/fs/write_file?"]);
      if (approve) expect(readFileSync(join(root, "v2-http.txt"), "utf8")).toBe("v2");
      else {
        expect(JSON.stringify(result.content)).toContain("approval_denied");
        expect(existsSync(join(root, "v2-http.txt"))).toBe(false);
      }
    }
    expect(stderr).not.toContain(token);
  });

  it("in front of a 2026-07-28-only upstream: its question reaches the SDK 2.x client attributed to it, after Raw's approval", async () => {
    const rules = join(tempDir("raw-mcp-2026-up-"), "rules.json");
    writeFileSync(
      rules,
      JSON.stringify([
        { match: "*", effect: "allow" },
        { match: "mcp/up/remove", effect: "ask" },
      ]),
    );
    const messages: string[] = [];
    const client = new ClientV2(
      { name: "v2-up", version: "1" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
    );
    client.setRequestHandler("elicitation/create", async (request) => {
      const message = String((request.params as { message: string }).message);
      messages.push(message);
      return message.startsWith("approve ")
        ? { action: "accept", content: { approve: true } }
        : { action: "accept", content: { sure: "yes" } };
    });
    await client.connect(
      new StdioClientTransportV2({
        command: process.execPath,
        args: [
          bin,
          "mcp",
          "proxy",
          "--rules",
          rules,
          "--name",
          "up",
          "--",
          process.execPath,
          join(appRoot, "test", "fixtures", "mcp", "modern-server.mjs"),
        ],
        cwd: appRoot,
        stderr: "ignore",
      }),
    );
    const result = await client.callTool({ name: "remove", arguments: { path: "z.txt" } });
    await client.close();
    expect(JSON.stringify(result.content)).toContain("removed z.txt");
    expect(messages.map((m) => m.split("\n")[0])).toEqual([
      "approve mcp/up/remove?",
      "Question from MCP server up",
    ]);
    expect(messages[1]).toContain("Really remove z.txt?");
  });

  it("raw mcp proxy --http refuses to start without RAW_MCP_TOKEN and never starts the server", () => {
    const root = tempDir("raw-mcp-proxy-notoken-");
    const marker = join(root, "started");
    const env: Record<string, string | undefined> = { ...process.env };
    delete env.RAW_MCP_TOKEN;
    const run = spawnSync(
      process.execPath,
      [
        bin,
        "mcp",
        "proxy",
        "--rules",
        rulesFile(),
        "--http",
        "127.0.0.1:0",
        "--",
        process.execPath,
        "-e",
        `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "")`,
      ],
      { cwd: appRoot, encoding: "utf8", timeout: 60_000, env },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^raw: mcp_token_required: .*RAW_MCP_TOKEN/u);
    expect(run.stderr).not.toContain("serving on");
    expect(existsSync(marker)).toBe(false);
  });
});
