/** Largest JSON-RPC line the gate reads from the client or the agent, in bytes; a longer one is refused, never buffered. */
export const MAX_ACP_LINE_BYTES = 8 * 1024 * 1024;
/** How much of an oversized line the gate keeps to find its `id` and `method` (the rest is dropped as it arrives). */
export const OVERSIZED_LINE_PREFIX_BYTES = 4096;
/** Most requests waiting for an answer in each direction (client → agent, agent → client, gated); more are refused. */
export const MAX_PENDING_REQUESTS = 1024;
/** Most ACP sessions whose `*_always` answers and open tool call the gate remembers (the oldest is forgotten). */
export const MAX_GATE_SESSIONS = 64;
/** Longest agent name in an identity, in characters. */
export const MAX_AGENT_NAME_CHARS = 64;
/** How long the gate waits for the agent to exit after the client closed its input, in ms, before `SIGTERM`. */
export const AGENT_EXIT_GRACE_MS = 3000;
/** The JSON-RPC error code of a request the gate refused (a rule, a hook, the user, a bound). */
export const GATE_REFUSED_CODE = -32004;
/** The JSON-RPC error code of a request ended because the agent exited before answering it. */
export const AGENT_EXITED_CODE = -32603;
/** The JSON-RPC error code of a message too large to read. */
export const MESSAGE_TOO_LARGE_CODE = -32600;
/** The JSON-RPC error code of a gated request the agent withdrew (`$/cancel_request`) before it was decided. */
export const REQUEST_CANCELLED_CODE = -32800;
