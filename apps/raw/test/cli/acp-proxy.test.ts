import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { appRoot, bin, raw, tempDir } from "./helpers.js";

/** The scripted ACP agent of @raw/acp's gate tests. */
const AGENT = join(appRoot, "..", "..", "packages", "acp", "test", "fixtures", "gate-agent.mjs");
const HOOK = join(appRoot, "..", "..", "packages", "acp", "test", "fixtures", "protect");

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

describe("raw acp proxy", () => {
  it("--explain prints the identities for the agent's initialize name and what the rules decide", () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "rules.json"), '[{ "match": "acp/*/fs/write_text_file", "effect": "deny" }]');
    const run = raw(["acp", "proxy", "--rules", "rules.json", "--explain", "--", process.execPath, AGENT], {
      cwd,
    });
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toContain("acp/scripted-agent/fs/write_text_file  deny (rule 0)");
    expect(lines).toContain("acp/scripted-agent/fs/read_text_file  ask (default rule)");
    expect(lines).toContain("acp/scripted-agent/terminal/create  ask (default rule)");
    expect(lines).toContain("acp/scripted-agent/tool/read  ask (default rule)");
  });

  it("without an agent command: a stated error, exit 1", () => {
    const run = raw(["acp", "proxy", "--name", "x"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("agent_command_missing");
  });

  it("rules that cannot bind to the gate's identities: a stated error at start, exit 1", () => {
    const cwd = tempDir();
    writeFileSync(
      join(cwd, "rules.json"),
      '[{ "match": "acp/*", "effect": "ask", "when": { "source": "arguments", "any": "path", "regex": "x" } }]',
    );
    const run = raw(["acp", "proxy", "--rules", "rules.json", "--", process.execPath, AGENT], { cwd });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("gate_session_invalid");
    expect(run.stderr).toContain("terminal_create");
  });

  it("gates a real agent process: a denied write, a hook-denied read, an allowed read; exits with the agent", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "protected"));
    writeFileSync(
      join(cwd, "rules.json"),
      JSON.stringify([
        { match: "acp/*/fs/read_text_file", effect: "allow" },
        { match: "acp/*/fs/write_text_file", effect: "deny" },
      ]),
    );
    const child = spawn(
      process.execPath,
      [bin, "acp", "proxy", "--rules", "rules.json", "--hook", HOOK, "--", process.execPath, AGENT],
      { cwd, stdio: ["pipe", "pipe", "pipe"] },
    );
    children.push(child);
    let stderr = "";
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    const updates: any[] = [];
    const writes: any[] = [];
    const reads: any[] = [];
    const app = client({ name: "cli-test" })
      .onNotification("session/update", (ctx) => {
        updates.push(ctx.params.update);
      })
      .onRequest("fs/write_text_file", (async (ctx: any) => {
        writes.push(ctx.params);
        return {};
      }) as any)
      .onRequest("fs/read_text_file", (async (ctx: any) => {
        reads.push(ctx.params);
        return { content: "ok" };
      }) as any);
    const connection = app.connect(
      ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
      ),
    );
    await connection.agent.request("initialize", {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } as any,
    });
    const { sessionId } = await connection.agent.request("session/new", { cwd, mcpServers: [] });
    const steps = [
      { request: "fs/write_text_file", params: { path: join(cwd, "a.txt"), content: "x" } },
      { request: "fs/read_text_file", params: { path: join(cwd, "protected", "key") } },
      { request: "fs/read_text_file", params: { path: join(cwd, "a.txt") } },
    ];
    await connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: JSON.stringify(steps) }],
    });
    const results = updates
      .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.text.startsWith("RESULT "))
      .map((u) => JSON.parse(u.content.text.slice(7)));
    expect(results[0].error.message).toContain("acp/scripted-agent/fs/write_text_file is denied by rule 1");
    expect(results[1].error.message).toContain(
      "hook local/protect denied acp/scripted-agent/fs/read_text_file",
    );
    expect(results[2].result).toEqual({ content: "ok" });
    expect(writes).toEqual([]);
    expect(reads.map((r) => r.path)).toEqual([join(cwd, "a.txt")]);
    expect(
      updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed"),
    ).toHaveLength(2);
    expect(stderr).toContain("raw acp proxy: refused:");
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 30_000);
});
