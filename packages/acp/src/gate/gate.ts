import { type ChildProcess, spawn } from "node:child_process";
import type { HostDispatch, HostSession } from "@raw/host";
import { escapeDisplayText } from "@raw/schema";
import type { AnyToolRegistration } from "@raw/tool-api";
import { approvalContent, decidePermission, PERMISSION_OPTIONS } from "../mapping/permission.js";
import { type GatedMethod, identitySafeName, isGatedMethod } from "./identity.js";
import {
  AGENT_EXIT_GRACE_MS,
  AGENT_EXITED_CODE,
  GATE_REFUSED_CODE,
  MAX_ACP_LINE_BYTES,
  MAX_PENDING_REQUESTS,
  MESSAGE_TOO_LARGE_CODE,
  REQUEST_CANCELLED_CODE,
} from "./limits.js";
import { headerOf, type LineReader, readLines, writeLine } from "./lines.js";
import { type GatedCall, GatedRequestError, gatedCallOf } from "./requests.js";
import { GateSessions } from "./sessions.js";
import { currentGatedCall, gateTools } from "./tools.js";

/** The prefix of the ids of requests the gate itself sends to the client; an agent request id using it is refused. */
export const GATE_ID_PREFIX = "raw-gate-";

/** What the gate hands its session factory once it knows the agent's name. */
export interface AcpGateBinding {
  /** The identity-safe agent name of every identity (`acp/<agent>/…`). */
  readonly agent: string;
  /** The gate's registrations (`gateTools(agent)`): pass them as the session's `tools`. */
  readonly tools: AnyToolRegistration[];
}

/** The agent process the gate starts. */
export interface AcpGateAgent {
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly cwd?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
}

/** Options of `createAcpGate`. */
export interface AcpGateOptions {
  /** Opens the host session the gate decides with (`openHostSession({ cwd, tools: binding.tools, rules, hooks })`). */
  readonly session: (binding: AcpGateBinding) => HostSession;
  /** The agent command. */
  readonly agent: AcpGateAgent;
  /** The agent name of identities; default: the agent's `initialize` result `agentInfo.name`, made identity-safe. */
  readonly name?: string | undefined;
  /** The client's side (default: this process's stdin and stdout). */
  readonly input?: NodeJS.ReadableStream | undefined;
  readonly output?: NodeJS.WritableStream | undefined;
  /** One diagnostic line (already escaped; default: written to stderr). */
  readonly onDiagnostic?: ((line: string) => void) | undefined;
  /** Largest line read from either side (default `MAX_ACP_LINE_BYTES`). */
  readonly maxLineBytes?: number | undefined;
  /** Most requests waiting for an answer in each direction (default `MAX_PENDING_REQUESTS`). */
  readonly maxPendingRequests?: number | undefined;
}

