import type { HostSession } from "@raw/host";
import { MAX_PENDING_APPROVALS } from "./limits.js";

/**
 * What the bridged approval of one session remembers: the asks awaiting an answer (tool call id → digest of the
 * shown call, at most `MAX_PENDING_APPROVALS`), and the grants of each request (keyed by that request's message
 * array, so a grant never outlives the request whose `toolApproval` saw the approval, nor reaches another request).
 */
interface BridgeState {
  readonly issued: Map<string, string>;
  readonly grants: WeakMap<object, Map<string, string>>;
}

const bridges = new WeakMap<HostSession, BridgeState>();

function bridgeOf(session: HostSession): BridgeState {
  let state = bridges.get(session);
  if (state === undefined) {
    state = { issued: new Map(), grants: new WeakMap() };
    bridges.set(session, state);
  }
  return state;
}

/** Records that `toolCallId` was shown for approval with the call of `digest` (the oldest ask drops past the cap). */
export function recordAsk(session: HostSession, toolCallId: string, digest: string): void {
  const { issued } = bridgeOf(session);
  issued.delete(toolCallId);
  issued.set(toolCallId, digest);
  while (issued.size > MAX_PENDING_APPROVALS) {
    const oldest = issued.keys().next().value as string;
    issued.delete(oldest);
  }
}

/** Takes the ask of `toolCallId` (once: a second response for it finds nothing). */
export function takeAsk(session: HostSession, toolCallId: string): string | undefined {
  const { issued } = bridgeOf(session);
  const digest = issued.get(toolCallId);
  issued.delete(toolCallId);
  return digest;
}

/** Grants `toolCallId` with the call of `digest` in the request whose message array is `messages`. */
export function grant(session: HostSession, messages: object, toolCallId: string, digest: string): void {
  const { grants } = bridgeOf(session);
  let granted = grants.get(messages);
  if (granted === undefined) {
    granted = new Map();
    grants.set(messages, granted);
  }
  granted.set(toolCallId, digest);
}

/** Takes the grant of `toolCallId` in the request of `messages` (once), or `undefined`. */
export function takeGrant(session: HostSession, messages: unknown, toolCallId: string): string | undefined {
  if (typeof messages !== "object" || messages === null) return undefined;
  const granted = bridges.get(session)?.grants.get(messages);
  const digest = granted?.get(toolCallId);
  granted?.delete(toolCallId);
  return digest;
}
