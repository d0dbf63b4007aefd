import committed from "../schemas/response.schema.json" with { type: "json" };

const { $schema: _dialect, $id: _id, ...schema } = committed;

/**
 * The JSON object a hook may print on stdout (hooks.md §8.1) as a plain JSON Schema (2020-12) object: the committed
 * `schemas/response.schema.json` without `$schema` and `$id`, generated at build time from its TypeBox source
 * (`test/schema-source.ts`; a test fails on drift). `decision` is allowed only on gates; byte limits are in the
 * descriptions (`maxLength` counts characters); `parseHookResponse` is the authority.
 */
export const HookResponseSchema = schema;

/** The stdout object of a hook. */
export type HookResponseJson = {
  /** Gates only (UserPromptSubmit, PreToolUse). */
  decision?: "continue" | "deny";
  /** Used only for a denial; at most `MAX_HOOK_REASON_BYTES` UTF-8 bytes. */
  reason?: string;
  /** A non-empty message appears in the receipt; at most `MAX_HOOK_MESSAGE_BYTES` UTF-8 bytes. */
  message?: string;
};
