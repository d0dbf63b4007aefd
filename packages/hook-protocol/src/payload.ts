import { ContractError, isPlainObject } from "@raw/schema";
import { type HookEvent, isHookEvent, isToolEvent } from "./events.js";
import { HOOK_PROTOCOL_VERSION } from "./limits.js";
import type { HookPayload, HookPayloadOf, HookRunStatus, HookToolResult } from "./payload-schema.js";

/** Code of the error `buildHookPayload` throws for fields that cannot form a request. */
export const HOOK_PAYLOAD_INVALID = "hook_payload_invalid";

/** The tool of a tool event, as the host knows it (`source` defaults to `"model"`). */
export interface HookToolFields {
  /** The canonical identity (`builtin/bash`, `mcp/<server>/<tool>`, ...). */
  identity: string;
  /** The model-facing name. */
  name: string;
  /** `"model"` (default) or `"user_action"`. */
  source?: "model" | "user_action" | undefined;
  /** The frozen, validated arguments. */
  arguments: Readonly<Record<string, unknown>>;
  /** The frozen effects snapshot, when the tool has an effects descriptor. */
  effects?: Readonly<Record<string, unknown>> | undefined;
  /** The tool result (post events only), panel blocks removed, before capping. */
  result?: (HookToolResult & Record<string, unknown>) | undefined;
  /** The call's ID, when known. */
  tool_call_id?: string | undefined;
  /** Alias of `tool_call_id` (the tool-api spelling). */
  toolCallId?: string | undefined;
}

/** The fields a host supplies for one request; only those the event carries are used (hooks.md §7.1). */
export interface HookPayloadFields {
  /** The session working directory. */
  cwd: string;
  /** The agent name, when the host has one. */
  agent_id?: string | undefined;
  /** The session ID, when the session is persisted. */
  session_id?: string | undefined;
  /** The run's operation ID (`UserPromptSubmit`, tool events, `Stop`). */
  turn_id?: string | undefined;
  /** Alias of `agent_id`. */
  agentId?: string | undefined;
  /** Alias of `session_id`. */
  sessionId?: string | undefined;
  /** Alias of `turn_id`. */
  turnId?: string | undefined;
  /** `SessionStart`: `"create"` (default) or `"resume"`. */
  source?: "create" | "resume" | undefined;
  /** `UserPromptSubmit`: the user input exactly as submitted. */
  input?: string | ReadonlyArray<Record<string, unknown>> | undefined;
  /** Tool events: the tool. */
  tool?: HookToolFields | undefined;
  /** `Stop`: the run's status. */
  run?: HookRunStatus | undefined;
}

function invalid(detail: string): ContractError {
  return new ContractError(HOOK_PAYLOAD_INVALID, `invalid hook payload: ${detail}`);
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw invalid(`${field} must be a string`);
  return value;
}

function buildTool(event: HookEvent, tool: HookToolFields | undefined): HookPayloadOf<"PostToolUse">["tool"] {
  if (!isPlainObject(tool)) throw invalid(`${event} requires tool`);
  if (typeof tool.identity !== "string") throw invalid("tool.identity must be a string");
  if (typeof tool.name !== "string") throw invalid("tool.name must be a string");
  const source = tool.source ?? "model";
  if (source !== "model" && source !== "user_action")
    throw invalid("tool.source must be model or user_action");
  if (!isPlainObject(tool.arguments)) throw invalid("tool.arguments must be an object");
  const out: Record<string, unknown> = { identity: tool.identity, name: tool.name, source };
  const callId = optionalString(tool.tool_call_id ?? tool.toolCallId, "tool.tool_call_id");
  if (callId !== undefined) out.tool_call_id = callId;
  out.arguments = tool.arguments;
  if (tool.effects !== undefined) {
    if (!isPlainObject(tool.effects)) throw invalid("tool.effects must be an object");
    out.effects = tool.effects;
  }
  if (event !== "PreToolUse") {
    const result: unknown = tool.result;
    if (typeof result !== "object" || result === null || Array.isArray(result)) {
      throw invalid(`${event} requires tool.result`);
    }
    out.result = tool.result;
  }
  return Object.freeze(out) as HookPayloadOf<"PostToolUse">["tool"];
}

/**
 * Builds the stdin request of `event` (hooks.md §7): the envelope (`protocol_version: 2`, `event`, `cwd`,
 * optional `agent_id`/`session_id`, `turn_id` where the event has one) and the event's own fields. Fields the
 * event does not carry are left out. Throws `ContractError` (`hook_payload_invalid`) when a required field is
 * missing or mistyped. The result is frozen; arguments, effects and result are referenced, not copied.
 */
export function buildHookPayload<E extends HookEvent>(event: E, fields: HookPayloadFields): HookPayloadOf<E>;
export function buildHookPayload(event: string, fields: HookPayloadFields): HookPayload;
export function buildHookPayload(event: string, fields: HookPayloadFields): HookPayload {
  if (!isHookEvent(event)) throw invalid(`unknown event ${String(event)}`);
  if (!isPlainObject(fields)) throw invalid("fields must be an object");
  if (typeof fields.cwd !== "string") throw invalid("cwd must be a string");
  const out: Record<string, unknown> = { protocol_version: HOOK_PROTOCOL_VERSION, event, cwd: fields.cwd };
  const agentId = optionalString(fields.agent_id ?? fields.agentId, "agent_id");
  if (agentId !== undefined) out.agent_id = agentId;
  const sessionId = optionalString(fields.session_id ?? fields.sessionId, "session_id");
  if (sessionId !== undefined) out.session_id = sessionId;
  if (event !== "SessionStart" && event !== "SessionEnd") {
    const turnId = optionalString(fields.turn_id ?? fields.turnId, "turn_id");
    if (turnId !== undefined) out.turn_id = turnId;
  }
  if (event === "SessionStart") {
    const source = fields.source ?? "create";
    if (source !== "create" && source !== "resume") throw invalid("source must be create or resume");
    out.source = source;
  } else if (event === "UserPromptSubmit") {
    if (typeof fields.input !== "string" && !Array.isArray(fields.input)) {
      throw invalid("UserPromptSubmit requires input (a string or an array of content blocks)");
    }
    out.input = fields.input;
  } else if (isToolEvent(event)) {
    out.tool = buildTool(event, fields.tool);
  } else if (event === "Stop") {
    const run = fields.run;
    if (!isPlainObject(run) || typeof run.status !== "string") throw invalid("Stop requires run");
    out.run = run;
  }
  return Object.freeze(out) as HookPayload;
}
