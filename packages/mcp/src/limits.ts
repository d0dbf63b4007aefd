/** How long `mountMcpServer` waits for a server to start and answer `initialize` and `tools/list` (ms). */
export const MCP_CONNECT_TIMEOUT_MS = 10_000;

/** Default deadline of one `tools/call` to a mounted server (ms); the call is cancelled when it passes. */
export const MCP_CALL_TIMEOUT_MS = 60_000;

/** Largest JSON-RPC message read from a stdio server (bytes); a larger one fails its request with a code. */
export const MCP_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** How long `close()` waits for a stdio server to exit after its stdin is closed, before signals (ms). */
export const MCP_CLOSE_GRACE_MS = 500;

/** Most tools taken from one server's `tools/list` (over every page); later tools are reported and skipped. */
export const MAX_MCP_TOOLS = 1_000;

/** Most `tools/list` pages followed for one listing. */
export const MAX_MCP_LIST_PAGES = 50;

/** Largest unread input `ServerStdioTransport` buffers (bytes), as the SDK's `StdioServerTransport` (10 MiB). */
export const MCP_STDIO_MAX_BUFFER_BYTES = 10 * 1024 * 1024;

/**
 * Most bytes of tool definitions taken from one server's `tools/list` (over every page, each tool as serialized JSON
 * after its description is shortened): later tools are dropped and reported (`mcp_tools_truncated`).
 */
export const MAX_MCP_TOOL_LIST_BYTES = 8 * 1024 * 1024;

/** Largest tool description kept (UTF-8 bytes); a longer one is shortened with a stated remainder. */
export const MAX_MCP_TOOL_DESCRIPTION_BYTES = 64 * 1024;

/** Largest `inputSchema` of one tool (serialized JSON, UTF-8 bytes); a tool with a larger one is skipped. */
export const MAX_MCP_TOOL_SCHEMA_BYTES = 512 * 1024;

/**
 * How long one foreign `inputSchema` may take to compile (ms), measured off the event loop in a worker thread; a
 * schema past it makes its tool unavailable (`mcp_schema_budget_exceeded`). What compiles within it is compiled
 * again by the registry on the main thread, one tool at a time with the event loop free in between.
 */
export const MCP_SCHEMA_COMPILE_BUDGET_MS = 250;

/** Most dropped tools listed by name in `McpMount.skipped` (the warning states how many were dropped in all). */
export const MAX_MCP_DROPPED_REPORTED = 100;
