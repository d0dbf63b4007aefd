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
  if (!isPlainRecordWithoutMeta(result)) return undefined;
  return { jsonrpc: "2.0", id: id as string | number, result: { ...result } };
}

/**
 * A request `{ jsonrpc: "2.0", id, method, params? }` (keys in any order) whose params, when given, are plain
 * (`plainParams`): what a client sends for almost every call. `JSONRPCRequestSchema` accepts exactly such a
 * value with a string or safe-integer id and a string method, and outputs it as `{ jsonrpc, id, method, params? }`
 * with a shallow copy of the params (a loose object), which is what this returns.
 */
function plainRequest(value: Record<string, unknown>): JSONRPCMessage | undefined {
  const keys = Object.keys(value);
  const hasParams = "params" in value;
  if (keys.length !== (hasParams ? 4 : 3) || value.jsonrpc !== "2.0" || !("id" in value)) return undefined;
  const { id, method, params } = value;
  if (typeof method !== "string" || (typeof id !== "string" && !Number.isSafeInteger(id))) return undefined;
  if (!hasParams) return { jsonrpc: "2.0", id: id as string | number, method };
  const copied = plainParams(params);
  if (copied === undefined) return undefined;
  return { jsonrpc: "2.0", id: id as string | number, method, params: copied };
}

/** The `_meta` keys whose values `RequestMetaSchema` checks (the others pass as they are). */
const CHECKED_META_KEYS = ["progressToken", "io.modelcontextprotocol/related-task"] as const;

/**
 * A request's params as `JSONRPCRequestSchema` outputs them, when no check of it can fail: a plain object without
 * `_meta` (a shallow copy, keys in order), or one whose `_meta` is a plain object holding neither key that
 * `RequestMetaSchema` checks (a 2026-07-28 envelope): the schema's shape key `_meta` first, as a shallow copy, then
 * the other keys in order. Anything else goes through the schema.
 */
function plainParams(params: unknown): Record<string, unknown> | undefined {
  if (isPlainRecordWithoutMeta(params)) return { ...params };
  if (!isPlainRecord(params) || Object.hasOwn(params, "__proto__")) return undefined;
  const meta = params._meta;
  if (!isPlainRecord(meta) || Object.hasOwn(meta, "__proto__")) return undefined;
  for (const key of CHECKED_META_KEYS) if (key in meta) return undefined;
  const out: Record<string, unknown> = { _meta: { ...meta } };
  for (const key of Object.keys(params)) if (key !== "_meta") out[key] = params[key];
  return out;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * A plain object without `_meta` (whose schema these fast paths do not replay) and without an own `__proto__` key
 * (the schemas' copies assign keys, so such a key does not survive them).
 */
function isPlainRecordWithoutMeta(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !("_meta" in value) &&
    !Object.hasOwn(value, "__proto__")
  );
}

/**
 * Checks a decoded JSON value against the SDK's `JSONRPCMessageSchema`, with the same outcome and the same parsed
 * message as `JSONRPCMessageSchema.safeParse`, at the cost of one member instead of the whole union. The members
 * are strict objects told apart by their keys (a request has `method` and `id`, a notification `method` and no
 * `id`, a result response `result` and no `method`, an error response `error` and neither), so at most one can
 * accept a value, and it is the one its keys name: when that member accepts, the union returns its output; when it
 * does not, the union decides (and fails). A plain request or result response (`plainRequest`, `plainResultResponse`) needs no schema run.
 */
export function parseJsonRpcMessage(value: unknown): JsonRpcMessageParse {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const plain = "method" in record ? plainRequest(record) : plainResultResponse(record);
    if (plain !== undefined) return { ok: true, message: plain };
    const member = memberFor(value as Record<string, unknown>).safeParse(value);
    if (member.success) return { ok: true, message: member.data as JSONRPCMessage };
  }
  const union = JSONRPCMessageSchema.safeParse(value);
  return union.success ? { ok: true, message: union.data } : { ok: false };
}
