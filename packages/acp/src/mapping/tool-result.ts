import { escapeDisplayText } from "@raw/schema";
import type { ToolResult } from "@raw/tool-api";
import { MAX_TOOL_RESULT_TEXT_BYTES } from "../limits.js";

/** A text content block of a tool call. */
export type ToolCallTextContent = { type: "content"; content: { type: "text"; text: string } };

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "null";
  } catch {
    return "[json]";
  }
}

function cutBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  const cut = Buffer.from(text)
    .subarray(0, max)
    .toString("utf8")
    .replace(/\uFFFD+$/u, "");
  return `${cut}\n… ${Buffer.byteLength(text) - Buffer.byteLength(cut)} more bytes`;
}

/**
 * The final `content` of a tool call (amendment A12): the capped result's text blocks (a non-text block named by
 * its type), with the result code first when the call failed, A1-escaped and cut to `MAX_TOOL_RESULT_TEXT_BYTES`.
 */
export function resultContent(result: ToolResult): ToolCallTextContent[] {
  const parts: string[] = [];
  if (result.isError && result.code) parts.push(result.code);
  for (const block of result.content) {
    const b = block as { type: string; text?: unknown; value?: unknown };
    if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b.type === "json") parts.push(safeJson(b.value));
    else parts.push(`[${b.type}]`);
  }
  const text = cutBytes(escapeDisplayText(parts.join("\n"), { multiline: true }), MAX_TOOL_RESULT_TEXT_BYTES);
  return text === "" ? [] : [{ type: "content", content: { type: "text", text } }];
}
