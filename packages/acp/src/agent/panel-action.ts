import { randomUUID } from "node:crypto";
import { RequestError } from "@agentclientprotocol/sdk";
import type { HostSession } from "@raw/host";
import { resolveAction } from "@raw/panel/host";
import type { AcpSessionState } from "./acp-session.js";

/** JSON-RPC error code of `_raw/panel/action` while the session is busy (a turn or another action runs). */
export const PANEL_ACTION_BUSY = -32002;
/** JSON-RPC error code of `_raw/panel/action` when the session's rules deny (or hide) the action's tool. */
export const PANEL_ACTION_DENIED = -32004;
/** Longest `panel`, `action`, `block` or `item` string of a `_raw/panel/action` request, in characters. */
export const MAX_PANEL_ACTION_FIELD_CHARS = 512;

/** Stable codes of `_raw/panel/action` (in the error's `data.code`). */
export const PANEL_ACTION_CODES = Object.freeze({
  /** The client did not advertise `_meta.raw.panels`. */
  unsupported: "panel_actions_unsupported",
  /** The params are not `{ sessionId, panel, action, block?, item? }` with strings. */
  invalid: "panel_action_invalid",
  /** No panel with that id in the session. */
  unknownPanel: "unknown_panel",
  /** `panels.md` §10.3 refused the selection (its exact message). */
  invalidAction: "invalid_action",
  /** The panel's owner is not a tool of the session any more. */
  stalePanel: "stale_panel",
  /** A turn or another action is running. */
  busy: "session_busy",
  /** The session's rules deny (or hide) the declaring tool. */
  denied: "action_denied",
  /** A `response` action with no pending question on the panel, or a `submit` (answers come through the form). */
  noQuestion: "interaction_unknown",
});

/** What `_raw/panel/action` answers: the operation id, and what the action was. */
export interface PanelActionAnswer {
  readonly operationId: string;
  readonly kind: "tool" | "prompt" | "response";
  /** A prompt action's text (the client drafts it; nothing runs on the agent). */
  readonly text?: string;
  readonly send?: boolean;
}

function fail(code: number, raw: string, message: string): RequestError {
  return new RequestError(code, `${raw}: ${message}`, { code: raw });
}

function field(value: unknown): value is string {
  return typeof value === "string" && value !== "" && value.length <= MAX_PANEL_ACTION_FIELD_CHARS;
}

function optionalField(value: unknown): value is string | undefined {
  return value === undefined || field(value);
}

/**
 * Runs a `_raw/panel/action` request (amendment A12, `panels.md` §10) against the session's panel host: the panel
 * (`<owner>#<id>`, or a bare id when exactly one panel has it) and its current document resolve the action; a tool
 * action runs the declaring tool again through the session's rules, hooks and approval with
 * `source: "user_action"` and the operation id as call id (a click is never approval), reported as `tool_call` /
 * `tool_call_update`; it answers at once with `{ operationId }`. A prompt action is returned for the client to draft;
 * a `cancel` response action cancels the question pending on that panel.
 */
export function runPanelAction(state: AcpSessionState, params: Record<string, unknown>): PanelActionAnswer {
  const host = state.host as HostSession;
  const { panel, action, block, item } = params;
  if (!field(panel) || !field(action) || !optionalField(block) || !optionalField(item)) {
    throw fail(
      -32602,
      PANEL_ACTION_CODES.invalid,
      `send { sessionId, panel, action, block?, item? } with strings of at most ${MAX_PANEL_ACTION_FIELD_CHARS} characters`,
    );
  }
  // A chat panel (a form's question) is found through its pending request's view instance.
  const asked = state.pendingInteractions.get(panel);
  const found = panel.includes("#")
    ? (host.panels.get(panel) ??
      (asked === undefined
        ? undefined
        : {
            fullId: panel,
            owner: panel.slice(0, panel.lastIndexOf("#")),
            declaration: asked.declaration,
            document: asked.document,
          }))
    : (() => {
        const matches = host.panels.list().filter((p) => p.id === panel);
        return matches.length === 1 ? matches[0] : undefined;
      })();
  if (found === undefined)
    throw fail(-32602, PANEL_ACTION_CODES.unknownPanel, "no such panel in this session");
  const tool = host
    .definitions()
    .map((definition) => host.registry.inspectionDefinition(definition.name))
    .find((inspection) => inspection?.identity === found.owner);
  const resolved = resolveAction(
    found.declaration,
    found.document,
    { action, ...(block === undefined ? {} : { block }), ...(item === undefined ? {} : { item }) },
    tool === undefined ? {} : { toolName: tool.name, operationId: state.nextCallId() },
  );
  if (!resolved.ok) {
    throw fail(-32602, PANEL_ACTION_CODES.invalidAction, resolved.issues[0]?.message ?? "invalid action");
  }
  if (resolved.kind === "prompt") {
    return { operationId: randomUUID(), kind: "prompt", text: resolved.text, send: resolved.send };
  }
  if (resolved.kind === "response") {
    const pending = state.pendingInteractions.get(found.fullId);
    if (pending === undefined || resolved.response !== "cancel") {
      throw fail(
        -32602,
        PANEL_ACTION_CODES.noQuestion,
        pending === undefined
          ? "this panel has no pending question"
          : "answer the question through its form; only cancel is an action",
      );
    }
    const operationId = randomUUID();
    void Promise.resolve(
      host.interactions.submit({
        requestId: pending.requestId,
        expectedRevision: pending.revision,
        idempotencyKey: operationId,
        response: "cancel",
      }),
    ).catch(() => undefined);
    return { operationId, kind: "response" };
  }
  const explained = host.explain(found.owner, resolved.arguments);
  if (explained.hidden || explained.decision === "deny") {
    throw fail(PANEL_ACTION_DENIED, PANEL_ACTION_CODES.denied, "the session's rules deny this action");
  }
  if (tool === undefined) throw fail(-32602, PANEL_ACTION_CODES.stalePanel, "the panel's tool is not loaded");
  if (state.busy)
    throw fail(PANEL_ACTION_BUSY, PANEL_ACTION_CODES.busy, "a turn or another action is running");
  const operationId = resolved.call.toolCallId;
  state.actions++;
  void state
    .call(tool.name, resolved.arguments, state.closed.signal, {
      source: "user_action",
      toolCallId: operationId,
    })
    .catch(() => undefined)
    .finally(() => {
      state.actions--;
    });
  return { operationId, kind: "tool" };
}
