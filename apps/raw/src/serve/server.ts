import { randomBytes } from "node:crypto";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { BoardRequestError } from "@raw/host";
import { EventHub } from "./events.js";
import { checkRequest, type Refusal, type RouteRule, securityHeaders } from "./guard.js";
import {
  openWebSession,
  REFUSAL_STATUS,
  WebRequestError,
  type WebSession,
  type WebSessionOptions,
} from "./web-session.js";

/** Largest request body `raw serve` reads. */
export const MAX_BODY_BYTES = 1_048_576;

/** Options of `startServe`. */
export interface ServeOptions extends WebSessionOptions {
  /** Loopback address to bind (default 127.0.0.1). Only loopback addresses are accepted. */
  readonly host?: string;
  /** Port (default 0: a free one). */
  readonly port?: number;
  /** The token (default: 32 random bytes, base64url). */
  readonly token?: string;
}

/** A running `raw serve`. */
export interface RunningServe {
  /** The page's address, token included: the only way in. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly session: WebSession;
  readonly hub: EventHub;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
};

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/u;

/** Where the built page lives: `dist/web` next to the CLI bundle. */
function webRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [
    join(here, "web"),
    join(here, "..", "web"),
    join(here, "..", "..", "dist", "web"),
  ]) {
    if (existsSync(join(candidate, "app.js"))) return candidate;
  }
  return join(here, "web");
}

/** Mermaid's browser files, when the optional `mermaid` package is installed next to the CLI. */
function mermaidRoot(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    return dirname(require.resolve("mermaid/dist/mermaid.esm.min.mjs"));
  } catch {
    return undefined;
  }
}