/** How a gate ended. */
export interface AcpGateExit {
  /** The agent's exit code (`null` when a signal ended it). */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running gate. */
export interface AcpGate {
  /** Settles once the agent exited and every pending client request was answered. */
  readonly closed: Promise<AcpGateExit>;
  /** The agent name identities use, once known. */
  readonly agentName: string | undefined;
  /** Stops the agent (`SIGTERM`); `closed` settles after. */
  close(): void;
}

type Id = string | number;
interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is Id {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function keyOf(id: Id): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

function parse(text: string): Message | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const KIND_OF_METHOD: Record<Exclude<GatedMethod, "session/request_permission">, string> = {
  "fs/write_text_file": "edit",
  "fs/read_text_file": "read",
  "terminal/create": "execute",
};

/**
 * Starts an ACP agent and stands between it and the client (amendment A13): every JSON-RPC line is relayed unchanged
 * except the four requests the agent sends the client to write or read a file, open a terminal or ask permission.
 * Each of those is dispatched as a tool call of the host session (`acp/<agent>/…`, rules, `PreToolUse` hooks, the A10
 * approval view): refused → an error to the agent (or `reject_once` by option kind) and a `failed` tool call update to
 * the client; allowed → forwarded (or `allow_once` by kind); asked → the client answers, never the agent.
 */
export function createAcpGate(options: AcpGateOptions): AcpGate {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? MAX_ACP_LINE_BYTES;
  const maxPending = options.maxPendingRequests ?? MAX_PENDING_REQUESTS;
  const diagnostic =
    options.onDiagnostic ?? ((line: string) => process.stderr.write(`raw acp proxy: ${line}\n`));
  const say = (text: string): void => diagnostic(escapeDisplayText(text));

  const child: ChildProcess = spawn(options.agent.command, [...(options.agent.args ?? [])], {
    cwd: options.agent.cwd,
    env: options.agent.env ?? process.env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const agentIn = child.stdin as NodeJS.WritableStream;
  agentIn.on("error", () => undefined);
  output.on("error", () => undefined);

  let agentName = options.name === undefined ? undefined : identitySafeName(options.name);
  let host: HostSession | undefined;
  let hostFailure: string | undefined;
  const clientPending = new Map<string, { id: Id; method: string }>();
  const agentPending = new Map<string, { id: Id; method: string }>();
  const gateAsks = new Map<string, (response: Message) => void>();
  const asksFor = new Map<string, string>();
  const withdrawn = new Set<string>();
  const initializeIds = new Set<string>();
  const sessions = new GateSessions();
  let gated = 0;
  let asks = 0;
  let ended = false;

  const toClient = (message: unknown, from?: LineReader): void => {
    if (!ended) writeLine(output, typeof message === "string" ? message : JSON.stringify(message), from);
  };
  const toAgent = (message: unknown, from?: LineReader): void => {
    writeLine(agentIn, typeof message === "string" ? message : JSON.stringify(message), from);
  };
  const errorTo = (send: (m: unknown) => void, id: Id, code: number, message: string, data?: unknown) =>
    send({ jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } });

  function sessionOf(): HostSession | undefined {
    if (host !== undefined || hostFailure !== undefined) return host;
    const agent = agentName ?? "agent";
    agentName = agent;
    try {
      host = options.session({ agent, tools: gateTools(agent) });
    } catch (error) {
      hostFailure = error instanceof Error ? error.message : String(error);
      say(`the host session did not open, every gated request is refused: ${hostFailure}`);
    }
    return host;
  }

  /** The gate's own permission request for the agent's request `forId` (its `$/cancel_request` is mapped to it). */
  function askClient(params: unknown, forId: Id): Promise<Message> {
    const id = `${GATE_ID_PREFIX}${++asks}`;
    const asked = new Promise<Message>((resolve) => {
      gateAsks.set(keyOf(id), resolve);
      asksFor.set(keyOf(forId), id);
      toClient({ jsonrpc: "2.0", id, method: "session/request_permission", params });
    });
    return asked.finally(() => asksFor.delete(keyOf(forId)));
  }

  /** The agent withdrew a gated request (`$/cancel_request`): the client's question is withdrawn too. */
  function withdraw(params: unknown): boolean {
    const requestId = isRecord(params) ? params.requestId : undefined;
    if (!isId(requestId)) return false;
    const own = asksFor.get(keyOf(requestId));
    if (own === undefined) return false;
    withdrawn.add(keyOf(requestId));
    toClient({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: own } });
    const ask = gateAsks.get(keyOf(own));
    gateAsks.delete(keyOf(own));
    ask?.({ result: { outcome: { outcome: "cancelled" } } });
    return true;
  }

  let ownCalls = 0;
  function failedUpdate(call: GatedCall, toolCallId: string | undefined, reason: string): void {
    if (call.sessionId === "") return;
    const text = escapeDisplayText(`Refused by Raw: ${reason}`, { multiline: true });
    let id = toolCallId;
    if (id === undefined) {
      id = `${GATE_ID_PREFIX}call-${++ownCalls}`;
      toClient({
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId: call.sessionId,
          update: {
            sessionUpdate: "tool_call",
            toolCallId: id,
            title: escapeDisplayText(call.identity),
            kind: call.method === "session/request_permission" ? "other" : KIND_OF_METHOD[call.method],
            status: "pending",
          },
        },
      });
    }
    toClient({
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId: call.sessionId,
        update: {
          sessionUpdate: "tool_call_update",
          toolCallId: id,
          status: "failed",
          content: [{ type: "content", content: { type: "text", text } }],
          rawOutput: { refusedBy: "raw", reason: escapeDisplayText(reason) },
        },
      },
    });
  }

