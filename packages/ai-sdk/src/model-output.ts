import type { ContentBlock } from "@raw/tool-api";

/** What a tool of `toAiSdkTools` returns (the AI SDK's tool output, also what a chat UI receives): JSON only. */
export interface AiSdkToolOutput {
  /** The canonical identity of the tool that ran. */
  readonly identity: string;
  /** The capped result's content blocks (text, json, image); panel blocks never appear here (`panels.md` §6.2). */
  readonly content: readonly ContentBlock[];
  /** The panel lines a model reads (`panels.md` §7): the confirmation line of a call that only wrote panels. */
  readonly panelLines: readonly string[];
  /** True when the result was cut to the output budget (`tool-api.md` §8.3). */
  readonly truncated?: boolean;
}

/** One part of the AI SDK's `content` tool-result output. */
export type AiSdkModelPart =
  | { type: "text"; text: string }
  | { type: "file"; data: { type: "data"; data: string }; mediaType: string };

/** The AI SDK's model output of a tool result (`toModelOutput`). */
export type AiSdkModelOutput = { type: "content"; value: AiSdkModelPart[] };

/**
 * The model's view of a tool output: each content block (text as is, json as its JSON text, an image as file data),
 * then the panel lines. Built from the capped result, so it never exceeds the call's output budget by more than the
 * panel lines.
 */
export function modelOutputOf(output: AiSdkToolOutput): AiSdkModelOutput {
  const value: AiSdkModelPart[] = [];
  for (const block of output.content) {
    if (block.type === "text") value.push({ type: "text", text: block.text });
    else if (block.type === "json") value.push({ type: "text", text: JSON.stringify(block.value) });
    else if (block.type === "image")
      value.push({ type: "file", data: { type: "data", data: block.data }, mediaType: block.mimeType });
  }
  for (const line of output.panelLines) value.push({ type: "text", text: line });
  if (value.length === 0) value.push({ type: "text", text: "" });
  return { type: "content", value };
}
