import type { IncomingMessage } from "node:http";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { bearerMatches } from "./http-token.js";

/** Largest body of a request that opens a Streamable HTTP session (bytes, as the SDK's default); larger is 413. */
export const MCP_HTTP_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The HTTP methods of the Streamable HTTP endpoint; any other is 405. */
export const MCP_HTTP_METHODS = Object.freeze(["GET", "POST", "DELETE"] as const);

/** The stable code of a refused Streamable HTTP request, in `error.data.code` of its JSON-RPC error body. */
export type McpHttpRefusalCode =
  | "not_found"
  | "token_required"
  | "host_refused"
  | "origin_refused"
  | "method_not_allowed"
  | "session_required"
  | "unknown_session"
  | "too_many_sessions"
  | "not_acceptable"
  | "json_required"
  | "body_too_large"
  | "invalid_json"
  | "initialize_required"
  | "protocol_version_mismatch"
  | "too_many_requests";

/** Why a request was refused: its HTTP status, stable code, a message naming the header or field, extra headers. */
export interface McpHttpRefusal {
  readonly status: 400 | 401 | 403 | 404 | 405 | 406 | 413 | 415 | 503;
  readonly code: McpHttpRefusalCode;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What every request is checked against. */
export interface McpHttpAdmission {
  /** The path of the endpoint. */
  readonly path: string;
  /** The bearer token every request carries. */
  readonly token: string;
  /** True when the listener is bound to loopback: the `Host` header must then name a loopback address. */
  readonly loopback: boolean;
}

/** The JSON-RPC error code of a refusal body. */
function rpcCode(code: McpHttpRefusalCode): number {
  if (code === "invalid_json") return -32700;
  if (code === "initialize_required" || code === "protocol_version_mismatch") return -32600;
  return -32000;
}

/** The body of a refused request: a JSON-RPC error whose `data.code` is the refusal's code. */
export function refusalBody(refusal: McpHttpRefusal): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    error: { code: rpcCode(refusal.code), message: refusal.message, data: { code: refusal.code } },
    id: null,
  });
}

/** `host[:port]` of a `Host` header without the port, brackets kept off an IPv6 address. */
function hostName(header: string): string {
  return header.replace(/:\d+$/u, "").replace(/^\[|\]$/gu, "");
}

/** True for an address that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/gu, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/u.test(h);
}

/**
 * The checks every request passes before anything is created for it, in this order: the path, the bearer token
 * (constant time), the `Host` header on loopback (no DNS rebinding), the `Origin` and `Sec-Fetch-Site` headers (a
 * browser request from another site), the method. Reads nothing of the body.
 */
export function checkRequestHeaders(
  req: IncomingMessage,
  admission: McpHttpAdmission,
): McpHttpRefusal | undefined {
  const path = (req.url ?? "").split("?")[0];
  if (path !== admission.path) {
    return { status: 404, code: "not_found", message: `the endpoint is ${admission.path}` };
  }
  if (!bearerMatches(req.headers.authorization, admission.token)) {
    return {
      status: 401,
      code: "token_required",
      message: "the Authorization header must be `Bearer <token>` with this server's token",
      headers: { "www-authenticate": "Bearer" },
    };
  }
  const host = typeof req.headers.host === "string" ? req.headers.host.toLowerCase() : "";
  if (admission.loopback && !isLoopbackHost(hostName(host))) {
    return { status: 403, code: "host_refused", message: "the Host header must name a loopback address" };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) {
    return { status: 403, code: "origin_refused", message: "the Origin header names another site" };
  }
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return { status: 403, code: "origin_refused", message: "the Sec-Fetch-Site header says another site" };
  }
  if (!(MCP_HTTP_METHODS as readonly string[]).includes(req.method ?? "")) {
    return {
      status: 405,
      code: "method_not_allowed",
      message: `the method must be one of ${MCP_HTTP_METHODS.join(", ")}`,
      headers: { allow: MCP_HTTP_METHODS.join(", ") },
    };
  }
  return undefined;
}

