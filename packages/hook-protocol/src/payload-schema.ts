import committed from "../schemas/payload.schema.json" with { type: "json" };
import { HOOK_EVENTS, type HookEvent } from "./events.js";

const { $schema: _dialect, $id: _id, ...union } = committed;

/** The JSON Schema of one event's request: one member of the union's `anyOf`. */
type EventPayloadSchema = (typeof union)["anyOf"][number];

for (const event of HOOK_EVENTS) {
  const schema = union.anyOf.find((member) => member.properties.event.const === event);
  if (schema === undefined) throw new Error(`schemas/payload.schema.json has no ${event} request`);
  Object.defineProperty(union, event, { value: schema, enumerable: false });
}

/**
 * The stdin request of every event (hooks.md §7) as a plain JSON Schema (2020-12) object: a union discriminated by
 * `event`, the committed `schemas/payload.schema.json` without `$schema` and `$id`, generated at build time from its
 * TypeBox source (`test/schema-source.ts`; a test fails on drift). The schema of one event is
 * `HookPayloadSchema[event]` (for example `HookPayloadSchema.PreToolUse`, the union member of that event); those
 * per-event properties are non-enumerable, so they never appear in the serialized JSON Schema or reach a validator.
 */
export const HookPayloadSchema = union as typeof union & { readonly [E in HookEvent]: EventPayloadSchema };

/** The fields every request carries (hooks.md §7.1). */
type Envelope<E extends HookEvent> = {
  /** Always the number 2. */
  protocol_version: 2;
  event: E;
  /** The session working directory; also the hook process's working directory. */
  cwd: string;
  /** The agent name, when the host has one. */
  agent_id?: string;
  /** The session ID, when the session is persisted. */
  session_id?: string;
};

/** The `turn_id` of the requests inside a run. */
type TurnId = {
  /** The run's operation ID (a panel action's operation ID). */
  turn_id?: string;
};

/** The tool result object carried by `PostToolUse` and `PostToolUseFailure` (before output capping). */
export type HookToolResult = {
  isError: boolean;
  content: Record<string, unknown>[];
  code?: string;
  truncated?: boolean;
};

/** The `tool` object of `PreToolUse` (hooks.md §7.2). */
type PreToolPayload = {
  /** The canonical identity, for example builtin/bash. */
  identity: string;
  /** The model-facing name. */
  name: string;
  /** A reader treats a missing value as "model". */
  source: "model" | "user_action";
  tool_call_id?: string;
  arguments: Record<string, unknown>;
  effects?: Record<string, unknown>;
};

/** The `tool` object of `PostToolUse` and `PostToolUseFailure`: the pre-tool fields and the result. */
type PostToolPayload = PreToolPayload & { result: HookToolResult };

/** The `run` object of a `Stop` request. */
export type HookRunStatus = {
  status: "completed" | "max_steps" | "cancelled" | "error";
  steps: number;
  text?: string;
  code?: string;
  message?: string;
};

/** The request of each event, by event name. */
type PayloadByEvent = {
  SessionStart: Envelope<"SessionStart"> & { source: "create" | "resume" };
  UserPromptSubmit: Envelope<"UserPromptSubmit"> &
    TurnId & {
      /** The user input exactly as submitted. */
      input: string | Record<string, unknown>[];
    };
  PreToolUse: Envelope<"PreToolUse"> & TurnId & { tool: PreToolPayload };
  PostToolUse: Envelope<"PostToolUse"> & TurnId & { tool: PostToolPayload };
  PostToolUseFailure: Envelope<"PostToolUseFailure"> & TurnId & { tool: PostToolPayload };
  Stop: Envelope<"Stop"> & TurnId & { run: HookRunStatus };
  SessionEnd: Envelope<"SessionEnd">;
};

/** The stdin request of `event`. */
export type HookPayloadOf<E extends HookEvent> = PayloadByEvent[E];

/** The stdin request of any event. */
export type HookPayload = PayloadByEvent[HookEvent];

/** The `tool` object of a tool event's request (hooks.md §7.2). */
export type HookToolPayload = PostToolPayload | PreToolPayload;
