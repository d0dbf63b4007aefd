import { MAX_TOOL_LOCATIONS } from "../limits.js";
import { type GatedMethod, gateIdentity, permissionKindOf } from "./identity.js";

/** What an env value reads as in every view, hook payload and rule of a gated `terminal/create` (A13). */
export const REDACTED_ENV_VALUE = "[redacted]";

/** A gated request seen as a tool call (A13): its identity, tool name, arguments and intended effects. */
export interface GatedCall {
  readonly method: GatedMethod;
  readonly identity: string;
  /** The model-facing name of the gate's registration for it. */
  readonly toolName: string;
  readonly arguments: Record<string, unknown>;
  /** The intended effects: `{}` (no files) for `fs/read_text_file` and `terminal/create`. */
  readonly effects: { files?: { path: string; operation: string }[] };
  /** The ACP session the request belongs to (`""` when the agent named none). */
  readonly sessionId: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The gate's tool name for a method (and a permission kind). */
export function gateToolName(method: GatedMethod, kind?: unknown): string {
  if (method === "session/request_permission") return `tool_${permissionKindOf(kind)}`;
  return method.replace(/\//g, "_");
}

function pick(params: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (params[key] !== undefined && params[key] !== null) out[key] = params[key];
  return out;
}

function redactEnv(env: unknown): unknown {
  if (!Array.isArray(env)) return [];
  return env.map((entry) =>
    isRecord(entry) ? { name: entry.name, value: REDACTED_ENV_VALUE } : { value: REDACTED_ENV_VALUE },
  );
}

/** A refused mapping: the request cannot be seen as a tool call (so it is refused, never forwarded). */
export class GatedRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The `files` effect of a permission request's `locations` (A13): edit → write, delete → delete, move → rename. */
export function locationEffects(kind: string, locations: unknown): { path: string; operation: string }[] {
  if (locations === undefined || locations === null) return [];
  if (!Array.isArray(locations)) {
    throw new GatedRequestError("invalid_locations", "toolCall.locations must be an array");
  }
  if (locations.length > MAX_TOOL_LOCATIONS) {
    throw new GatedRequestError(
      "too_many_locations",
      `toolCall.locations holds ${locations.length} entries (at most ${MAX_TOOL_LOCATIONS})`,
    );
  }
  const paths = locations.map((location, i) => {
    if (!isRecord(location) || typeof location.path !== "string" || location.path === "") {
      throw new GatedRequestError(
        "invalid_locations",
        `toolCall.locations[${i}].path must be a non-empty string`,
      );
    }
    return location.path;
  });
  if (kind === "move" && paths.length === 2) {
    return [
      { path: paths[0] as string, operation: "rename_source" },
      { path: paths[1] as string, operation: "rename_destination" },
    ];
  }
  const operation = kind === "delete" ? "delete" : "write";
  return paths.map((path) => ({ path, operation }));
}

/**
 * A gated request as a tool call (A13). Throws `GatedRequestError` for params that cannot be read (the request is
 * then refused, so an unreadable request never reaches the client).
 */
export function gatedCallOf(agent: string, method: GatedMethod, params: unknown): GatedCall {
  if (!isRecord(params)) throw new GatedRequestError("invalid_params", `${method}: params must be an object`);
  const sessionId = typeof params.sessionId === "string" ? params.sessionId : "";
  switch (method) {
    case "fs/write_text_file":
      return {
        method,
        identity: gateIdentity(agent, method),
        toolName: gateToolName(method),
        arguments: pick(params, ["path", "content"]),
        effects: {
          files: typeof params.path === "string" ? [{ path: params.path, operation: "write" }] : [],
        },
        sessionId,
      };
    case "fs/read_text_file":
      return {
        method,
        identity: gateIdentity(agent, method),
        toolName: gateToolName(method),
        arguments: pick(params, ["path", "line", "limit"]),
        effects: {},
        sessionId,
      };
    case "terminal/create":
      return {
        method,
        identity: gateIdentity(agent, method),
        toolName: gateToolName(method),
        arguments: {
          ...pick(params, ["command", "cwd"]),
          args: Array.isArray(params.args) ? params.args : [],
          env: redactEnv(params.env),
        },
        effects: {},
        sessionId,
      };
    case "session/request_permission": {
      const toolCall = isRecord(params.toolCall) ? params.toolCall : {};
      const kind = permissionKindOf(toolCall.kind);
      return {
        method,
        identity: gateIdentity(agent, method, kind),
        toolName: gateToolName(method, kind),
        arguments: isRecord(toolCall.rawInput) ? toolCall.rawInput : {},
        effects: { files: locationEffects(kind, toolCall.locations) },
        sessionId,
      };
    }
  }
}
