import Type, { type Static } from "typebox";
import { HOOK_PROTOCOL_VERSION } from "./limits.js";

const JsonObject = Type.Unsafe<Record<string, unknown>>({ type: "object" });

function envelope<E extends string>(event: E) {
  return {
    protocol_version: Type.Literal(HOOK_PROTOCOL_VERSION, { description: "Always the number 2." }),
    event: Type.Literal(event),
    cwd: Type.String({
      description: "The session working directory; also the hook process's working directory.",
    }),
    agent_id: Type.Optional(Type.String({ description: "The agent name, when the host has one." })),
    session_id: Type.Optional(Type.String({ description: "The session ID, when the session is persisted." })),
  };
}

const turnId = {
  turn_id: Type.Optional(
    Type.String({ description: "The run's operation ID (a panel action's operation ID)." }),
  ),
};

/** The tool result object carried by `PostToolUse` and `PostToolUseFailure` (before output capping). */
export const HookToolResultSchema = Type.Object(
  {
    isError: Type.Boolean(),
    content: Type.Array(JsonObject),
    code: Type.Optional(Type.String()),
    truncated: Type.Optional(Type.Boolean()),
  },
  { description: "The tool result, panel blocks removed, before output capping. Other fields may appear." },
);

function toolSchema<R extends boolean>(withResult: R) {
  const base = {
    identity: Type.String({ description: "The canonical identity, for example builtin/bash." }),
    name: Type.String({ description: "The model-facing name." }),
    source: Type.Union([Type.Literal("model"), Type.Literal("user_action")], {
      description: 'A reader treats a missing value as "model".',
    }),
    tool_call_id: Type.Optional(Type.String()),
    arguments: JsonObject,
    effects: Type.Optional(JsonObject),
  };
  return withResult
    ? Type.Object({ ...base, result: HookToolResultSchema }, { additionalProperties: false })
    : Type.Object(base, { additionalProperties: false });
}

const ContentBlock = JsonObject;

/** Request of `SessionStart`. */
const SessionStartPayloadSchema = Type.Object(
  {
    ...envelope("SessionStart"),
    source: Type.Union([Type.Literal("create"), Type.Literal("resume")]),
  },
  { additionalProperties: false, title: "raw.hook/2 SessionStart request" },
);

/** Request of `UserPromptSubmit`. */
const UserPromptSubmitPayloadSchema = Type.Object(
  {
    ...envelope("UserPromptSubmit"),
    ...turnId,
    input: Type.Union([Type.String(), Type.Array(ContentBlock)], {
      description: "The user input exactly as submitted.",
    }),
  },
  { additionalProperties: false, title: "raw.hook/2 UserPromptSubmit request" },
);

/** Request of `PreToolUse`. */
const PreToolUsePayloadSchema = Type.Object(
  { ...envelope("PreToolUse"), ...turnId, tool: toolSchema(false) },
  { additionalProperties: false, title: "raw.hook/2 PreToolUse request" },
);

/** Request of `PostToolUse`. */
const PostToolUsePayloadSchema = Type.Object(
  { ...envelope("PostToolUse"), ...turnId, tool: toolSchema(true) },
  { additionalProperties: false, title: "raw.hook/2 PostToolUse request" },
);

/** Request of `PostToolUseFailure`. */
const PostToolUseFailurePayloadSchema = Type.Object(
  { ...envelope("PostToolUseFailure"), ...turnId, tool: toolSchema(true) },
  { additionalProperties: false, title: "raw.hook/2 PostToolUseFailure request" },
);

/** The `run` object of `Stop`. */
export const HookRunStatusSchema = Type.Object(
  {
    status: Type.Union([
      Type.Literal("completed"),
      Type.Literal("max_steps"),
      Type.Literal("cancelled"),
      Type.Literal("error"),
    ]),
    steps: Type.Integer({ minimum: 0 }),
    text: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** Request of `Stop`. */
const StopPayloadSchema = Type.Object(
  { ...envelope("Stop"), ...turnId, run: HookRunStatusSchema },
  { additionalProperties: false, title: "raw.hook/2 Stop request" },
);

/** Request of `SessionEnd`. */
const SessionEndPayloadSchema = Type.Object(envelope("SessionEnd"), {
  additionalProperties: false,
  title: "raw.hook/2 SessionEnd request",
});

const perEvent = {
  SessionStart: SessionStartPayloadSchema,
  UserPromptSubmit: UserPromptSubmitPayloadSchema,
  PreToolUse: PreToolUsePayloadSchema,
  PostToolUse: PostToolUsePayloadSchema,
  PostToolUseFailure: PostToolUseFailurePayloadSchema,
  Stop: StopPayloadSchema,
  SessionEnd: SessionEndPayloadSchema,
} as const;

const union = Type.Union(
  [
    SessionStartPayloadSchema,
    UserPromptSubmitPayloadSchema,
    PreToolUsePayloadSchema,
    PostToolUsePayloadSchema,
    PostToolUseFailurePayloadSchema,
    StopPayloadSchema,
    SessionEndPayloadSchema,
  ],
  { title: "raw.hook/2 request", description: "The one-line JSON request written to a hook's stdin." },
);
for (const [event, schema] of Object.entries(perEvent)) {
  Object.defineProperty(union, event, { value: schema, enumerable: false });
}

/**
 * The stdin request of every event (hooks.md §7): a union discriminated by `event`. The schema of one event is
 * `HookPayloadSchema[event]` (for example `HookPayloadSchema.PreToolUse`); those per-event properties are
 * non-enumerable, so they never appear in the serialized JSON Schema or reach a validator.
 */
export const HookPayloadSchema = union as typeof union & {
  readonly [E in keyof typeof perEvent]: (typeof perEvent)[E];
};

/** The stdin request of any event. */
export type HookPayload = Static<typeof union>;

/** The stdin request of `event`. */
export type HookPayloadOf<E extends keyof typeof perEvent> = Static<(typeof perEvent)[E]>;

/** The `tool` object of a tool event's request (hooks.md §7.2). */
export type HookToolPayload = HookPayloadOf<"PostToolUse">["tool"] | HookPayloadOf<"PreToolUse">["tool"];

/** The tool result object of a post-tool request. */
export type HookToolResult = Static<typeof HookToolResultSchema>;

/** The `run` object of a `Stop` request. */
export type HookRunStatus = Static<typeof HookRunStatusSchema>;
