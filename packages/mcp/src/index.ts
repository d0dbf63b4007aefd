export { type CoalescedTask, coalesce } from "./coalesce.js";
export { MCP_CODES, type McpCode } from "./codes.js";
export { elicitationSchema, formOf } from "./form-elicitation.js";
export {
  type ListenMcpHttpOptions,
  listenMcpHttp,
  MAX_MCP_HTTP_SESSIONS,
  MCP_HTTP_PATH,
  type McpHttpListener,
} from "./http.js";
export { isLoopbackHost, MCP_HTTP_MAX_BODY_BYTES, type McpHttpRefusalCode } from "./http-admission.js";
export { MAX_MCP_HTTP_STATELESS_REQUESTS } from "./http-stateless.js";
export { MCP_HTTP_TOKEN_BYTES, MIN_MCP_HTTP_TOKEN_CHARS } from "./http-token.js";
export {
  MAX_MCP_DROPPED_REPORTED,
  MAX_MCP_LIST_PAGES,
  MAX_MCP_TOOL_DESCRIPTION_BYTES,
  MAX_MCP_TOOL_LIST_BYTES,
  MAX_MCP_TOOL_SCHEMA_BYTES,
  MAX_MCP_TOOLS,
  MCP_CALL_TIMEOUT_MS,
  MCP_CLOSE_GRACE_MS,
  MCP_CONNECT_TIMEOUT_MS,
  MCP_MAX_MESSAGE_BYTES,
  MCP_SCHEMA_COMPILE_BUDGET_MS,
  MCP_STDIO_MAX_BUFFER_BYTES,
} from "./limits.js";
export {
  type McpMount,
  type McpMountedTool,
  type McpMountWarning,
  type McpSkippedTool,
  type MountMcpServerOptions,
  mountMcpServer,
} from "./mount.js";
export {
  isValidMcpServerName,
  isValidMcpToolName,
  MCP_SERVER_NAME_PATTERN,
  MCP_TOOL_NAME_PATTERN,
  mcpIdentity,
  serverNameOf,
} from "./names.js";
export { ProcessTransport, type ProcessTransportOptions } from "./process-transport.js";
export {
  type LoadedMcpProxyConfig,
  loadMcpProxyConfig,
  MAX_MCP_CONFIG_BYTES,
  MAX_MCP_CONFIG_HOOKS,
  MAX_MCP_CONFIG_PANELS,
  MCP_CONFIG_INVALID,
  type McpConfigIssue,
  type McpProxyConfig,
  parseMcpProxyConfig,
} from "./proxy-config.js";
export {
  argumentsDigest,
  createRequestStateKeeper,
  MAX_MCP_REQUEST_STATE_CHARS,
  MAX_MCP_USED_REQUEST_STATES,
  MCP_REQUEST_STATE_TTL_MS,
  type RequestStateChain,
  type RequestStateCheck,
  type RequestStateClaims,
  type RequestStateKeeper,
  type RequestStateKeeperOptions,
  type RequestStateRefusal,
  type RequestStateRefused,
} from "./request-state.js";
export { MCP_PANEL_META_KEY, mapMcpResult, toMcpResult } from "./result-mapping.js";
export {
  MCP_TOKEN_ENV,
  type McpHttpAddress,
  mcpHttpTokenFromEnv,
  parseMcpHttpAddress,
  type ServedMcpHttp,
  type ServeMcpHttpOptions,
  serveMcpHttp,
} from "./serve-http.js";
export {
  APPROVAL_SCHEMA,
  type CreateMcpServerOptions,
  createMcpServer,
  MAX_MCP_FORM_RETRIES,
  MCP_APPROVAL_INPUT_KEY,
  MCP_FORM_INPUT_KEY,
  MCP_MODERN_REVISION,
  PANEL_RESOURCE_PREFIX,
  type RawMcpServer,
} from "./server.js";
export { ServerStdioTransport } from "./server-stdio-transport.js";
export {
  MAX_MCP_UPSTREAM_INPUT_REQUESTS,
  MAX_MCP_UPSTREAM_INPUT_ROUNDS,
  MAX_MCP_UPSTREAM_STATE_CHARS,
  MCP_UPSTREAM_QUESTION_PANEL,
} from "./upstream-input.js";