  /** Why a dispatch refused: the rule (its index in the rules file) or the hook, else the result message. */
  function refusalOf(
    session: HostSession,
    call: GatedCall,
    dispatched: HostDispatch,
  ): { reason: string; data: Record<string, unknown> } {
    const result = dispatched.result;
    const code = result.code ?? "refused";
    const message = result.content.find((c) => c.type === "text")?.text ?? code;
    const data: Record<string, unknown> = { code, identity: call.identity };
    if (code === "tool_denied") {
      const explained = session.explain(call.identity, call.arguments, call.effects);
      if (explained.ruleIndex !== null) {
        const rule = session.rules.rules[explained.ruleIndex] as { match?: unknown } | undefined;
        const index = explained.ruleIndex - session.rules.defaults;
        data.rule = { index, match: rule?.match };
        return {
          reason: `${call.identity} is denied by rule ${index} (match ${JSON.stringify(rule?.match)}) of the rules file`,
          data,
        };
      }
    }
    if (code === "hook_denied" || code === "hook_error") {
      const receipt = dispatched.hooks.find((r) => r.outcome !== "continued");
      if (receipt !== undefined) {
        data.hook = { id: receipt.id, outcome: receipt.outcome };
        return {
          reason: `hook ${receipt.id} ${receipt.outcome === "denied" ? "denied" : "failed on"} ${call.identity}: ${message}`,
          data,
        };
      }
    }
    if (code === "approval_denied") return { reason: `the user did not approve ${call.identity}`, data };
    return { reason: `${call.identity}: ${message}`, data };
  }

  function optionByKind(params: unknown, kinds: readonly string[]): string | undefined {
    const list = isRecord(params) && Array.isArray(params.options) ? params.options : [];
    for (const kind of kinds) {
      const found = list.find((o) => isRecord(o) && o.kind === kind && typeof o.optionId === "string");
      if (found !== undefined) return (found as { optionId: string }).optionId;
    }
    return undefined;
  }

  function answerPermission(id: Id, optionId: string | undefined): void {
    toAgent({
      jsonrpc: "2.0",
      id,
      result: {
        outcome: optionId === undefined ? { outcome: "cancelled" } : { outcome: "selected", optionId },
      },
    });
  }

