import { randomBytes, timingSafeEqual } from "node:crypto";

/** Random bytes of a token `listenMcpHttp` creates when given none (256 bits; 43 base64url characters). */
export const MCP_HTTP_TOKEN_BYTES = 32;

/** Shortest bearer token `listenMcpHttp` accepts from its caller, on any address. */
export const MIN_MCP_HTTP_TOKEN_CHARS = 16;

/** A new random bearer token: `MCP_HTTP_TOKEN_BYTES` bytes from the system's CSPRNG, base64url. */
export function createMcpHttpToken(): string {
  return randomBytes(MCP_HTTP_TOKEN_BYTES).toString("base64url");
}

/**
 * True when an `Authorization` header value is exactly `Bearer <token>`. The comparison takes the same time
 * wherever the first difference is (only the length is not hidden).
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined || !header.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice("Bearer ".length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
