import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** Why a request was refused, with the HTTP status it gets. */
export interface Refusal {
  readonly status: 400 | 401 | 403 | 405 | 415;
  readonly code: string;
  readonly message: string;
}

/** What a route accepts. */
export interface RouteRule {
  /** The one method the route answers; anything else is 405. */
  readonly method: "GET" | "POST";
}

/** The token a request carries: the first segment of its path (`/<token>/…`), so relative URLs keep it. */
export function requestToken(url: URL): string | undefined {
  const segment = /^\/([^/]+)\//u.exec(url.pathname)?.[1];
  return segment === undefined ? undefined : segment;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The checks every request of `raw serve` passes before anything happens, in this order: the `Host` header names
 * this server (no DNS rebinding), the token matches, the method is the route's, a state-changing request is a
 * same-origin `POST` of JSON. The first failure wins; a refused request changes nothing.
 */
export function checkRequest(
  req: IncomingMessage,
  url: URL,
  rule: RouteRule,
  server: {
    readonly token: string;
    readonly hosts: ReadonlySet<string>;
    readonly origins: ReadonlySet<string>;
  },
): Refusal | undefined {
  if (typeof req.headers.host !== "string" || !server.hosts.has(req.headers.host.toLowerCase())) {
    return { status: 403, code: "host_refused", message: "this server answers only its own address" };
  }
  const token = requestToken(url);
  if (token === undefined || !sameToken(token, server.token)) {
    return {
      status: 401,
      code: "token_required",
      message: "a valid token is required (use the URL raw serve printed)",
    };
  }
  if (req.method !== rule.method) {
    return { status: 405, code: "method_not_allowed", message: `use ${rule.method}` };
  }
  if (rule.method === "POST") {
    const origin = req.headers.origin;
    if (origin !== undefined && !server.origins.has(origin)) {
      return { status: 403, code: "origin_refused", message: "cross-origin requests are refused" };
    }
    const fetchSite = req.headers["sec-fetch-site"];
    if (fetchSite !== undefined && fetchSite !== "same-origin" && fetchSite !== "none") {
      return { status: 403, code: "origin_refused", message: "cross-site requests are refused" };
    }
    const type = req.headers["content-type"] ?? "";
    if (!/^application\/json(\s*;|$)/iu.test(type)) {
      return { status: 415, code: "json_required", message: "send application/json" };
    }
  }
  return undefined;
}

/** The Content-Security-Policy of every page and response: scripts only from this server, nothing else reachable. */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers every response carries. */
export function securityHeaders(nonce: string): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(nonce),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-store",
  };
}
