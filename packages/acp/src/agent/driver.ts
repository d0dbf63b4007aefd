import type { HostDispatch, HostSession } from "@raw/host";

/** A content block of a prompt, as far as a driver reads it (ACP `ContentBlock`). */
export type AcpPromptBlock = {
  readonly type: string;
  readonly text?: string;
  readonly [key: string]: unknown;
};

/** Why a turn ended (ACP `StopReason`). */
export type AcpStopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";

/** One `session/prompt` as a turn driver sees it. */
export interface AcpTurn {
  /** The ACP session id. */
  readonly sessionId: string;
  /** The prompt's content blocks, as the client sent them. */
  readonly prompt: readonly AcpPromptBlock[];
  /** Aborted by `session/cancel` or when the client goes away. */
  readonly signal: AbortSignal;
  /** The host session of this ACP session (its registry, rules, panels, interactions). */
  readonly session: HostSession;
  /**
   * Runs one call through the whole pipeline (rules, hooks, approval as `session/request_permission`, interactions
   * as elicitation), reported to the client as `tool_call` / `tool_call_update`. Never throws for a contract failure.
   */
  call(name: string, args: unknown): Promise<HostDispatch>;
  /** Sends an `agent_message_chunk` with this text (A1-escape untrusted text before). */
  say(text: string): Promise<void>;
  /** Sends an `agent_thought_chunk` with this text. */
  think(text: string): Promise<void>;
}

/**
 * A turn driver: what answers a `session/prompt` (a model loop, or the command mode of `raw acp`). It resolves when
 * the turn is over; the turn ends `cancelled` when its signal was aborted, else with the reason it returns
 * (default `end_turn`). A throw ends the turn `end_turn` with the error told to the client as a message.
 */
export type AcpTurnDriver = (turn: AcpTurn) => Promise<AcpStopReason | undefined>;
