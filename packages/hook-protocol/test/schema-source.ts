import { MAX_GLOB_BYTES, type PredicateJson, PredicateSchema } from "@raw/predicate";
import Type, { type Static } from "typebox";
import { HOOK_EVENTS, type HookEvent, TOOL_EVENTS, type ToolEvent } from "../src/events.js";
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_NAME_PATTERN,
  HOOK_PROTOCOL_VERSION,
  MAX_HOOK_ARG_BYTES,
  MAX_HOOK_ARGS,
  MAX_HOOK_COMMAND_BYTES,
  MAX_HOOK_EVENTS,
  MAX_HOOK_MESSAGE_BYTES,
  MAX_HOOK_NAME_BYTES,
  MAX_HOOK_REASON_BYTES,
  MAX_HOOK_TIMEOUT_MS,
} from "../src/limits.js";

// The TypeBox sources of the committed JSON Schemas (hook.json, the stdin requests, the stdout response). They are
// used at build time only: test/schemas.test.ts writes schemas/*.schema.json from them (`npm run schemas`) and fails
// when a committed file drifts; the package ships and exports the JSON, never TypeBox.

/** The predicate schema of `@raw/predicate` (plain JSON Schema) as a TypeBox schema of its plain type. */
const PredicateSource = Type.Unsafe<PredicateJson>(PredicateSchema);

const toolEvents = new Set<string>(TOOL_EVENTS);
/** A union of literal event names whose static type is the union of those names (`Static` keeps it, not `never`). */
const literals = <Event extends string>(events: readonly Event[]) =>
  Type.Unsafe<Event>(Type.Union(events.map((event) => Type.Literal(event))));

const ToolSubscription = Type.Object(
  {
    name: literals(TOOL_EVENTS),
    match: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_GLOB_BYTES,
        pattern: "\\S",
        description:
          "Identity glob: * any sequence, ? one character, everything else literal; whole identity.",
      }),
    ),
    when: Type.Optional(PredicateSource),
  },
  { additionalProperties: false },
);

const OtherSubscription = Type.Object(
  {
    name: literals(
      HOOK_EVENTS.filter((event): event is Exclude<HookEvent, ToolEvent> => !toolEvents.has(event)),
    ),
  },
  { additionalProperties: false },
);

/**
 * `hook.json` (hooks.md §3) as a TypeBox schema, for editors and documentation. Byte limits are given in the
 * descriptions (the schema's `maxLength` counts characters); `parseHookManifest` is the authority.
 */
export const HookManifestSchemaSource = Type.Object(
  {
    $schema: Type.Optional(
      Type.String({
        description: "Editor hint (amendment A9): the URL of this schema; accepted and ignored.",
      }),
    ),
    protocol_version: Type.Literal(HOOK_PROTOCOL_VERSION, { description: "The JSON number 2 (raw.hook/2)." }),
    name: Type.String({
      minLength: 1,
      maxLength: MAX_HOOK_NAME_BYTES,
      pattern: HOOK_NAME_PATTERN.source,
      description: "The hook name; equals the folder name.",
    }),
    events: Type.Array(Type.Union([ToolSubscription, OtherSubscription]), {
      minItems: 1,
      maxItems: MAX_HOOK_EVENTS,
      description: "Event subscriptions; match/when only on PreToolUse, PostToolUse and PostToolUseFailure.",
    }),
    command: Type.String({
      minLength: 1,
      maxLength: MAX_HOOK_COMMAND_BYTES,
      description: `A bare command looked up on PATH, or ./file inside the hook folder; at most ${MAX_HOOK_COMMAND_BYTES} UTF-8 bytes.`,
    }),
    args: Type.Optional(
      Type.Array(
        Type.String({
          maxLength: MAX_HOOK_ARG_BYTES,
          description: `At most ${MAX_HOOK_ARG_BYTES} UTF-8 bytes; ./ paths name files inside the folder.`,
        }),
        { maxItems: MAX_HOOK_ARGS, default: [] },
      ),
    ),
    timeout_ms: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_HOOK_TIMEOUT_MS, default: DEFAULT_HOOK_TIMEOUT_MS }),
    ),
  },
  { additionalProperties: false, title: "raw.hook/2 hook manifest (hook.json)" },
);

