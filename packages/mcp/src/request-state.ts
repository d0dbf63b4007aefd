import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

/**
 * Longest `requestState` a client may send back (and this server issues), in characters; a longer one is refused
 * unread. A state carries the accepted answers of earlier forms of the same call, so it is larger than a MAC.
 */
export const MAX_MCP_REQUEST_STATE_CHARS = 65_536;

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

/**
 * Where a call stands between rounds (multi round-trip requests): which question the state was issued with, whether
 * Raw's approval was already given in this chain, the accepted answers of earlier forms, and how many times the
 * pending form was asked again after an invalid answer.
 */
export interface RequestStateChain {
  /** The question this state was issued with: Raw's approval, or the form at `answers.length`. */
  readonly asked: "approval" | "form";
  /** True once Raw's approval was accepted earlier in this chain (for this identity, arguments and rule). */
  readonly approved: boolean;
  /** The accepted answers of the call's earlier forms, in order. */
  readonly answers: readonly unknown[];
  /** How many invalid answers the pending form already had. */
  readonly tries: number;
}

/**
 * What a state binds (amendment A11): the MCP tool name, the call's identity (empty before any approval), its
 * arguments' digest, the deciding rule (empty before any approval), expiry, a single-use id, and the chain.
 */
export interface RequestStateClaims extends RequestStateChain {
  readonly tool: string;
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
  /** The MCP tool name (default: the identity). */
  readonly tool?: string | undefined;
}

/** What `check` compares: each given part of the call (`arguments` when the key is present). */
export type RequestStateCheck = {
  readonly [K in keyof RequestStateSubject]?: RequestStateSubject[K] | undefined;
};

/** A refusal of a state: its stable code and a message naming why. */
export interface RequestStateRefused {
  readonly ok: false;
  readonly code: RequestStateRefusal;
  readonly message: string;
}

/** Issues and checks authenticated, single-use approval states (HMAC-SHA256 with a per-process random key). */
export interface RequestStateKeeper {
  /**
   * A state for `subject` (and where its chain stands; default: Raw's approval asked, nothing answered), or
   * `undefined` when too many used ids are still remembered or it would be longer than
   * `MAX_MCP_REQUEST_STATE_CHARS`.
   */
  issue(subject: RequestStateSubject, chain?: RequestStateChain): string | undefined;
  /** Checks `state` against `subject` and, when it holds, marks its id used; else the refusal code. */
  redeem(state: unknown, subject: RequestStateSubject): { ok: true } | RequestStateRefused;
  /**
   * Checks that `state` was issued here (MAC) and is unexpired; gives its claims, to be checked against the call
   * with `check`, then redeemed with `consume`.
   */
  open(state: unknown): { ok: true; claims: RequestStateClaims } | RequestStateRefused;
  /** Marks opened claims used (single use); `request_state_used` when they already were. */
  consume(claims: RequestStateClaims): { ok: true } | RequestStateRefused;
  /** Checks opened claims against the call (tool, identity, arguments, rule; empty claims are not compared). */
  check(claims: RequestStateClaims, subject: RequestStateCheck): { ok: true } | RequestStateRefused;
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
  const invalid = () => refuse("request_state_invalid", "requestState is not a state this server issued");
  const open = (state: unknown): { ok: true; claims: RequestStateClaims } | RequestStateRefused => {
    if (typeof state !== "string" || state.length > MAX_MCP_REQUEST_STATE_CHARS) return invalid();
    const dot = state.indexOf(".");
    const body = dot < 0 ? "" : state.slice(0, dot);
    const given = Buffer.from(dot < 0 ? "" : state.slice(dot + 1), "base64url");
    const expected = mac(body);
    if (body === "" || given.length !== expected.length || !timingSafeEqual(given, expected))
      return invalid();
    let claims: RequestStateClaims;
    try {
      claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as RequestStateClaims;
    } catch {
      return invalid();
    }
    if (typeof claims !== "object" || claims === null || typeof claims.id !== "string") return invalid();
    if (!(claims.expires > now())) return refuse("request_state_expired", "requestState expired");
    return { ok: true, claims };
  };
  const consume = (claims: RequestStateClaims): { ok: true } | RequestStateRefused => {
    if (used.has(claims.id)) return refuse("request_state_used", "requestState was already used");
    if (used.size >= MAX_MCP_USED_REQUEST_STATES) prune();
    if (used.size >= MAX_MCP_USED_REQUEST_STATES) {
      return refuse("request_state_used", "too many approvals are in use; ask again later");
    }
    used.set(claims.id, claims.expires);
    return { ok: true };
  };
  const check = (
    claims: RequestStateClaims,
    subject: RequestStateCheck,
  ): { ok: true } | RequestStateRefused => {
    if (subject.tool !== undefined && claims.tool !== subject.tool) {
      return refuse("request_state_tool_mismatch", "requestState was issued for another tool");
    }
    if (subject.identity !== undefined && claims.identity !== "" && claims.identity !== subject.identity) {
      return refuse("request_state_tool_mismatch", "requestState was issued for another tool");
    }
    if ("arguments" in subject && claims.arguments !== argumentsDigest(subject.arguments)) {
      return refuse("request_state_arguments_mismatch", "requestState was issued for other arguments");
    }
    if (subject.rule !== undefined && claims.rule !== subject.rule) {
      return refuse("request_state_rule_mismatch", "requestState was issued under another rule");
    }
    return { ok: true };
  };
  return {
    issue(subject, chain = { asked: "approval", approved: false, answers: [], tries: 0 }) {
      if (used.size >= MAX_MCP_USED_REQUEST_STATES) prune();
      if (used.size >= MAX_MCP_USED_REQUEST_STATES) return undefined;
      const claims: RequestStateClaims = {
        tool: subject.tool ?? subject.identity,
        identity: subject.identity,
        arguments: argumentsDigest(subject.arguments),
        rule: subject.rule,
        expires: now() + ttlMs,
        // 122 random bits from the CSPRNG, drawn from Node's pre-filled pool (no syscall per state).
        id: randomUUID(),
        asked: chain.asked,
        approved: chain.approved,
        answers: chain.answers,
        tries: chain.tries,
      };
      const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
      const state = `${body}.${mac(body).toString("base64url")}`;
      return state.length > MAX_MCP_REQUEST_STATE_CHARS ? undefined : state;
    },
    redeem(state, subject) {
      const opened = open(state);
      if (!opened.ok) return opened;
      const bound = check(opened.claims, { ...subject, tool: undefined });
      return bound.ok ? consume(opened.claims) : bound;
    },
    open,
    check,
    consume,
  };
}
