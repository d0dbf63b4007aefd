import { MCP_CODES, mcpError } from "./codes.js";
import { listenMcpHttp, type McpHttpListener } from "./http.js";
import { MIN_MCP_HTTP_TOKEN_CHARS } from "./http-token.js";
import type { RawMcpServer } from "./server.js";

/**
 * The environment variable holding the bearer token of `serveMcpHttp` (`raw mcp serve|proxy --http`); never a
 * command-line value, never printed.
 */
export const MCP_TOKEN_ENV = "RAW_MCP_TOKEN";

/** Where `serveMcpHttp` listens: `host:port` parsed (an IPv6 host without its brackets). */
export interface McpHttpAddress {
  readonly host: string;
  readonly port: number;
}

/** `host:port` (for example `127.0.0.1:8787`, `[::1]:0`) as an address, or `undefined` when it is not one. */
export function parseMcpHttpAddress(text: string): McpHttpAddress | undefined {
  const match = /^(.*):(\d{1,5})$/u.exec(text);
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port > 65_535) return undefined;
  return { host: (match[1] as string).replace(/^\[|\]$/gu, "") || "127.0.0.1", port };
}

/** How to make a token, said in the refusal (no value of the environment is ever repeated). */
const TOKEN_HINT =
  `set ${MCP_TOKEN_ENV} to a secret of at least ${MIN_MCP_HTTP_TOKEN_CHARS} characters and give the same value ` +
  `to the client as "Authorization: Bearer <token>", for example ` +
  `export ${MCP_TOKEN_ENV}=$(node -e 'console.log(crypto.randomBytes(32).toString("base64url"))')`;

/**
 * The bearer token from `env[MCP_TOKEN_ENV]`. A listener never starts without one (amendment A10 "a token on every
 * listener"; issue 25: "refuses to start without a token rather than serve without one"): unset, empty or shorter
 * than `MIN_MCP_HTTP_TOKEN_CHARS` throws `mcp_token_required` whose message names the variable and how to set it.
 */
export function mcpHttpTokenFromEnv(env: Readonly<Record<string, string | undefined>>): string {
  const token = env[MCP_TOKEN_ENV];
  if (token === undefined || token === "") {
    throw mcpError(
      MCP_CODES.tokenRequired,
      `MCP over HTTP needs a bearer token and ${MCP_TOKEN_ENV} is not set; hint: ${TOKEN_HINT}`,
    );
  }
  if (token.length < MIN_MCP_HTTP_TOKEN_CHARS) {
    throw mcpError(
      MCP_CODES.tokenRequired,
      `${MCP_TOKEN_ENV} must hold at least ${MIN_MCP_HTTP_TOKEN_CHARS} characters; hint: ${TOKEN_HINT}`,
    );
  }
  return token;
}

/** Options of `serveMcpHttp`. */
export interface ServeMcpHttpOptions {
  /** Where to listen. */
  readonly address: McpHttpAddress;
  /** The environment the token is read from (`MCP_TOKEN_ENV`). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A started `serveMcpHttp`: the listener and the lines to show the user (no token in them). */
export interface ServedMcpHttp {
  readonly listener: McpHttpListener;
  /** `serving on <url>` and how to pass the token, one line each, for standard error. */
  readonly banner: readonly string[];
}

/**
 * Serves `server` on Streamable HTTP at `address` (path `/mcp`, 2025-11-25 sessions and 2026-07-28 stateless
 * requests) with the bearer token of `env[MCP_TOKEN_ENV]` on every request, loopback included. Throws
 * `mcp_token_required` before anything listens when the token is missing or short (`mcpHttpTokenFromEnv`).
 */
export async function serveMcpHttp(
  server: RawMcpServer,
  options: ServeMcpHttpOptions,
): Promise<ServedMcpHttp> {
  const token = mcpHttpTokenFromEnv(options.env);
  const listener = await listenMcpHttp(server, {
    host: options.address.host,
    port: options.address.port,
    token,
  });
  return {
    listener,
    banner: [
      `serving on ${listener.url}`,
      `every request needs the header Authorization: Bearer <the value of ${MCP_TOKEN_ENV}>`,
    ],
  };
}