/**
 * The JSON object a hook may print on stdout (hooks.md §8.1). `decision` is allowed only on gates; byte limits are
 * in the descriptions (`maxLength` counts characters); `parseHookResponse` is the authority.
 */
export const HookResponseSchemaSource = Type.Object(
  {
    decision: Type.Optional(
      Type.Union([Type.Literal("continue"), Type.Literal("deny")], {
        description: "Gates only (UserPromptSubmit, PreToolUse).",
      }),
    ),
    reason: Type.Optional(
      Type.String({
        maxLength: MAX_HOOK_REASON_BYTES,
        description: `At most ${MAX_HOOK_REASON_BYTES} UTF-8 bytes; used only for a denial.`,
      }),
    ),
    message: Type.Optional(
      Type.String({
        maxLength: MAX_HOOK_MESSAGE_BYTES,
        description: `At most ${MAX_HOOK_MESSAGE_BYTES} UTF-8 bytes; a non-empty message appears in the receipt.`,
      }),
    ),
  },
  { additionalProperties: false, title: "raw.hook/2 hook response (stdout)" },
);

/** The stdout object of a hook. */
export type HookResponseJsonSource = Static<typeof HookResponseSchemaSource>;

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
const HookToolResultSchema = Type.Object(
  {
    isError: Type.Boolean(),
    content: Type.Array(JsonObject),
    code: Type.Optional(Type.String()),
    truncated: Type.Optional(Type.Boolean()),
  },
  { description: "The tool result, panel blocks removed, before output capping. Other fields may appear." },
);

// The `tool` object of each tool event, one function per shape: a single function choosing the shape by a boolean
// was typed as the union of both, so the static type of a post-tool request had no required `result`.
const toolBase = {
  identity: Type.String({ description: "The canonical identity, for example builtin/bash." }),
  name: Type.String({ description: "The model-facing name." }),
  source: Type.Union([Type.Literal("model"), Type.Literal("user_action")], {
    description: 'A reader treats a missing value as "model".',
  }),
  tool_call_id: Type.Optional(Type.String()),
  arguments: JsonObject,
  effects: Type.Optional(JsonObject),
};

function preToolSchema() {
  return Type.Object(toolBase, { additionalProperties: false });
}

function postToolSchema() {
  return Type.Object({ ...toolBase, result: HookToolResultSchema }, { additionalProperties: false });
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
  { ...envelope("PreToolUse"), ...turnId, tool: preToolSchema() },
  { additionalProperties: false, title: "raw.hook/2 PreToolUse request" },
);

/** Request of `PostToolUse`. */
const PostToolUsePayloadSchema = Type.Object(
  { ...envelope("PostToolUse"), ...turnId, tool: postToolSchema() },
  { additionalProperties: false, title: "raw.hook/2 PostToolUse request" },
);

/** Request of `PostToolUseFailure`. */
const PostToolUseFailurePayloadSchema = Type.Object(
  { ...envelope("PostToolUseFailure"), ...turnId, tool: postToolSchema() },
  { additionalProperties: false, title: "raw.hook/2 PostToolUseFailure request" },
);

/** The `run` object of `Stop`. */
const HookRunStatusSchema = Type.Object(
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
export const HookPayloadSchemaSource = union as typeof union & {
  readonly [E in keyof typeof perEvent]: (typeof perEvent)[E];
};

/** The stdin request of any event. */
export type HookPayloadSource = Static<typeof union>;

/** The stdin request of `event`. */
export type HookPayloadOfSource<E extends keyof typeof perEvent> = Static<(typeof perEvent)[E]>;

/** The `tool` object of a tool event's request (hooks.md §7.2). */
export type HookToolPayloadSource =
  | HookPayloadOfSource<"PostToolUse">["tool"]
  | HookPayloadOfSource<"PreToolUse">["tool"];

/** The tool result object of a post-tool request. */
export type HookToolResultSource = Static<typeof HookToolResultSchema>;

/** The `run` object of a `Stop` request. */
export type HookRunStatusSource = Static<typeof HookRunStatusSchema>;
