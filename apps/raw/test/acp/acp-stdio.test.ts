import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { bin } from "../cli/helpers.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

function workdir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "raw-acp-cli-")));
}

/** Starts `raw acp` (the built binary) and connects a scripted SDK client over its stdio. */
function start(args: string[], optionId: string) {
  const child = spawn(process.execPath, [bin, "acp", ...args], { stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  const updates: any[] = [];
  const permissions: any[] = [];
  const app = client({ name: "test" })
    .onNotification("session/update", (ctx) => {
      updates.push(ctx.params.update);
    })
    .onRequest("session/request_permission", (async (ctx: any) => {
      permissions.push(ctx.params);
      return { outcome: { outcome: "selected", optionId } };
    }) as any);
  return { child, connection: app.connect(stream), updates, permissions };
}

const write = (path: string) =>
  `write_file ${JSON.stringify({ operations: [{ path, mode: "overwrite", content: "hi\n" }] })}`;

describe("raw acp over stdio", () => {
  it("runs a command-mode write_file after allow_once; reject_once writes nothing; the agent stays up", async () => {
    const cwd = workdir();
    const a = start(["--cwd", cwd], "allow_once");
    const init = (await a.connection.agent.request("initialize", {
      protocolVersion: 1,
      clientCapabilities: {},
    })) as { protocolVersion: number };
    expect(init.protocolVersion).toBe(1);
    const { sessionId } = await a.connection.agent.request("session/new", { cwd, mcpServers: [] });
    const r = await a.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: write("a.txt") }],
    });
    expect(r.stopReason).toBe("end_turn");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("hi\n");
    expect(a.updates.find((u) => u.sessionUpdate === "tool_call")).toMatchObject({
      kind: "edit",
      locations: [{ path: join(cwd, "a.txt") }],
    });
    expect(a.permissions[0].options).toHaveLength(4);

    const b = start(["--cwd", cwd], "reject_once");
    await b.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const s2 = await b.connection.agent.request("session/new", { cwd, mcpServers: [] });
    await b.connection.agent.request("session/prompt", {
      sessionId: s2.sessionId,
      prompt: [{ type: "text", text: write("b.txt") }],
    });
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    const final = b.updates.filter((u) => u.sessionUpdate === "tool_call_update").at(-1);
    expect(final).toMatchObject({ status: "failed", rawOutput: { code: "approval_denied" } });
    // Still up: a second session answers /tools.
    const s3 = await b.connection.agent.request("session/new", { cwd, mcpServers: [] });
    expect(
      (
        await b.connection.agent.request("session/prompt", {
          sessionId: s3.sessionId,
          prompt: [{ type: "text", text: "/tools" }],
        })
      ).stopReason,
    ).toBe("end_turn");
  }, 30_000);

  it("with allow rules no permission is asked; closing stdin ends the process with 0", async () => {
    const cwd = workdir();
    const rules = join(cwd, "rules.json");
    writeFileSync(rules, JSON.stringify([{ match: "builtin/write_file", effect: "allow" }]));
    const a = start(["--cwd", cwd, "--rules", rules], "reject_once");
    await a.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await a.connection.agent.request("session/new", { cwd, mcpServers: [] });
    await a.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: write("c.txt") }],
    });
    expect(a.permissions).toHaveLength(0);
    expect(existsSync(join(cwd, "c.txt"))).toBe(true);
    const exited = new Promise<number | null>((resolve) => a.child.once("exit", resolve));
    a.child.stdin?.end();
    expect(await exited).toBe(0);
  }, 30_000);
});
