import { describeApproval, type HostSession } from "@raw/host";
import type { ToolRule, ToolRuleJson } from "@raw/tool-api";
import type { ModelMessage, ToolApprovalStatus, ToolSet } from "ai";
import { grant, recordAsk, takeAsk } from "./bridge.js";
import { AI_SDK_CODES } from "./codes.js";
import { callDigest, jsonBytesWithin } from "./digest.js";
import { MAX_ARGUMENT_BYTES } from "./limits.js";

/** Options of `rawToolApproval`. */
export interface RawToolApprovalOptions {
  /** The whitelist given to `toAiSdkTools` (a call of a tool outside it is denied `unknown_tool`). */
  readonly whitelist?: readonly string[] | undefined;
}

/** What the AI SDK hands a generic `toolApproval` function (the fields this package reads). */
export interface RawToolApprovalInput {
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
  readonly tools: ToolSet | undefined;
  readonly messages: readonly ModelMessage[];
}

/** A generic `toolApproval` function for `generateText`, `streamText` and agents. */
export type RawToolApproval = (options: RawToolApprovalInput) => Promise<ToolApprovalStatus>;

/** What the registry's own pipeline says of a call up to its policy step, without running anything. */
interface Preview {
  readonly identity?: string;
  readonly effects?: unknown;
  readonly code?: string;
  readonly message?: string;
  readonly reachedPolicy: boolean;
}

/**
 * Runs steps 1–8 of the registry's pipeline (exposure, visibility, validation, the arguments snapshot, effects,
 * policy) and stops at the second abort check, before `PreToolUse` and approval: no hook, no approval callback, no
 * handler, no panel and no observer of the session runs.
 */
async function preview(session: HostSession, name: string, input: unknown, whitelist?: readonly string[]) {
  const stop = new AbortController();
  let identity: string | undefined;
  let effects: unknown;
  let reachedPolicy = false;
  const result = await session.registry.dispatch(
    { name, arguments: input },
    {
      cwd: session.cwd,
      signal: stop.signal,
      ...(whitelist ? { whitelist } : {}),
      onStep: (event) => {
        if (event.step === "exposure" && event.identity !== undefined) identity = event.identity;
        if (event.step === "effects" && event.status === "ok") effects = event.effects;
        if (event.step === "policy") {
          reachedPolicy = true;
          stop.abort();
        }
      },
    },
  );
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  const out: Preview = {
    reachedPolicy,
    ...(identity === undefined ? {} : { identity }),
    ...(effects === undefined ? {} : { effects }),
    ...(reachedPolicy ? {} : { code: result.code ?? "tool_error", message: text }),
  };
  return out;
}

function ruleText(rule: ToolRule | ToolRuleJson | undefined): string {
  return rule === undefined
    ? "the rules"
    : `{ match: ${JSON.stringify(rule.match)}, effect: "${rule.effect}" }`;
}

/** Whether the last message of `messages` approves the approval request of `toolCallId` (what the AI SDK replays). */
function approvedInRequest(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const last = messages.at(-1);
  if (last?.role !== "tool" || !Array.isArray(last.content)) return false;
  const approved = new Set<string>();
  for (const part of last.content) {
    if (part.type === "tool-approval-response" && part.approved === true) approved.add(part.approvalId);
  }
  if (approved.size === 0) return false;
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (
        part.type === "tool-approval-request" &&
        part.toolCallId === toolCallId &&
        approved.has(part.approvalId)
      ) {
        return true;
      }
    }
  }
  return false;
}

function denied(code: string, reason: string): ToolApprovalStatus {
  return { type: "denied", reason: `${code}: ${reason}` };
}

/**
 * The bridged approval (stateless chat UIs with `useChat`): a `toolApproval` function built on the session's
 * rules (`session.explain`, with the effects the registry's own pipeline describes, stopped before any hook, approval
 * or handler runs). `deny` → `denied` with the deciding rule as the reason; `ask` → `user-approval` with the one
 * approval view (A10) as the reason; `allow` → `not-applicable`.
 *
 * On the continuation, the AI SDK runs it again for each approved call: the call is granted only when this session
 * asked about that tool call id (once: a replayed or forged response finds nothing, `approval_unknown`) with the
 * same tool and arguments (`approval_arguments_changed` otherwise), and the grant is good only in that request's
 * `execute`. Pass `experimental_toolApprovalSecret` too, so the AI SDK refuses approval requests the server did not
 * sign.
 */
export function rawToolApproval(session: HostSession, options: RawToolApprovalOptions = {}): RawToolApproval {
  return async ({ toolCall, tools, messages }) => {
    const { toolCallId, toolName: name, input } = toolCall;
    const known = tools !== undefined && Object.hasOwn(tools, name);
    if (!known) return denied(AI_SDK_CODES.unknownTool, `no tool named ${JSON.stringify(name)} is available`);
    if (!jsonBytesWithin(input, MAX_ARGUMENT_BYTES)) {
      return denied(AI_SDK_CODES.argumentsTooLarge, `arguments exceed ${MAX_ARGUMENT_BYTES} bytes of JSON`);
    }
    const replay = approvedInRequest(messages, toolCallId);
    const shown = replay ? takeAsk(session, toolCallId) : undefined;
    const seen = await preview(session, name, input, options.whitelist);
    const hiddenByRule = seen.code === "tool_denied" && seen.identity !== undefined;
    if (!seen.reachedPolicy && !hiddenByRule) {
      if (seen.code === "unknown_tool" || seen.code === "tool_not_exposed" || seen.code === "tool_denied") {
        return denied(seen.code, seen.message ?? "the tool is not available");
      }
      // Invalid arguments and effects errors: `execute` dispatches and the model gets the registry's error.
      return "not-applicable";
    }
    const identity = seen.identity ?? name;
    const decision = session.explain(identity, input, seen.effects);
    if (decision.decision === "deny") {
      const rule = decision.ruleIndex === null ? undefined : session.rules.rules[decision.ruleIndex];
      return denied(
        AI_SDK_CODES.toolDenied,
        `${identity} is denied by rule ${decision.ruleIndex} ${ruleText(rule)}`,
      );
    }
    if (decision.decision === "allow") return "not-applicable";
    const digest = callDigest(name, input);
    if (!replay) {
      recordAsk(session, toolCallId, digest);
      const view = describeApproval(
        { identity, arguments: input, ...(seen.effects === undefined ? {} : { effects: seen.effects }) },
        { cwd: session.cwd },
      );
      return { type: "user-approval", reason: view.text };
    }
    if (shown === undefined) {
      return denied(
        AI_SDK_CODES.approvalUnknown,
        `this session did not ask about tool call ${JSON.stringify(toolCallId)} (a forged or replayed approval, or one from before a restart); the call must be asked again`,
      );
    }
    if (shown !== digest) {
      return denied(
        AI_SDK_CODES.approvalArgumentsChanged,
        `the approved call of ${identity} had other arguments than this one; the call must be asked again`,
      );
    }
    grant(session, messages, toolCallId, digest);
    return "approved";
  };
}
