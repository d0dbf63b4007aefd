import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { safeParse } from "zod/v4-mini";

/** The outcome of `checkCallToolResult`: the result as the SDK's schema outputs it, or the schema's error. */
export type CallToolResultCheck = { ok: true; result: CallToolResult } | { ok: false; error: Error };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** `{ type: "text", text }` with exactly these keys in this order: what `TextContentSchema` outputs unchanged. */
function isPlainTextBlock(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === 2 &&
    keys[0] === "type" &&
    keys[1] === "text" &&
    value.type === "text" &&
    typeof value.text === "string"
  );
}

/**
 * The common result `{ content: [text blocks], isError? }`, keys in the order `CallToolResultSchema` writes them:
 * the schema accepts it and outputs an equal object, so it needs no schema run. Anything else (images, resources,
 * structured content, `_meta`, other keys, another key order) is not "plain" and goes through the schema.
 */
function isPlainTextResult(value: unknown): value is CallToolResult {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  if (keys[0] !== "content" || keys.length > 2) return false;
  if (keys.length === 2 && (keys[1] !== "isError" || typeof value.isError !== "boolean")) return false;
  const content = value.content;
  if (!Array.isArray(content)) return false;
  for (let i = 0; i < content.length; i++) if (!isPlainTextBlock(content[i])) return false;
  return true;
}

/**
 * Checks a `tools/call` result against the SDK's `CallToolResultSchema` with the outcome the SDK's own check has
 * (the same accepted set, the same output, the same error), parsing with the schema only when the result is not a
 * plain text result (the common case of a tool call, accepted and output unchanged by the schema). Used in both
 * directions of the proxy instead of the SDK's built-in check, which parses every result with the whole schema.
 */
export function checkCallToolResult(value: unknown): CallToolResultCheck {
  if (isPlainTextResult(value)) return { ok: true, result: value };
  // The SDK's own parse (zod-compat), so that the output and the error message are exactly the SDK's.
  const parsed = safeParse(CallToolResultSchema, value);
  return parsed.success ? { ok: true, result: parsed.data } : { ok: false, error: parsed.error };
}
