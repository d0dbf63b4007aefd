import type { HandlerResult, ToolHandlerContext } from "@raw/tool-api";
import { errorResult, thrownCode, thrownText } from "../shared/results.js";
import { QUESTIONS_PANEL, UNAVAILABLE_MESSAGE } from "./constants.js";
import { type AskUserArgs, questionsDocument } from "./form.js";

const TERMINAL_CODES: ReadonlyMap<unknown, string> = new Map([
  ["cancelled", "interaction_cancelled"],
  ["expired", "interaction_expired"],
  ["interrupted", "interaction_interrupted"],
]);

/**
 * The `ask_user` handler (`panels.md` §13.8): publishes the questions as one form on the chat panel `questions`
 * through `context.interactions.request` and waits. The result is exactly one `json` block holding the canonical
 * result; `isError` is false only for `answered`, otherwise the code is `interaction_cancelled`,
 * `interaction_expired` or `interaction_interrupted`. Without `context.interactions`: `interaction_unavailable` at
 * once. A thrown error keeps its code when it starts with `interaction_`, otherwise `interaction_error`.
 */
export async function handler(args: AskUserArgs, context: ToolHandlerContext): Promise<HandlerResult> {
  const interactions = context.interactions;
  if (interactions === undefined) return errorResult("interaction_unavailable", UNAVAILABLE_MESSAGE);
  let result: unknown;
  try {
    result = await interactions.request({
      panel: QUESTIONS_PANEL,
      document: questionsDocument(args),
      ...(args.timeout_ms !== undefined ? { timeout_ms: args.timeout_ms } : {}),
    });
  } catch (error) {
    const code = thrownCode(error);
    return errorResult(code?.startsWith("interaction_") ? code : "interaction_error", thrownText(error));
  }
  const status = (result as { status?: unknown } | null)?.status;
  if (status === "answered") return { isError: false, content: [{ type: "json", value: result }] };
  const code = TERMINAL_CODES.get(status);
  if (code === undefined)
    return errorResult("interaction_error", "interaction_error: unexpected interaction result");
  return { isError: true, code, content: [{ type: "json", value: result }] };
}