  async function gate(message: Message, raw: string, id: Id, method: GatedMethod): Promise<void> {
    gated++;
    try {
      let call: GatedCall;
      try {
        call = gatedCallOf(agentName ?? "agent", method, message.params);
      } catch (error) {
        const reason = error instanceof GatedRequestError ? error.message : String(error);
        say(`refused ${method}: ${reason}`);
        if (method === "session/request_permission")
          answerPermission(id, optionByKind(message.params, ["reject_once", "reject_always"]));
        else
          errorTo(toAgent, id, GATE_REFUSED_CODE, `refused by Raw: ${reason}`, {
            code: (error as GatedRequestError).code ?? "invalid_params",
          });
        return;
      }
      const session = sessionOf();
      if (session === undefined) {
        const reason = `no host session: ${hostFailure ?? "not opened"}`;
        if (method === "session/request_permission")
          answerPermission(id, optionByKind(message.params, ["reject_once", "reject_always"]));
        else errorTo(toAgent, id, GATE_REFUSED_CODE, `refused by Raw: ${reason}`);
        failedUpdate(call, undefined, reason);
        return;
      }
      // The sessions are keyed after opening the host session: its agent name may have been settled just now.
      call = gatedCallOf(agentName ?? "agent", method, message.params);
      const state = sessions.get(call.sessionId);
      let ruleIndex: number | null | undefined;
      let clientAnswer: Message | undefined;
      let ownCard: string | undefined;
      const params = message.params as Record<string, unknown>;
      const dispatched = await currentGatedCall.run(call, () =>
        session.dispatch(
          { name: call.toolName, arguments: call.arguments },
          {
            onStep: (event) => {
              if (event.type === "step" && event.step.step === "policy") ruleIndex = event.step.ruleIndex;
            },
            approve: async (request, view) => {
              const remembered = state.grants.lookup(request.identity, ruleIndex);
              if (remembered !== undefined) return remembered;
              if (method === "session/request_permission") {
                const toolCall = isRecord(params.toolCall) ? params.toolCall : {};
                const content = Array.isArray(toolCall.content) ? toolCall.content : [];
                const answer = await askClient(
                  { ...params, toolCall: { ...toolCall, content: [...approvalContent(view), ...content] } },
                  id,
                );
                clientAnswer = answer;
                const outcome = isRecord(answer.result) ? answer.result.outcome : undefined;
                const options = Array.isArray(params.options) ? params.options : [];
                const chosen =
                  isRecord(outcome) && outcome.outcome === "selected"
                    ? options.find((o) => isRecord(o) && o.optionId === outcome.optionId)
                    : undefined;
                const kind = isRecord(chosen) ? chosen.kind : undefined;
                const approved = kind === "allow_once" || kind === "allow_always";
                if (kind === "allow_always" || kind === "reject_always")
                  state.grants.remember(request.identity, ruleIndex, approved);
                return approved;
              }
              const files = call.effects.files ?? [];
              // The gate's own tool card: announced first (a client shows permission requests on a known card),
              // marked completed or failed once decided.
              ownCard = `${GATE_ID_PREFIX}call-${++ownCalls}`;
              const card = {
                toolCallId: ownCard,
                title: escapeDisplayText(call.identity),
                kind: KIND_OF_METHOD[method],
                status: "pending",
                content: approvalContent(view),
                ...(files.length > 0 ? { locations: files.map((f) => ({ path: f.path })) } : {}),
                rawInput: call.arguments,
              };
              if (call.sessionId !== "") {
                toClient({
                  jsonrpc: "2.0",
                  method: "session/update",
                  params: { sessionId: call.sessionId, update: { sessionUpdate: "tool_call", ...card } },
                });
              }
              const answer = await askClient(
                { sessionId: call.sessionId, toolCall: card, options: PERMISSION_OPTIONS },
                id,
              );
              const decision = decidePermission(answer.result);
              if (decision.always) state.grants.remember(request.identity, ruleIndex, decision.approved);
              return decision.approved;
            },
          },
        ),
      );
      const result = dispatched.result;
      if (!result.isError) {
        if (method === "session/request_permission") {
          const outcome =
            clientAnswer && isRecord(clientAnswer.result) ? clientAnswer.result.outcome : undefined;
          if (isRecord(outcome) && outcome.outcome === "selected" && typeof outcome.optionId === "string")
            answerPermission(id, outcome.optionId);
          else answerPermission(id, optionByKind(params, ["allow_once", "allow_always"]));
          return;
        }
        if (agentPending.size >= maxPending) {
          errorTo(toAgent, id, GATE_REFUSED_CODE, `too many pending requests (at most ${maxPending})`);
          return;
        }
        agentPending.set(keyOf(id), { id, method });
        if (ownCard !== undefined && call.sessionId !== "") {
          toClient({
            jsonrpc: "2.0",
            method: "session/update",
            params: {
              sessionId: call.sessionId,
              update: { sessionUpdate: "tool_call_update", toolCallId: ownCard, status: "completed" },
            },
          });
        }
        toClient(raw);
        return;
      }
      const refusal = refusalOf(session, call, dispatched);
      say(`refused: ${refusal.reason}`);
      if (method === "session/request_permission") {
        if (clientAnswer !== undefined) {
          // The user answered: the agent gets that answer (a rejection or a cancellation) and reports it itself.
          const outcome = isRecord(clientAnswer.result) ? clientAnswer.result.outcome : undefined;
          const offered = Array.isArray(params.options) ? params.options : [];
          const known =
            isRecord(outcome) &&
            outcome.outcome === "selected" &&
            offered.some((o) => isRecord(o) && o.optionId === outcome.optionId);
          answerPermission(id, known ? String((outcome as { optionId: unknown }).optionId) : undefined);
          return;
        }
        answerPermission(id, optionByKind(params, ["reject_once", "reject_always"]));
        const toolCall = isRecord(params.toolCall) ? params.toolCall : {};
        failedUpdate(
          call,
          typeof toolCall.toolCallId === "string" ? toolCall.toolCallId : undefined,
          refusal.reason,
        );
        return;
      }
      if (withdrawn.delete(keyOf(id))) errorTo(toAgent, id, REQUEST_CANCELLED_CODE, "request cancelled");
      else errorTo(toAgent, id, GATE_REFUSED_CODE, `refused by Raw: ${refusal.reason}`, refusal.data);
      failedUpdate(call, ownCard ?? state.openToolCall, refusal.reason);
    } catch (error) {
      say(`refused ${method}: ${error instanceof Error ? error.message : String(error)}`);
      if (method === "session/request_permission")
        answerPermission(id, optionByKind(message.params, ["reject_once", "reject_always"]));
      else errorTo(toAgent, id, GATE_REFUSED_CODE, "refused by Raw: the gate failed to decide");
    } finally {
      withdrawn.delete(keyOf(id));
      gated--;
    }
  }

