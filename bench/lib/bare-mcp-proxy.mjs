// The floor of the MCP proxy row (suites/09-mcp.mjs): a stdio proxy built from the MCP SDK's own `Server` and
// `Client` that forwards `tools/list` and `tools/call` and does nothing else: no rules, no validation, no hooks, no
// approval, no result capping. What it costs over a direct call is what any SDK-based proxy pays (a second stdio
// hop, a third process to wake, the SDK's per-message work), before any step of Raw's.
// Usage: node bare-mcp-proxy.mjs <server command> [args...]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "bare-proxy", version: "1" });
await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
const server = new Server({ name: "bare-proxy", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
server.setRequestHandler(CallToolRequestSchema, (request) => client.callTool(request.params));
server.onclose = () => void client.close();
await server.connect(new StdioServerTransport());
