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
 * A result response `{ jsonrpc: "2.0", id, result }` (keys in any order) whose result is a plain object without
 * `_meta`: what a server answers to almost every request. `JSONRPCResultResponseSchema` accepts exactly such a
 * value with a string or safe-integer id, and outputs it as `{ jsonrpc, id, result }` with a shallow copy of the
 * result (a loose object keeps its keys, in order, and their values as they are), which is what this returns.
 */
function plainResultResponse(value: Record<string, unknown>): JSONRPCMessage | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 3 || value.jsonrpc !== "2.0" || !("id" in value) || !("result" in value))
    return undefined;
  const { id, result } = value;
  if (typeof id !== "string" && !Number.isSafeInteger(id)) return undefined;
  if (typeof result !== "object" || result === null || Object.getPrototypeOf(result) !== Object.prototype)
    return undefined;
  // The schema's copy assigns keys, so an own `__proto__` key does not survive it: leave that to the schema.
  if ("_meta" in result || Object.hasOwn(result, "__proto__")) return undefined;
  return { jsonrpc: "2.0", id: id as string | number, result: { ...(result as Record<string, unknown>) } };
}

/**
 * Checks a decoded JSON value against the SDK's `JSONRPCMessageSchema`, with the same outcome and the same parsed
 * message as `JSONRPCMessageSchema.safeParse`, at the cost of one member instead of the whole union. The members
 * are strict objects told apart by their keys (a request has `method` and `id`, a notification `method` and no
 * `id`, a result response `result` and no `method`, an error response `error` and neither), so at most one can
 * accept a value, and it is the one its keys name: when that member accepts, the union returns its output; when it
 * does not, the union decides (and fails). A plain result response (`plainResultResponse`) needs no schema run.
 */
export function parseJsonRpcMessage(value: unknown): JsonRpcMessageParse {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const plain = plainResultResponse(value as Record<string, unknown>);
    if (plain !== undefined) return { ok: true, message: plain };
    const member = memberFor(value as Record<string, unknown>).safeParse(value);
    if (member.success) return { ok: true, message: member.data as JSONRPCMessage };
  }
  const union = JSONRPCMessageSchema.safeParse(value);
  return union.success ? { ok: true, message: union.data } : { ok: false };
}
