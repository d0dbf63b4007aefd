import { randomUUID, timingSafeEqual } from "node:crypto";
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { MCP_CODES, mcpError } from "./codes.js";
import type { RawMcpServer } from "./server.js";

/** The path the Streamable HTTP endpoint is served on. */
export const MCP_HTTP_PATH = "/mcp";

/** Most concurrent Streamable HTTP sessions; a new session past it gets 503. */
export const MAX_MCP_HTTP_SESSIONS = 64;

/** Options of `listenMcpHttp`. */
export interface ListenMcpHttpOptions {
  /** Address to bind (default `127.0.0.1`). Any non-loopback address requires `token`. */
  host?: string | undefined;
  /** Port (default 0: any free port). */
  port?: number | undefined;
  /** Bearer token every request must carry (`Authorization: Bearer <token>`). Required off loopback. */
  token?: string | undefined;
}

/** A listening Streamable HTTP endpoint. */
export interface McpHttpListener {
  /** The endpoint URL, for example `http://127.0.0.1:4312/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and closes every session. */
  close(): Promise<void>;
}

/** True for an address that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function tokenMatches(header: string | undefined, token: string): boolean {
  if (header === undefined || !header.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function reject(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/**
 * Serves `server` over Streamable HTTP (one MCP session per client, `Mcp-Session-Id`). Binds to loopback by
 * default, with DNS-rebinding protection (only loopback `Host` headers); binding anywhere else requires a bearer
 * token (`mcp_token_required` otherwise), checked in constant time on every request.
 */
export async function listenMcpHttp(
  server: RawMcpServer,
  options: ListenMcpHttpOptions = {},
): Promise<McpHttpListener> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token;
  const loopback = isLoopbackHost(host);
  if (!loopback && (token === undefined || token.length < 16)) {
    throw mcpError(
      MCP_CODES.tokenRequired,
      `binding MCP over HTTP to ${host} (not loopback) requires a bearer token of at least 16 characters`,
    );
  }
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = options.port ?? 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== MCP_HTTP_PATH) return reject(res, 404, "not found");
    if (token !== undefined && !tokenMatches(req.headers.authorization, token)) {
      res.setHeader("www-authenticate", "Bearer");
      return reject(res, 401, "unauthorized");
    }
    if (loopback) {
      const hostHeader = String(req.headers.host ?? "").replace(/:\d+$/, "");
      if (!isLoopbackHost(hostHeader)) return reject(res, 403, "forbidden host");
    }
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) return existing.handleRequest(req, res);
    if (typeof sessionId === "string") return reject(res, 404, "unknown session");
    if (req.method !== "POST") return reject(res, 400, "no session");
    if (sessions.size >= MAX_MCP_HTTP_SESSIONS) return reject(res, 503, "too many sessions");
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) reject(res, 500, "internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, rejectListen) => {
    http.once("error", rejectListen);
    http.listen(port, host, () => {
      http.off("error", rejectListen);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${MCP_HTTP_PATH}`,
    port,
    async close(): Promise<void> {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
