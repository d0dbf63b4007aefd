import {
  JSONRPCErrorResponseSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** The outcome of `parseJsonRpcMessage`: the SDK's parsed message, or `ok: false` for a value that is none. */
export type JsonRpcMessageParse = { ok: true; message: JSONRPCMessage } | { ok: false };

/** The one member of the SDK's `JSONRPCMessageSchema` union that a value's keys leave possible. */
function memberFor(value: Record<string, unknown>) {
  if ("method" in value) return "id" in value ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
  if ("result" in value) return JSONRPCResultResponseSchema;
  return JSONRPCErrorResponseSchema;
}

/**
 * Checks a decoded JSON value against the SDK's `JSONRPCMessageSchema`, with the same outcome and the same parsed
 * message as `JSONRPCMessageSchema.safeParse`, at the cost of one member instead of the whole union. The members
 * are strict objects told apart by their keys (a request has `method` and `id`, a notification `method` and no
 * `id`, a result response `result` and no `method`, an error response `error` and neither), so at most one can
 * accept a value, and it is the one its keys name: when that member accepts, the union returns its output; when it
 * does not, the union decides (and fails).
 */
export function parseJsonRpcMessage(value: unknown): JsonRpcMessageParse {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const member = memberFor(value as Record<string, unknown>).safeParse(value);
    if (member.success) return { ok: true, message: member.data as JSONRPCMessage };
  }
  const union = JSONRPCMessageSchema.safeParse(value);
  return union.success ? { ok: true, message: union.data } : { ok: false };
}
