import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { type ClientConnection, client, ndJsonStream } from "@agentclientprotocol/sdk";
import type { LoadedHook } from "@raw/hook-protocol";
import { openHostSession } from "@raw/host";
import type { ToolRuleJson } from "@raw/tool-api";
import { type AcpGate, createAcpGate } from "../src/index.js";

/** The scripted agent (`test/fixtures/gate-agent.mjs`). */
export const GATE_AGENT = fileURLToPath(new URL("./fixtures/gate-agent.mjs", import.meta.url));

/** A fresh working folder (its real path). */
export function gateWorkdir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "raw-acp-gate-")));
}

/** What a scripted client answers; each handler gets the request's params. */
export interface ClientScript {
  permission?: (params: any) => unknown;
  write?: (params: any) => unknown;
  read?: (params: any) => unknown;
  terminal?: (params: any) => unknown;
}

/** A gate between the SDK client (in this process) and the scripted agent (a child process). */
export async function openGate(options: {
  cwd: string;
  rules?: ToolRuleJson[];
  hooks?: LoadedHook[];
  name?: string;
  script?: ClientScript;
  agentEnv?: Record<string, string>;
  maxLineBytes?: number;
  maxPendingRequests?: number;
  /** Answers a client request of any other method (default `{}` at once). */
  other?: (method: string, params: any) => unknown;
}) {
  const script = options.script ?? {};
  const toGate = new PassThrough();
  const toClient = new PassThrough();
  /** Every line that reached the client, parsed. */
  const lines: any[] = [];
  const diagnostics: string[] = [];
  let partial = "";
  const fromGate = new PassThrough();
  const onData = (chunk: Buffer): void => {
    const text = partial + chunk.toString("utf8");
    const parts = text.split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) if (line.trim() !== "") lines.push(JSON.parse(line));
    toClient.write(chunk);
  };
  fromGate.on("data", onData);
  fromGate.on("end", () => toClient.end());
  const writes: any[] = [];
  const reads: any[] = [];
  const terminals: any[] = [];
  const permissions: any[] = [];
  const updates: any[] = [];
  const gate: AcpGate = createAcpGate({
    agent: {
      command: process.execPath,
      args: [GATE_AGENT],
      cwd: options.cwd,
      env: { ...process.env, ...options.agentEnv },
    },
    name: options.name,
    input: toGate,
    output: fromGate,
    onDiagnostic: (line) => diagnostics.push(line),
    ...(options.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {}),
    ...(options.maxPendingRequests ? { maxPendingRequests: options.maxPendingRequests } : {}),
    session: (binding) =>
      openHostSession({ cwd: options.cwd, tools: binding.tools, rules: options.rules, hooks: options.hooks }),
  });
  const app = client({ name: "gate-test-client" })
    .onNotification("session/update", (ctx) => {
      updates.push(ctx.params);
    })
    .onRequest("session/request_permission", (async (ctx: any) => {
      permissions.push(ctx.params);
      return (await script.permission?.(ctx.params)) ?? { outcome: { outcome: "cancelled" } };
    }) as any)
    .onRequest("fs/write_text_file", (async (ctx: any) => {
      writes.push(ctx.params);
      return (await script.write?.(ctx.params)) ?? {};
    }) as any)
    .onRequest("fs/read_text_file", (async (ctx: any) => {
      reads.push(ctx.params);
      return (await script.read?.(ctx.params)) ?? { content: "file text\n" };
    }) as any)
    .onRequest("terminal/create", (async (ctx: any) => {
      terminals.push(ctx.params);
      return (await script.terminal?.(ctx.params)) ?? { terminalId: "t-1" };
    }) as any)
    .onRequest("*", async (ctx: any) => (await options.other?.(ctx.method, ctx.params)) ?? {})
    .onNotification("*", () => undefined);
  const connection: ClientConnection = app.connect(
    ndJsonStream(
      Writable.toWeb(toGate) as WritableStream<Uint8Array>,
      Readable.toWeb(toClient) as unknown as ReadableStream<Uint8Array>,
    ),
  );
  const init = await connection.agent.request("initialize", {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } as any,
  });
  const created = await connection.agent.request("session/new", { cwd: options.cwd, mcpServers: [] });
  const sessionId = created.sessionId;
  /** Runs one scripted prompt; the answers the agent got, by step. */
  async function run(steps: unknown[]): Promise<any[]> {
    const before = updates.length;
    await connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: JSON.stringify(steps) }],
    });
    return results(updates.slice(before));
  }
  return {
    gate,
    init,
    sessionId,
    connection,
    run,
    lines,
    diagnostics,
    writes,
    reads,
    terminals,
    permissions,
    updates,
    output: fromGate,
    /** The client stops reading what the gate writes (a slow editor). */
    hold: () => {
      fromGate.off("data", onData);
      fromGate.pause();
    },
    release: () => {
      fromGate.on("data", onData);
      fromGate.resume();
    },
    /** Writes a line to the gate as the client, as it is. */
    sendRaw: (text: string) => toGate.write(`${text}\n`),
    close: async () => {
      toGate.end();
      return gate.closed;
    },
  };
}

/** The `RESULT <json>` reports of the scripted agent among `updates`, by step. */
export function results(updates: any[]): any[] {
  const out: any[] = [];
  for (const n of updates) {
    const text = n.update?.sessionUpdate === "agent_message_chunk" ? n.update.content?.text : undefined;
    if (typeof text === "string" && text.startsWith("RESULT ")) {
      const value = JSON.parse(text.slice(7));
      out[value.step] = value;
    }
  }
  return out;
}

/** The `tool_call_update`s marked `failed` that reached the client. */
export function failedUpdates(updates: any[]): any[] {
  return updates
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
}

/** Permission options in a shuffled order (the gate must pick by kind, never by position). */
export const SHUFFLED_OPTIONS = [
  { optionId: "no-forever", name: "Never", kind: "reject_always" },
  { optionId: "yes", name: "Yes", kind: "allow_once" },
  { optionId: "no", name: "No", kind: "reject_once" },
  { optionId: "yes-forever", name: "Always", kind: "allow_always" },
];