  function malformed(side: "client" | "agent", text: string, send: (m: unknown) => void): void {
    const header = headerOf(text.slice(0, 4096));
    say(`the ${side} sent a line that is not a JSON object (${Buffer.byteLength(text)} bytes); dropped`);
    if (header.id !== undefined && header.method !== undefined)
      errorTo(send, header.id, -32700, "parse error: the line is not a JSON object");
  }

  const clientReader: LineReader = readLines(
    input,
    {
      line(text) {
        const message = parse(text);
        if (message === undefined) return malformed("client", text, (m) => toClient(m));
        const { id, method } = message;
        if (typeof method === "string" && isId(id)) {
          if (clientPending.size >= maxPending) {
            errorTo(toClient, id, GATE_REFUSED_CODE, `too many pending requests (at most ${maxPending})`);
            return;
          }
          clientPending.set(keyOf(id), { id, method });
          if (method === "initialize") initializeIds.add(keyOf(id));
          toAgent(text, clientReader);
          return;
        }
        if (method === undefined && isId(id)) {
          const key = keyOf(id);
          const ask = gateAsks.get(key);
          if (ask !== undefined) {
            gateAsks.delete(key);
            ask(message);
          } else if (agentPending.delete(key)) {
            toAgent(text, clientReader);
          } else say("the client answered a request nobody is waiting for; dropped");
          return;
        }
        toAgent(text, clientReader);
      },
      oversized(prefix, bytes) {
        const { id, method } = headerOf(prefix);
        say(`the client sent a ${bytes}-byte line (at most ${maxLineBytes}); dropped`);
        if (id !== undefined && method !== undefined)
          errorTo(
            toClient,
            id,
            MESSAGE_TOO_LARGE_CODE,
            `message too large: ${bytes} bytes (at most ${maxLineBytes})`,
          );
        else if (id !== undefined && agentPending.delete(keyOf(id)))
          errorTo(
            toAgent,
            id,
            MESSAGE_TOO_LARGE_CODE,
            `the client's answer was too large: ${bytes} bytes (at most ${maxLineBytes})`,
          );
      },
      end() {
        // The client went away: the agent's input ends, and it gets a grace period to exit.
        agentIn.end();
        const timer = setTimeout(() => child.kill("SIGTERM"), AGENT_EXIT_GRACE_MS);
        timer.unref();
      },
    },
    maxLineBytes,
  );

