/** A server name usable in identities `mcp/<server>/<tool>`. */
export const MCP_SERVER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A valid MCP tool name (the SDK's rule: 1–128 of `A-Z a-z 0-9 _ - .`). */
export const MCP_TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** True when `name` may name a server in identities. */
export function isValidMcpServerName(name: string): boolean {
  return MCP_SERVER_NAME_PATTERN.test(name);
}

/** True when `name` is a valid MCP tool name. */
export function isValidMcpToolName(name: string): boolean {
  return MCP_TOOL_NAME_PATTERN.test(name);
}

/** The canonical identity of an MCP tool (tool-api.md §9.4): `mcp/<server>/<original tool name>`. */
export function mcpIdentity(server: string, tool: string): string {
  return `mcp/${server}/${tool}`;
}

/**
 * A valid server name made from a server's own `serverInfo.name`: characters outside `A-Z a-z 0-9 . _ -` become
 * `-`, leading ones that are not a letter or digit are dropped, at most 64 characters; `server` when nothing is left.
 */
export function serverNameOf(name: unknown): string {
  const cleaned = (typeof name === "string" ? name : "")
    .replace(/[^A-Za-z0-9._-]/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 64);
  return cleaned === "" ? "server" : cleaned;
}
