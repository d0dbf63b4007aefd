import { mkdtempSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type AnyMessage, type ClientConnection, client, type Stream } from "@agentclientprotocol/sdk";
import type { LoadedHook } from "@raw/hook-protocol";
import { openHostSession } from "@raw/host";
import { type LoadedTool, loadToolFolders, type ToolRuleJson } from "@raw/tool-api";
import { bundledToolFolders } from "@raw/tools";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type AcpAgentOptions, type AcpTurnDriver, serveAcpAgent } from "../src/index.js";

const require = createRequire(import.meta.url);
// The SDK exports no ./package.json: its root is four folders above its stable entry (dist/v1/stable/acp.js).
const sdkRoot = dirname(dirname(dirname(dirname(require.resolve("@agentclientprotocol/sdk")))));
const schema = require(join(sdkRoot, "schema/v1/schema.json")) as {
  anyOf: Record<string, unknown>[];
  $defs: Record<string, unknown>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
/** The SDK's published protocol-1 schema of a message an agent sends (its `Agent` branch). */
export const validateAgentMessage = ajv.compile({ ...(schema.anyOf[0] as object), $defs: schema.$defs });

let tools: Promise<LoadedTool[]> | undefined;
/** The bundled tools, loaded once per test file. */
export function bundledTools(): Promise<LoadedTool[]> {
  tools ??= loadToolFolders(bundledToolFolders().map((f) => ({ dir: f.dir, identity: f.identity })));
  return tools;
}

/** A fresh working folder (its real path). */
export function workdir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "raw-acp-")));
}

/** Two connected in-memory ACP streams; every message the agent sends is kept in `sent`. */
export function pipePair(): { agent: Stream; client: Stream; sent: AnyMessage[]; disconnect: () => void } {
  const sent: AnyMessage[] = [];
  const toClient = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      sent.push(JSON.parse(JSON.stringify(message)));
      controller.enqueue(message);
    },
  });
  let input: TransformStreamDefaultController<AnyMessage> | undefined;
  const toAgent = new TransformStream<AnyMessage, AnyMessage>({
    start(controller) {
      input = controller;
    },
  });
  return {
    // The client goes away: the agent's input ends, as when an editor's process dies.
    disconnect: () => input?.terminate(),
    agent: { writable: toClient.writable, readable: toAgent.readable },
    client: { writable: toAgent.writable, readable: toClient.readable },
    sent,
  };
}

/** What a scripted client answers. */
export interface Script {
  permission?: (params: any) => unknown | Promise<unknown>;
  elicitation?: (params: any) => unknown | Promise<unknown>;
  extension?: (method: string, params: any) => unknown | Promise<unknown>;
  capabilities?: Record<string, unknown>;
}

/** A scripted client connected to an agent over a host session of the bundled tools (plus `extraTools`). */
export async function connect(options: {
  cwd: string;
  rules?: ToolRuleJson[];
  hooks?: LoadedHook[];
  script?: Script;
  driver?: AcpTurnDriver;
  extra?: Partial<AcpAgentOptions>;
}) {
  const loaded = await bundledTools();
  const pair = pipePair();
  const updates: any[] = [];
  const permissions: any[] = [];
  const elicitations: any[] = [];
  const script = options.script ?? {};
  const app = client({ name: "test-client" })
    .onNotification("session/update", (ctx) => {
      updates.push(ctx.params);
    })
    .onRequest("session/request_permission", (async (ctx: any) => {
      permissions.push(ctx.params);
      return (await script.permission?.(ctx.params)) ?? { outcome: { outcome: "cancelled" } };
    }) as any)
    .onRequest("elicitation/create", (async (ctx: any) => {
      elicitations.push(ctx.params);
      return (await script.elicitation?.(ctx.params)) ?? { action: "cancel" };
    }) as any)
    .onRequest("*", async (ctx) => script.extension?.(ctx.method, ctx.params) ?? {})
    .onNotification("*", () => undefined);
  const agentConnection = serveAcpAgent({
    connection: pair.agent,
    session: (binding) =>
      openHostSession({
        cwd: binding.cwd,
        tools: loaded,
        rules: options.rules,
        hooks: options.hooks,
        approve: binding.approve,
        interactionAdapter: binding.interactionAdapter,
      }),
    ...(options.driver ? { driver: options.driver } : {}),
    ...options.extra,
  });
  const connection: ClientConnection = app.connect(pair.client);
  const init = await connection.agent.request("initialize", {
    protocolVersion: 1,
    clientCapabilities: (script.capabilities ?? {}) as any,
  });
  async function newSession(cwd = options.cwd): Promise<string> {
    const created = await connection.agent.request("session/new", { cwd, mcpServers: [] });
    return created.sessionId;
  }
  async function prompt(sessionId: string, text: string) {
    return connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  }
  return {
    init,
    disconnect: pair.disconnect,
    connection,
    agentConnection,
    newSession,
    prompt,
    updates,
    permissions,
    elicitations,
    sent: pair.sent,
  };
}

/** Every message the agent sent is valid under the SDK's protocol-1 schema; returns how many were checked. */
export function expectAllValid(sent: AnyMessage[]): number {
  for (const message of sent) {
    if (!validateAgentMessage(message)) {
      throw new Error(
        `invalid agent message ${JSON.stringify(message).slice(0, 400)}: ${JSON.stringify(validateAgentMessage.errors?.slice(0, 3))}`,
      );
    }
  }
  return sent.length;
}

/** The `session/update` payloads of one kind, in order. */
export function updatesOf(updates: any[], kind: string): any[] {
  return updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind);
}

/** `write_file` arguments that write `content` to `path`. */
export function writeArgs(path: string, content = "hello\n"): string {
  return JSON.stringify({ operations: [{ path, mode: "overwrite", content }] });
}
