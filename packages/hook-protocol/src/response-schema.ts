import Type, { type Static } from "typebox";
import { MAX_HOOK_MESSAGE_BYTES, MAX_HOOK_REASON_BYTES } from "./limits.js";

/**
 * The JSON object a hook may print on stdout (hooks.md §8.1). `decision` is allowed only on gates; byte limits are
 * in the descriptions (`maxLength` counts characters); `parseHookResponse` is the authority.
 */
export const HookResponseSchema = Type.Object(
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
export type HookResponseJson = Static<typeof HookResponseSchema>;
