import { MAX_AGENT_NAME_CHARS } from "./limits.js";

/** The four agent → client requests the gate decides on (amendment A13). */
export const GATED_METHODS = Object.freeze([
  "fs/write_text_file",
  "fs/read_text_file",
  "terminal/create",
  "session/request_permission",
] as const);

/** One of the gated methods. */
export type GatedMethod = (typeof GATED_METHODS)[number];

/** The ACP tool kinds of protocol 1; a permission request's `kind` outside them names `acp/<agent>/tool/other`. */
export const ACP_TOOL_KINDS = Object.freeze([
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "think",
  "fetch",
  "switch_mode",
  "other",
] as const);

/** An ACP tool kind. */
export type AcpToolKind = (typeof ACP_TOOL_KINDS)[number];

/** Whether `method` is one the gate decides on. */
export function isGatedMethod(method: unknown): method is GatedMethod {
  return typeof method === "string" && (GATED_METHODS as readonly string[]).includes(method);
}

/**
 * An agent name made identity-safe: lower case, every run of characters outside `[a-z0-9._-]` becomes `-`, no
 * leading or trailing `-`/`.`, at most `MAX_AGENT_NAME_CHARS`; `agent` when nothing is left.
 */
export function identitySafeName(name: unknown): string {
  if (typeof name !== "string") return "agent";
  const safe = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .slice(0, MAX_AGENT_NAME_CHARS)
    .replace(/^[-.]+|[-.]+$/g, "");
  return safe === "" ? "agent" : safe;
}

/** The kind a permission request's tool call names (`other` when absent or unknown): it names the identity only. */
export function permissionKindOf(kind: unknown): AcpToolKind {
  return typeof kind === "string" && (ACP_TOOL_KINDS as readonly string[]).includes(kind)
    ? (kind as AcpToolKind)
    : "other";
}

/** The Raw identity of a gated request (A13): `acp/<agent>/fs/…`, `acp/<agent>/terminal/create`, `acp/<agent>/tool/<kind>`. */
export function gateIdentity(agent: string, method: GatedMethod, kind?: unknown): string {
  if (method === "session/request_permission") return `acp/${agent}/tool/${permissionKindOf(kind)}`;
  return `acp/${agent}/${method}`;
}

/** Every identity the gate uses for an agent, in a stable order (what `raw acp proxy --explain` lists). */
export function gateIdentities(agent: string): string[] {
  return [
    gateIdentity(agent, "fs/read_text_file"),
    gateIdentity(agent, "fs/write_text_file"),
    gateIdentity(agent, "terminal/create"),
    ...ACP_TOOL_KINDS.map((kind) => gateIdentity(agent, "session/request_permission", kind)),
  ];
}
