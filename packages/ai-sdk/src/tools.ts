import type { HostSession } from "@raw/host";
import { dynamicTool, jsonSchema, type ToolSet } from "ai";
import { takeGrant } from "./bridge.js";
import { AI_SDK_CODES } from "./codes.js";
import { callDigest, jsonBytesWithin } from "./digest.js";
import { RawToolCallError, resultText } from "./errors.js";
import { MAX_ARGUMENT_BYTES } from "./limits.js";
import { type AiSdkToolOutput, modelOutputOf } from "./model-output.js";

/** Options of `toAiSdkTools`. */
export interface ToAiSdkToolsOptions {
  /** Model-facing names to expose (default: every tool the session's rules do not hide). */
  readonly whitelist?: readonly string[] | undefined;
}

/** The `metadata` of each tool (the AI SDK's `toolCall.toolMetadata`): the tool's canonical identity. */
export type RawToolMetadata = { identity: string };

/**
 * The session's tools as an AI SDK tool set: every tool the rules do not hide (and the whitelist admits) as a
 * `dynamicTool` whose `jsonSchema(inputSchema)` passes every input through, so validation, effects, rules, hooks,
 * approval, the handler, panels and the output cap all stay in `session.dispatch` (invalid input reaches the model
 * as the registry's `invalid_arguments` text). `execute` dispatches with the AI SDK's `toolCallId` and
 * `abortSignal`; an error result is thrown as a `RawToolCallError` (the tool's error, its message led by the code);
 * `toModelOutput` gives the model the capped content and the panel lines, never a panel block.
 *
 * Approval is in-band by default: an `ask` waits inside `execute` for the session's `approve`. With
 * `rawToolApproval(session)` as the call's `toolApproval`, a call approved in the chat runs with a grant bound to its
 * tool call id, its arguments and the request whose `toolApproval` saw the approval.
 */
export function toAiSdkTools(session: HostSession, options: ToAiSdkToolsOptions = {}): ToolSet {
  const entries: [string, ToolSet[string]][] = [];
  for (const definition of session.definitions(options.whitelist)) {
    const name = definition.name;
    const identity = session.registry.inspectionDefinition(name)?.identity ?? name;
    const metadata: RawToolMetadata = { identity };
    const tool = dynamicTool({
      description: definition.description,
      inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0], {
        // Validation belongs to the registry: the model gets its `invalid_arguments` text.
        validate: (value) => ({ success: true, value }),
      }),
      metadata,
      execute: async (input, { toolCallId, abortSignal, messages }): Promise<AiSdkToolOutput> => {
        const granted = takeGrant(session, messages, toolCallId);
        if (!jsonBytesWithin(input, MAX_ARGUMENT_BYTES)) {
          throw new RawToolCallError(
            AI_SDK_CODES.argumentsTooLarge,
            `arguments of ${name} exceed ${MAX_ARGUMENT_BYTES} bytes of JSON; send smaller arguments`,
          );
        }
        const approve =
          granted === undefined
            ? undefined
            : (request: { toolCallId?: string; name: string; arguments: unknown }) =>
                request.toolCallId === toolCallId && callDigest(request.name, request.arguments) === granted;
        const done = await session.dispatch(
          { name, arguments: input, toolCallId },
          { signal: abortSignal, ...(approve ? { approve } : {}) },
        );
        const { result } = done;
        if (result.isError) {
          throw new RawToolCallError(
            result.code ?? "tool_error",
            resultText(result) || "the tool failed",
            result,
          );
        }
        return {
          identity: done.identity ?? identity,
          content: result.content,
          panelLines: done.panels.modelLines,
          ...(result.truncated ? { truncated: true } : {}),
        };
      },
      toModelOutput: ({ output }) => modelOutputOf(output as AiSdkToolOutput),
    });
    entries.push([name, tool]);
  }
  // Own properties only (a tool may be named `__proto__`): the AI SDK reads tool sets with own-property lookups.
  return Object.fromEntries(entries);
}
