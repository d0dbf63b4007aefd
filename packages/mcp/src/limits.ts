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
