import { createSessionGrants, type SessionGrants } from "../agent/grants.js";
import { MAX_GATE_SESSIONS } from "./limits.js";

/** What the gate keeps per ACP session: its `*_always` answers and the agent's latest open tool call. */
export interface GateSessionState {
  readonly grants: SessionGrants;
  /** The `toolCallId` of the agent's latest `tool_call` not yet `completed` or `failed`. */
  openToolCall: string | undefined;
}

/** The per-session state of one gate, at most `MAX_GATE_SESSIONS` sessions (the least recently used is forgotten). */
export class GateSessions {
  private readonly sessions = new Map<string, GateSessionState>();

  /** The state of `sessionId`, created on first use. */
  get(sessionId: string): GateSessionState {
    let state = this.sessions.get(sessionId);
    if (state !== undefined) {
      this.sessions.delete(sessionId);
    } else {
      state = { grants: createSessionGrants(), openToolCall: undefined };
      if (this.sessions.size >= MAX_GATE_SESSIONS) {
        const oldest = this.sessions.keys().next().value;
        if (oldest !== undefined) this.sessions.delete(oldest);
      }
    }
    this.sessions.set(sessionId, state);
    return state;
  }

  /** Follows the agent's `session/update` stream: which tool call of the session is open. */
  observe(params: unknown): void {
    if (typeof params !== "object" || params === null) return;
    const { sessionId, update } = params as { sessionId?: unknown; update?: unknown };
    if (typeof sessionId !== "string" || typeof update !== "object" || update === null) return;
    const { sessionUpdate, toolCallId, status } = update as Record<string, unknown>;
    if (sessionUpdate !== "tool_call" && sessionUpdate !== "tool_call_update") return;
    if (typeof toolCallId !== "string") return;
    const state = this.get(sessionId);
    if (status === "completed" || status === "failed") {
      if (state.openToolCall === toolCallId) state.openToolCall = undefined;
    } else if (sessionUpdate === "tool_call" || status === "in_progress" || status === "pending") {
      state.openToolCall = toolCallId;
    }
  }
}