/** The body, or `undefined` once it passes `max` bytes (what is left of it is read and dropped, never kept). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > max) {
        over = true;
        chunks = [];
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.once("error", reject);
  });
}

/** The `_meta` key of a 2026-07-28 request's protocol version. */
const META_VERSION = "io.modelcontextprotocol/protocolVersion";

/** The revision whose requests are served without a session over HTTP (amendment A11). */
const MODERN_REVISION = "2026-07-28";

/** A 2026-07-28 JSON-RPC request or notification: one object whose `params._meta` names that revision. */
function isModernMessage(body: unknown): body is { id?: string | number; method: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const message = body as Record<string, unknown>;
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string") return false;
  if ("id" in message && typeof message.id !== "string" && !Number.isSafeInteger(message.id)) return false;
  const params = message.params;
  if (typeof params !== "object" || params === null || Array.isArray(params)) return false;
  const meta = (params as Record<string, unknown>)._meta;
  return (
    typeof meta === "object" &&
    meta !== null &&
    (meta as Record<string, unknown>)[META_VERSION] === MODERN_REVISION
  );
}

/** What a `POST` without `Mcp-Session-Id` holds once admitted. */
export type SessionlessRequest =
  /** A 2025-11-25 `initialize`: it opens a session. */
  | { readonly ok: true; readonly kind: "initialize"; readonly body: unknown }
  /** A 2026-07-28 request (`id`) or notification: answered on its own, no session. */
  | {
      readonly ok: true;
      readonly kind: "modern";
      readonly body: { id?: string | number; method: string; [key: string]: unknown };
    }
  | { readonly ok: false; readonly refusal: McpHttpRefusal };

/**
 * The checks of a `POST` without `Mcp-Session-Id`, made before any MCP object exists: `Accept` lists
 * `application/json` and `text/event-stream`, `Content-Type` is `application/json`, the body is at most
 * `MCP_HTTP_MAX_BODY_BYTES` and is one JSON-RPC `initialize` request (it opens a session) or one 2026-07-28 message
 * (its revision in `params._meta`, and an `MCP-Protocol-Version` header, when sent, naming the same). Gives the
 * parsed body.
 */
export async function readSessionlessRequest(req: IncomingMessage): Promise<SessionlessRequest> {
  const accept = req.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
    return {
      ok: false,
      refusal: {
        status: 406,
        code: "not_acceptable",
        message: "the Accept header must list application/json and text/event-stream",
      },
    };
  }
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json(\s*;|$)/iu.test(type)) {
    return {
      ok: false,
      refusal: {
        status: 415,
        code: "json_required",
        message: "the Content-Type header must be application/json",
      },
    };
  }
  const bytes = await readBody(req, MCP_HTTP_MAX_BODY_BYTES);
  if (bytes === undefined) {
    return {
      ok: false,
      refusal: {
        status: 413,
        code: "body_too_large",
        message: `the body is larger than ${MCP_HTTP_MAX_BODY_BYTES} bytes`,
      },
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString("utf8"));
  } catch {
    return { ok: false, refusal: { status: 400, code: "invalid_json", message: "the body is not JSON" } };
  }
  if (isModernMessage(body)) {
    const header = req.headers["mcp-protocol-version"];
    if (header !== undefined && header !== MODERN_REVISION) {
      return {
        ok: false,
        refusal: {
          status: 400,
          code: "protocol_version_mismatch",
          message: `the MCP-Protocol-Version header must name the revision of the body's _meta (${MODERN_REVISION})`,
        },
      };
    }
    return { ok: true, kind: "modern", body };
  }
  if (!isInitializeRequest(body)) {
    return {
      ok: false,
      refusal: {
        status: 400,
        code: "initialize_required",
        message:
          "a request without the Mcp-Session-Id header must be one JSON-RPC initialize request, or one 2026-07-28 request (its revision in params._meta)",
      },
    };
  }
  return { ok: true, kind: "initialize", body };
}
