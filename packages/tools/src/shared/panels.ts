import type { HandlerResult } from "@raw/tool-api";
import { errorResult, thrownCode, thrownText } from "./results.js";

/** An error result for a rejected `context.panels.update`: the panel error's code and message. */
export function panelErrorResult(error: unknown): HandlerResult {
  return errorResult(thrownCode(error) ?? "panel_invalid", thrownText(error));
}
