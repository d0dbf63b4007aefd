import { escapeDisplayText } from "@raw/schema";
import { MAX_COMMAND_PROMPT_BYTES } from "../limits.js";
import type { AcpTurn, AcpTurnDriver } from "./driver.js";

/** The help a command-mode turn answers to text it does not understand. */
export const COMMAND_MODE_HELP = [
  "This is Raw's command mode: each prompt runs one tool call through the whole pipeline.",
  '  <tool name> <JSON arguments>   run one call, e.g. write_file {"operations":[...]}',
  "  /tools                         list the tools and their identities",
].join("\n");

/** The text of a prompt: its text blocks joined, or `undefined` past `MAX_COMMAND_PROMPT_BYTES`. */
function promptText(turn: AcpTurn): string | undefined {
  const text = turn.prompt
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("\n")
    .trim();
  return Buffer.byteLength(text) > MAX_COMMAND_PROMPT_BYTES ? undefined : text;
}

/** The `/tools` answer: one line per tool, `<name>  <identity>`, A1-escaped. */
function toolsList(turn: AcpTurn): string {
  const lines = turn.session.definitions().map((definition) => {
    const identity = turn.session.registry.inspectionDefinition(definition.name)?.identity ?? definition.name;
    return `${escapeDisplayText(definition.name)}  ${escapeDisplayText(identity)}`;
  });
  return lines.length === 0 ? "No tools." : `Tools:\n${lines.join("\n")}`;
}

/**
 * The command-mode turn driver of `raw acp`, for trying tools from an editor: a prompt `<tool name> <JSON
 * arguments>` runs that one call (the client sees the tool card, permission buttons, plan and form), `/tools` lists
 * the tools and their identities, other text gets a short help. The turn ends `end_turn`, also when the call was
 * denied or failed (its code is in the final `tool_call_update` and in a one-line message).
 */
export const commandModeDriver: AcpTurnDriver = async (turn) => {
  const text = promptText(turn);
  if (text === undefined) {
    await turn.say(`prompt_too_large: the prompt is over ${MAX_COMMAND_PROMPT_BYTES} bytes`);
    return "end_turn";
  }
  if (text === "/tools") {
    await turn.say(toolsList(turn));
    return "end_turn";
  }
  const match = /^([^\s{[]+)\s*([\s\S]*)$/.exec(text);
  if (match === null || text.startsWith("/")) {
    await turn.say(COMMAND_MODE_HELP);
    return "end_turn";
  }
  const name = match[1] as string;
  const rest = (match[2] ?? "").trim();
  let args: unknown = {};
  if (rest !== "") {
    try {
      args = JSON.parse(rest);
    } catch {
      await turn.say(
        `invalid_arguments: the arguments of ${escapeDisplayText(name)} are not JSON\n\n${COMMAND_MODE_HELP}`,
      );
      return "end_turn";
    }
  }
  const dispatched = await turn.call(name, args);
  const { result } = dispatched;
  if (!turn.signal.aborted) {
    await turn.say(
      result.isError
        ? `${escapeDisplayText(name)} failed: ${escapeDisplayText(result.code ?? "tool_error")}`
        : `${escapeDisplayText(name)} done${result.code ? ` (${escapeDisplayText(result.code)})` : ""}`,
    );
  }
  return "end_turn";
};
