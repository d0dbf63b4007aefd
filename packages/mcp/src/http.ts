import { randomUUID } from "node:crypto";
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { MCP_CODES, mcpError } from "./codes.js";
import {
  checkRequestHeaders,
  isLoopbackHost,
  type McpHttpRefusal,
  readSessionlessRequest,
  refusalBody,
} from "./http-admission.js";
import {
  MAX_MCP_HTTP_STATELESS_REQUESTS,
  StatelessChannel,
  type StatelessMessage,
} from "./http-stateless.js";
import { createMcpHttpToken, MIN_MCP_HTTP_TOKEN_CHARS } from "./http-token.js";
import type { RawMcpServer } from "./server.js";

/** The path the Streamable HTTP endpoint is served on. */
export const MCP_HTTP_PATH = "/mcp";

/** Most concurrent Streamable HTTP sessions; a new session past it gets 503. */
export const MAX_MCP_HTTP_SESSIONS = 64;

/** Options of `listenMcpHttp`. */
export interface ListenMcpHttpOptions {
  /** Address to bind (default `127.0.0.1`). */
  host?: string | undefined;
  /** Port (default 0: any free port). */
  port?: number | undefined;
  /**
   * Bearer token every request must carry (`Authorization: Bearer <token>`), on every address, loopback included;
   * at least `MIN_MCP_HTTP_TOKEN_CHARS` characters. Without it a random one is created (`McpHttpListener.token`).
   */
  token?: string | undefined;
}

/** A listening Streamable HTTP endpoint. */
export interface McpHttpListener {
  /** The endpoint URL, for example `http://127.0.0.1:4312/mcp`. */
  readonly url: string;
  readonly port: number;
  /** The bearer token every request must carry: the caller's, or the one created for this listener. */
  readonly token: string;
  /** Stops listening and closes every session. */
  close(): Promise<void>;
}

function reject(res: ServerResponse, refusal: McpHttpRefusal): void {
  res
    .writeHead(refusal.status, { "content-type": "application/json", ...refusal.headers })
    .end(refusalBody(refusal));
}

/**
 * Serves `server` over Streamable HTTP: a 2025-11-25 client gets one MCP session (`Mcp-Session-Id`, opened by
 * `initialize`); a 2026-07-28 request (its revision in `params._meta`) is answered on its own, with no session and
 * at most `MAX_MCP_HTTP_STATELESS_REQUESTS` at once (amendment A11). Every request must carry the
 * bearer token (`Authorization: Bearer <token>`, compared in constant time), on loopback too: without `token` a
 * random one is created and returned as `McpHttpListener.token`; a token shorter than `MIN_MCP_HTTP_TOKEN_CHARS`
 * is `mcp_token_required`. Binds to loopback by default, where only loopback `Host` headers are served (DNS
 * rebinding); a browser request from another origin is refused. Every check of a request (`checkRequestHeaders`,
 * and `readSessionlessRequest` for a `POST` without a session) runs before any MCP object is created, so a refused
 * request leaves nothing behind; a session the SDK still does not open is closed at once.
 */
export async function listenMcpHttp(
  server: RawMcpServer,
  options: ListenMcpHttpOptions = {},
): Promise<McpHttpListener> {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(host);
  if (options.token !== undefined && options.token.length < MIN_MCP_HTTP_TOKEN_CHARS) {
    throw mcpError(
      MCP_CODES.tokenRequired,
      `the bearer token of MCP over HTTP must have at least ${MIN_MCP_HTTP_TOKEN_CHARS} characters`,
    );
  }
  if (!loopback && options.token === undefined) {
    throw mcpError(
      MCP_CODES.tokenRequired,
      `binding MCP over HTTP to ${host} (not loopback) requires a bearer token of at least ${MIN_MCP_HTTP_TOKEN_CHARS} characters`,
    );
  }
  const token = options.token ?? createMcpHttpToken();
  const admission = { path: MCP_HTTP_PATH, token, loopback };
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = options.port ?? 0;
  /** The one connection every 2026-07-28 request is served on, opened by the first such request. */
  let stateless: Promise<StatelessChannel> | undefined;

  const answerStateless = async (message: StatelessMessage, res: ServerResponse): Promise<void> => {
    if (stateless === undefined) {
      const channel = new StatelessChannel();
      stateless = server.connect(channel).then(() => channel);
    }
    const channel = await stateless;
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (channel.inFlight >= MAX_MCP_HTTP_STATELESS_REQUESTS) {
      return reject(res, {
        status: 503,
        code: "too_many_requests",
        message: `at most ${MAX_MCP_HTTP_STATELESS_REQUESTS} requests are answered at once`,
      });
    }
    // The exchange ending before its answer (the client went away) cancels the request.
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    const response = await channel.exchange(message, gone.signal);
    if (response === undefined || res.writableEnded || res.destroyed) return;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(response));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = checkRequestHeaders(req, admission);
    if (refused !== undefined) return reject(res, refused);
    const sessionId = req.headers["mcp-session-id"];
    if (sessionId !== undefined) {
      const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (existing !== undefined) return existing.handleRequest(req, res);
      return reject(res, {
        status: 404,
        code: "unknown_session",
        message: "the Mcp-Session-Id header names no open session",
      });
    }
    if (req.method !== "POST") {
      return reject(res, {
        status: 400,
        code: "session_required",
        message: `${req.method} needs the Mcp-Session-Id header of an open session`,
      });
    }
    const initialize = await readSessionlessRequest(req);
    if (!initialize.ok) return reject(res, initialize.refusal);
    if (initialize.kind === "modern") return answerStateless(initialize.body, res);
    if (sessions.size >= MAX_MCP_HTTP_SESSIONS) {
      return reject(res, {
        status: 503,
        code: "too_many_sessions",
        message: `at most ${MAX_MCP_HTTP_SESSIONS} sessions are open at once`,
      });
    }
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
    try {
      await transport.handleRequest(req, res, initialize.body);
    } finally {
      // Whatever the SDK still refused opened no session: its server and transport go now, not with the listener.
      if (transport.sessionId === undefined) await transport.close().catch(() => undefined);
    }
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) {
        res
          .writeHead(500, { "content-type": "application/json" })
          .end(
            JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "internal error" }, id: null }),
          );
      } else res.end();
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
    token,
    async close(): Promise<void> {
      const channel = stateless;
      stateless = undefined;
      if (channel !== undefined) await (await channel).close();
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
