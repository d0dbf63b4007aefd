import { expect, it } from "vitest";
import * as api from "../src/index.js";

it("pins the public export names", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "MAX_APPROVAL_ARGUMENT_CHARS",
      "MAX_MCP_HTTP_SESSIONS",
      "MAX_MCP_LIST_PAGES",
      "MAX_MCP_TOOLS",
      "MCP_CALL_TIMEOUT_MS",
      "MCP_CLOSE_GRACE_MS",
      "MCP_CODES",
      "MCP_CONNECT_TIMEOUT_MS",
      "MCP_HTTP_PATH",
      "MCP_MAX_MESSAGE_BYTES",
      "MCP_PANEL_META_KEY",
      "MCP_SERVER_NAME_PATTERN",
      "MCP_TOOL_NAME_PATTERN",
      "PANEL_RESOURCE_PREFIX",
      "ProcessTransport",
      "approvalMessage",
      "createMcpServer",
      "elicitationSchema",
      "formOf",
      "isLoopbackHost",
      "isValidMcpServerName",
      "isValidMcpToolName",
      "listenMcpHttp",
      "mapMcpResult",
      "mcpIdentity",
      "mountMcpServer",
      "serverNameOf",
      "toMcpResult",
    ]
  `);
});
