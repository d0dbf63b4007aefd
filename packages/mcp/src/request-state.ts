import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Longest `requestState` a client may send back, in characters; a longer one is refused unread. */
export const MAX_MCP_REQUEST_STATE_CHARS = 2_048;

/** How long an approval state stays valid by default (the approval deadline), in ms: 10 minutes. */
export const MCP_REQUEST_STATE_TTL_MS = 600_000;

/** Most single-use ids remembered as used at once; when full (after dropping expired ones) no new state is issued. */
export const MAX_MCP_USED_REQUEST_STATES = 10_000;

/** Why a `requestState` was refused: a stable code, stated in the `approval_denied` message. */
export type RequestStateRefusal =
  | "request_state_invalid"
  | "request_state_expired"
  | "request_state_used"
  | "request_state_tool_mismatch"
  | "request_state_arguments_mismatch"
  | "request_state_rule_mismatch";

/** What a state binds (amendment A11): the call's identity, its arguments' digest, the deciding rule, expiry, id. */
export interface RequestStateClaims {
  readonly identity: string;
  readonly arguments: string;
  readonly rule: string;
  readonly expires: number;
  readonly id: string;
}

/** The call a retry is checked against. */
export interface RequestStateSubject {
  readonly identity: string;
  readonly arguments: unknown;
  readonly rule: string;
}

/** Issues and checks authenticated, single-use approval states (HMAC-SHA256 with a per-process random key). */
export interface RequestStateKeeper {
  /** A state for `subject`, or `undefined` when too many used ids are still remembered. */
  issue(subject: RequestStateSubject): string | undefined;
  /** Checks `state` against `subject` and, when it holds, marks its id used; else the refusal code. */
  redeem(
    state: unknown,
    subject: RequestStateSubject,
  ): { ok: true } | { ok: false; code: RequestStateRefusal; message: string };
}

/** Options of `createRequestStateKeeper`. */
export interface RequestStateKeeperOptions {
  /** Validity of a state in ms (default `MCP_REQUEST_STATE_TTL_MS`). */
  readonly ttlMs?: number | undefined;
  /** The clock (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

/** Key-sorted JSON: the same arguments give the same digest whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The SHA-256 digest (base64url) of a call's arguments in canonical form. */
export function argumentsDigest(args: unknown): string {
  return createHash("sha256").update(canonical(args)).digest("base64url");
}

/**
 * Creates a keeper of approval states. A state is `<claims>.<mac>` (base64url JSON and its HMAC-SHA256 under a key
 * drawn when the keeper is created), opaque to the client. Nothing is kept for an issued state; an id is kept only
 * once redeemed, until its expiry, so a replay is refused.
 */
export function createRequestStateKeeper(options: RequestStateKeeperOptions = {}): RequestStateKeeper {
  const key = randomBytes(32);
  const ttlMs = options.ttlMs ?? MCP_REQUEST_STATE_TTL_MS;
  const now = options.now ?? Date.now;
  const used = new Map<string, number>();
  const mac = (body: string): Buffer => createHmac("sha256", key).update(body).digest();
  const prune = (): void => {
    const time = now();
    for (const [id, expires] of used) if (expires <= time) used.delete(id);
  };
  const refuse = (code: RequestStateRefusal, message: string) => ({ ok: false as const, code, message });
  return {
    issue(subject) {
      if (used.size >= MAX_MCP_USED_REQUEST_STATES) prune();
      if (used.size >= MAX_MCP_USED_REQUEST_STATES) return undefined;
      const claims: RequestStateClaims = {
        identity: subject.identity,
        arguments: argumentsDigest(subject.arguments),
        rule: subject.rule,
        expires: now() + ttlMs,
        id: randomBytes(16).toString("base64url"),
      };
      const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
      return `${body}.${mac(body).toString("base64url")}`;
    },
    redeem(state, subject) {
      if (typeof state !== "string" || state.length > MAX_MCP_REQUEST_STATE_CHARS) {
        return refuse("request_state_invalid", "requestState is not a state this server issued");
      }
      const dot = state.indexOf(".");
      const body = dot < 0 ? "" : state.slice(0, dot);
      const given = Buffer.from(dot < 0 ? "" : state.slice(dot + 1), "base64url");
      const expected = mac(body);
      if (body === "" || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return refuse("request_state_invalid", "requestState is not a state this server issued");
      }
      let claims: RequestStateClaims;
      try {
        claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as RequestStateClaims;
      } catch {
        return refuse("request_state_invalid", "requestState is not a state this server issued");
      }
      if (claims.identity !== subject.identity) {
        return refuse("request_state_tool_mismatch", "requestState was issued for another tool");
      }
      if (claims.arguments !== argumentsDigest(subject.arguments)) {
        return refuse("request_state_arguments_mismatch", "requestState was issued for other arguments");
      }
      if (claims.rule !== subject.rule) {
        return refuse("request_state_rule_mismatch", "requestState was issued under another rule");
      }
      if (!(claims.expires > now())) return refuse("request_state_expired", "requestState expired");
      if (used.has(claims.id)) return refuse("request_state_used", "requestState was already used");
      if (used.size >= MAX_MCP_USED_REQUEST_STATES) prune();
      if (used.size >= MAX_MCP_USED_REQUEST_STATES) {
        return refuse("request_state_used", "too many approvals are in use; ask again later");
      }
      used.set(claims.id, claims.expires);
      return { ok: true };
    },
  };
}
