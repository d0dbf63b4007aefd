import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { loadToolFolders } from "@raw/tool-api";
import { bundledToolFolders } from "@raw/tools";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";

/** One scripted model turn: tool calls (their input as JSON text) or a closing text. */
export type Turn = { calls: { id: string; name: string; input: string }[] } | { text: string };

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function content(turn: Turn): LanguageModelV4Content[] {
  if ("text" in turn) return [{ type: "text", text: turn.text }];
  return turn.calls.map((call) => ({
    type: "tool-call",
    toolCallId: call.id,
    toolName: call.name,
    input: call.input,
  }));
}

function finish(turn: Turn) {
  return "text" in turn
    ? { unified: "stop" as const, raw: "stop" }
    : { unified: "tool-calls" as const, raw: "tool_calls" };
}

/**
 * A `MockLanguageModelV4` that plays `turns` in order (for `generateText` and `streamText` alike) and keeps each
 * prompt it was given, so a test reads what the model saw. After the last turn it answers "done".
 */
export function scriptedModel(turns: Turn[]) {
  const prompts: LanguageModelV4CallOptions["prompt"][] = [];
  let next = 0;
  const take = (options: LanguageModelV4CallOptions): Turn => {
    prompts.push(options.prompt);
    return turns[next++] ?? { text: "done" };
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options): Promise<LanguageModelV4GenerateResult> => {
      const turn = take(options);
      return { content: content(turn), finishReason: finish(turn), usage, warnings: [] };
    },
    doStream: async (options) => {
      const turn = take(options);
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if ("text" in turn) {
        parts.push(
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: turn.text },
          { type: "text-end", id: "t" },
        );
      } else {
        for (const call of turn.calls) {
          parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input });
        }
      }
      parts.push({ type: "finish", finishReason: finish(turn), usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return { model, prompts };
}

/** Every tool result the model was shown, by tool call id, in the order of the prompts. */
export function toolResultsSeen(prompts: LanguageModelV4CallOptions["prompt"][]): Map<string, unknown> {
  const seen = new Map<string, unknown>();
  for (const prompt of prompts) {
    for (const message of prompt) {
      if (message.role !== "tool") continue;
      for (const part of message.content) {
        if (part.type === "tool-result") seen.set(part.toolCallId, part.output);
      }
    }
  }
  return seen;
}

/** A fresh working folder (its real path). */
export function freshCwd(): string {
  return realpathSync.native(mkdtempSync(join(tmpdir(), "raw-ai-sdk-")));
}

/** The bundled tools (`@raw/tools`) as a host session loads them. */
export async function bundledTools() {
  return loadToolFolders(bundledToolFolders());
}
