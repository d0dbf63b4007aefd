import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The SDK `Protocol`'s own handlers of each kind of message (1.32.x), which its `connect` routes to. */
interface ProtocolHandlers {
  _onrequest(message: JSONRPCMessage, extra?: unknown): void;
  _onnotification(message: JSONRPCMessage): void;
  _onresponse(message: JSONRPCMessage): void;
}

function handlersOf(protocol: object): ProtocolHandlers | undefined {
  const candidate = protocol as Partial<ProtocolHandlers>;
  return typeof candidate._onrequest === "function" &&
    typeof candidate._onnotification === "function" &&
    typeof candidate._onresponse === "function"
    ? (candidate as ProtocolHandlers)
    : undefined;
}

/**
 * Routes each message of `transport` to the handler of its kind on the SDK `protocol` it is connected to, by its
 * keys, instead of through `Protocol.connect`'s router, which tries the SDK's type guards in turn (a schema parse
 * each: a request costs two failed parses and one more). Only for a transport of this package that hands on nothing
 * but messages `parseJsonRpcMessage` accepted (`ProcessTransport`, `ServerStdioTransport`): the guards' members are
 * strict objects told apart by exactly these keys (a request has `method` and `id`, a notification `method` and no
 * `id`, a response `result` or `error`), so the route is the one the guards take. Call it right after `connect`,
 * with nothing else on the transport's `onmessage` before (the router then calls nothing else first); when the SDK's
 * handlers are not found (another SDK line), the SDK's router stays.
 */
export function routeCheckedMessages(protocol: object, transport: Transport): void {
  const handlers = handlersOf(protocol);
  const fallback = transport.onmessage;
  if (handlers === undefined || fallback === undefined) return;
  transport.onmessage = (message, extra) => {
    const record = message as Record<string, unknown>;
    if ("method" in record) {
      if ("id" in record) handlers._onrequest(message, extra);
      else handlers._onnotification(message);
    } else if ("result" in record || "error" in record) handlers._onresponse(message);
    else fallback(message, extra);
  };
}
