import type { ToolResult } from "@raw/tool-api";

/**
 * What a tool of `toAiSdkTools` throws when the call ended with an error result (a rule, a hook, approval, invalid
 * arguments, the handler): the AI SDK turns it into the tool's error, and the model reads `message`, which starts
 * with the stable `code` (`approval_denied: ...`).
 */
export class RawToolCallError extends Error {
  /** The result's stable snake_case code. */
  readonly code: string;
  /** The capped error result, when the registry produced one. */
  readonly result: ToolResult | undefined;

  constructor(code: string, message: string, result?: ToolResult) {
    super(`${code}: ${message}`);
    this.name = "RawToolCallError";
    this.code = code;
    this.result = result;
  }

  /** The message alone (led by the code): what the AI SDK gives the model as the tool's error text. */
  override toString(): string {
    return this.message;
  }
}

/** The text of a result's text blocks, joined by line breaks. */
export function resultText(result: ToolResult): string {
  return result.content
    .map((block) =>
      block.type === "text" ? block.text : block.type === "json" ? JSON.stringify(block.value) : "",
    )
    .filter((text) => text !== "")
    .join("\n");
}
