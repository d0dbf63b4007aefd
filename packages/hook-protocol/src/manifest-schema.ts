import { MAX_GLOB_BYTES, PredicateSchema } from "@raw/predicate";
import Type from "typebox";
import { HOOK_EVENTS, TOOL_EVENTS } from "./events.js";
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_NAME_PATTERN,
  HOOK_PROTOCOL_VERSION,
  MAX_HOOK_ARG_BYTES,
  MAX_HOOK_ARGS,
  MAX_HOOK_COMMAND_BYTES,
  MAX_HOOK_EVENTS,
  MAX_HOOK_NAME_BYTES,
  MAX_HOOK_TIMEOUT_MS,
} from "./limits.js";

const toolEvents = new Set<string>(TOOL_EVENTS);
const literals = (events: readonly string[]) => Type.Union(events.map((event) => Type.Literal(event)));

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
    when: Type.Optional(PredicateSchema),
  },
  { additionalProperties: false },
);

const OtherSubscription = Type.Object(
  { name: literals(HOOK_EVENTS.filter((event) => !toolEvents.has(event))) },
  { additionalProperties: false },
);

/**
 * `hook.json` (hooks.md §3) as a TypeBox schema, for editors and documentation. Byte limits are given in the
 * descriptions (the schema's `maxLength` counts characters); `parseHookManifest` is the authority.
 */
export const HookManifestSchema = Type.Object(
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
