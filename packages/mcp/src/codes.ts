import { ContractError } from "@raw/schema";

/**
 * The stable codes of `@raw/mcp`, as they appear in tool results, skipped-tool reports and thrown `ContractError`s.
 */
export const MCP_CODES = Object.freeze({
  /** The server could not be started or did not complete `initialize` / `tools/list`. */
  connectFailed: "mcp_connect_failed",
  /** The server did not answer `initialize` / `tools/list` within the connect deadline. */
  connectTimeout: "mcp_connect_timeout",
  /** The mount options are invalid (server name, command or URL). */
  invalidOptions: "mcp_invalid_options",
  /** A listed tool's name is not a valid MCP tool name, or it is not an object with a name. */
  toolInvalid: "mcp_tool_invalid",
  /** The server listed the same tool name twice. */
  toolDuplicate: "mcp_tool_duplicate",
  /**
   * The server listed more than `MAX_MCP_TOOLS` tools or more than `MAX_MCP_TOOL_LIST_BYTES` of tool definitions
   * (or more than `MAX_MCP_LIST_PAGES` pages): the later tools are dropped, and one warning names them.
   */
  toolsTruncated: "mcp_tools_truncated",
  /** A tool's `inputSchema` is larger than `MAX_MCP_TOOL_SCHEMA_BYTES`: the tool is skipped. */
  toolTooLarge: "mcp_tool_too_large",
  /** A tool's description is longer than `MAX_MCP_TOOL_DESCRIPTION_BYTES`: it is shortened (the tool registers). */
  descriptionTruncated: "mcp_tool_description_truncated",
  /** A tool's `inputSchema` did not compile within `MCP_SCHEMA_COMPILE_BUDGET_MS`: the tool is skipped. */
  schemaBudgetExceeded: "mcp_schema_budget_exceeded",
  /** The connection to the server is closed (crash, exit, or closed by the host). */
  connectionClosed: "mcp_connection_closed",
  /** The call passed its deadline; a cancellation was sent. */
  timeout: "mcp_timeout",
  /** A message from the server exceeded `MCP_MAX_MESSAGE_BYTES`. */
  messageTooLarge: "mcp_message_too_large",
  /** The server answered with a JSON-RPC error (whatever its `data` says: a server never picks a Raw code). */
  serverError: "mcp_server_error",
  /** The server's answer is not a valid `CallToolResult`. */
  invalidResult: "mcp_invalid_result",
  /** The server reported the tool call as failed (`isError: true`). */
  toolError: "mcp_tool_error",
  /** Streamable HTTP given a bearer token shorter than 16 characters, or bound off loopback without one. */
  tokenRequired: "mcp_token_required",
  /** The mount was closed. */
  closed: "mcp_closed",
} as const);

/** One of the codes of `MCP_CODES`. */
export type McpCode = (typeof MCP_CODES)[keyof typeof MCP_CODES];

/** A `ContractError` carrying one issue with `code` and `message`. */
export function mcpError(code: string, message: string): ContractError {
  return ContractError.fromIssues([{ code, message }]);
}