  const agentReader: LineReader = readLines(
    child.stdout as NodeJS.ReadableStream,
    {
      line(text) {
        const message = parse(text);
        if (message === undefined) return malformed("agent", text, (m) => toAgent(m));
        const { id, method } = message;
        if (typeof method === "string" && isId(id)) {
          if (typeof id === "string" && id.startsWith(GATE_ID_PREFIX)) {
            errorTo(
              toAgent,
              id,
              GATE_REFUSED_CODE,
              `request ids starting with ${GATE_ID_PREFIX} are the gate's`,
            );
            return;
          }
          if (agentPending.size + gated >= maxPending) {
            errorTo(toAgent, id, GATE_REFUSED_CODE, `too many pending requests (at most ${maxPending})`);
            return;
          }
          if (isGatedMethod(method)) {
            void gate(message, text, id, method);
            return;
          }
          agentPending.set(keyOf(id), { id, method });
          toClient(text, agentReader);
          return;
        }
        if (method === undefined && isId(id)) {
          const key = keyOf(id);
          if (!clientPending.delete(key)) {
            say("the agent answered a request the client is not waiting for; dropped");
            return;
          }
          if (initializeIds.delete(key) && agentName === undefined && isRecord(message.result)) {
            const info = message.result.agentInfo;
            agentName = identitySafeName(isRecord(info) ? info.name : undefined);
          }
          toClient(text, agentReader);
          return;
        }
        if (method === "session/update") sessions.observe(message.params);
        if (method === "$/cancel_request" && withdraw(message.params)) return;
        toClient(text, agentReader);
      },
      oversized(prefix, bytes) {
        const { id, method } = headerOf(prefix);
        say(
          `the agent sent a ${bytes}-byte line${method ? ` (${method})` : ""} (at most ${maxLineBytes}); dropped`,
        );
        if (id !== undefined && method !== undefined)
          errorTo(
            toAgent,
            id,
            MESSAGE_TOO_LARGE_CODE,
            `message too large: ${bytes} bytes (at most ${maxLineBytes})`,
          );
        else if (id !== undefined && clientPending.delete(keyOf(id)))
          errorTo(
            toClient,
            id,
            MESSAGE_TOO_LARGE_CODE,
            `the agent's answer was too large: ${bytes} bytes (at most ${maxLineBytes})`,
          );
      },
      end() {
        stdoutEnded();
      },
    },
    maxLineBytes,
  );

  let stdoutEnded: () => void = () => undefined;
  const stdoutDone = new Promise<void>((resolve) => {
    stdoutEnded = resolve;
  });
  const exited = new Promise<AcpGateExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => {
      say(`the agent did not start: ${error.message}`);
      stdoutEnded();
      resolve({ code: null, signal: null });
    });
  });
  const closed = Promise.all([exited, stdoutDone]).then(async ([exit]) => {
    const how = exit.signal
      ? `signal ${exit.signal}`
      : exit.code === null
        ? "or did not start"
        : `code ${exit.code}`;
    for (const pending of clientPending.values()) {
      errorTo(
        toClient,
        pending.id,
        AGENT_EXITED_CODE,
        `the ACP agent exited (${how}) before answering ${pending.method}`,
        {
          code: "agent_exited",
        },
      );
    }
    clientPending.clear();
    for (const ask of gateAsks.values()) ask({ result: { outcome: { outcome: "cancelled" } } });
    gateAsks.clear();
    ended = true;
    await host?.close();
    if (output !== process.stdout) output.end();
    return exit;
  });

  return {
    closed,
    get agentName() {
      return agentName;
    },
    close() {
      child.kill("SIGTERM");
    },
  };
}