function page(nonce: string, hasMermaid: boolean): string {
  const importMap = hasMermaid
    ? `<script type="importmap" nonce="${nonce}">{"imports":{"mermaid":"./vendor/mermaid/mermaid.esm.min.mjs"}}</script>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>raw serve</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="./app.css">
${importMap}
<script type="module" src="./app.js"></script>
</head>
<body>
<noscript>This page needs JavaScript.</noscript>
</body>
</html>`;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

function refuse(
  res: ServerResponse,
  refusal: Refusal,
  headers: Record<string, string>,
  allow?: string,
): void {
  send(
    res,
    refusal.status,
    { code: refusal.code, message: refusal.message },
    allow ? { ...headers, allow } : headers,
  );
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new WebRequestError(400, "body_too_large", `the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new WebRequestError(400, "body_invalid", "the body is not JSON");
  }
}

function serveFile(
  res: ServerResponse,
  root: string,
  relative: string,
  headers: Record<string, string>,
): boolean {
  const file = normalize(join(root, relative));
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return false;
  res.writeHead(200, { ...headers, "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
  createReadStream(file).pipe(res);
  return true;
}

/**
 * Starts `raw serve`: a local page for one session of the reference app, on a loopback address only. Every path
 * starts with the per-run token (`/<token>/…`); requests without it get 401, other methods 405, cross-origin or
 * non-JSON posts 403/415, and nothing changes. The page gets a strict Content-Security-Policy and no CORS.
 */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK.test(host))
    throw new WebRequestError(
      400,
      "host_not_loopback",
      `raw serve binds to loopback addresses only, not ${host}`,
    );
  const token = options.token ?? randomBytes(32).toString("base64url");
  const hub = new EventHub();
  const session = await openWebSession(options, hub);
  const web = webRoot();
  const mermaid = mermaidRoot();
  const hosts = new Set<string>();
  const origins = new Set<string>();

  const routes: ReadonlyArray<{
    match: RegExp;
    rule: RouteRule;
    handle(
      req: IncomingMessage,
      res: ServerResponse,
      m: RegExpExecArray,
      headers: Record<string, string>,
      nonce: string,
    ): Promise<void> | void;
  }> = [
    {
      match: /^\/$/u,
      rule: { method: "GET" },
      handle: (_req, res, _m, headers, nonce) => {
        res.writeHead(200, { ...headers, "content-type": TYPES[".html"] ?? "text/html" });
        res.end(page(nonce, mermaid !== undefined));
      },
    },
    {
      match: /^\/(app\.js|app\.css)$/u,
      rule: { method: "GET" },
      handle: (_req, res, m, headers) => {
        if (!serveFile(res, web, m[1] ?? "", headers))
          send(res, 404, { code: "not_found", message: "build the CLI first" }, headers);
      },
    },
    {
      match: /^\/vendor\/mermaid\/(.+)$/u,
      rule: { method: "GET" },
      handle: (_req, res, m, headers) => {
        if (!mermaid || !serveFile(res, mermaid, m[1] ?? "", headers))
          send(res, 404, { code: "not_found", message: "not found" }, headers);
      },
    },
    {
      match: /^\/api\/state$/u,
      rule: { method: "GET" },
      handle: (_req, res, _m, headers) => send(res, 200, session.state(), headers),
    },
    {
      match: /^\/events$/u,
      rule: { method: "GET" },
      handle: (_req, res, _m, headers) => hub.open(res, headers, session.state()),
    },
    {
      match: /^\/api\/calls$/u,
      rule: { method: "POST" },
      handle: async (req, res, _m, headers) => {
        const body = (await readJson(req)) as { tool?: unknown; arguments?: unknown } | null;
        if (typeof body !== "object" || body === null)
          throw new WebRequestError(400, "body_invalid", "send { tool, arguments }");
        send(res, 202, { callId: session.startCall(body.tool, body.arguments ?? {}) }, headers);
      },
    },
    {
      match: /^\/api\/approvals\/([\w-]{1,64})$/u,
      rule: { method: "POST" },
      handle: async (req, res, m, headers) => {
        const body = (await readJson(req)) as { approved?: unknown } | null;
        session.answerApproval(m[1] ?? "", body?.approved);
        send(res, 200, { ok: true }, headers);
      },
    },
    {
      match: /^\/api\/interactions\/([\w-]{1,64})$/u,
      rule: { method: "POST" },
      handle: async (req, res, m, headers) =>
        send(res, 200, session.answerInteraction(m[1] ?? "", await readJson(req)), headers),
    },
    {
      match: /^\/api\/actions$/u,
      rule: { method: "POST" },
      handle: async (req, res, _m, headers) =>
        send(res, 200, session.runAction(await readJson(req)), headers),
    },
  ];

  const server: Server = createServer((req, res) => {
    const nonce = randomBytes(16).toString("base64");
    const headers = securityHeaders(nonce);
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const prefix = `/${token}`;
      const path = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
      // The token is the first path segment; checkRequest compares it in constant time before any route runs.
      const route = path === undefined ? undefined : routes.find((r) => r.match.test(path));
      const rule: RouteRule = route?.rule ?? { method: "GET" };
      const refusal = checkRequest(req, url, rule, { token, hosts, origins });
      if (refusal) {
        refuse(res, refusal, headers, refusal.status === 405 ? rule.method : undefined);
        return;
      }
      if (!route || path === undefined) {
        send(res, 404, { code: "not_found", message: "not found" }, headers);
        return;
      }
      const match = route.match.exec(path) as RegExpExecArray;
      await route.handle(req, res, match, headers, nonce);
    })().catch((error: unknown) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (error instanceof WebRequestError || error instanceof BoardRequestError) {
        const status = error instanceof WebRequestError ? error.status : REFUSAL_STATUS[error.refusal];
        send(res, status, { code: error.code, message: error.message }, headers);
      } else send(res, 500, { code: "internal_error", message: "the request failed" }, headers);
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (error) {
    // Nothing stays open when the address is taken: the caller may try another port.
    session.close();
    hub.close();
    throw error;
  }
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("raw serve: no address");
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  for (const name of [shown, "localhost", host === "::1" ? "[::1]" : host]) {
    hosts.add(`${name}:${address.port}`.toLowerCase());
    origins.add(`http://${name}:${address.port}`.toLowerCase());
  }
  const origin = `http://${shown}:${address.port}`;
  return {
    url: `${origin}/${token}/`,
    origin,
    token,
    session,
    hub,
    async close() {
      session.close();
      hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
