import { compactJson, displayBlock, displayLine, MAX_HEADER_ARGUMENT_BYTES } from "./present.js";
import type { CallTrace, TraceStep } from "./session.js";

const STEP_WIDTH = 11;
const STATUS_WIDTH = 10;

/**
 * One trace step as text: `  <step> <status> <text>`, later lines of the text aligned under its first. The step's
 * items were escaped where they were built (one screen line each); any control still in the text is escaped here.
 */
export function stepText(step: TraceStep): string {
  const pad = " ".repeat(2 + STEP_WIDTH + 1 + STATUS_WIDTH + 1);
  const [first = "", ...rest] = displayBlock(step.text).split("\n");
  const head =
    `  ${displayLine(step.step).padEnd(STEP_WIDTH)} ${displayLine(step.status).padEnd(STATUS_WIDTH)} ${first}`.trimEnd();
  const lines = [head, ...rest.map((line) => (line === "" ? "" : pad + line))];
  return `${lines.join("\n")}\n`;
}

/** The header line of a call in a text trace: the tool and its arguments as one line of JSON, shortened. */
export function callHeader(tool: string, args: unknown): string {
  return `call ${displayLine(tool)} ${compactJson(args, MAX_HEADER_ARGUMENT_BYTES)}\n`;
}

/** A call trace as JSON data (the `--format json` shape of `raw call`). */
export function traceJson(trace: CallTrace): Record<string, unknown> {
  return {
    tool: trace.tool,
    identity: trace.identity,
    toolCallId: trace.toolCallId,
    arguments: trace.arguments,
    effects: trace.effects ?? null,
    steps: trace.steps,
    hooks: trace.hooks,
    panels: trace.panels.map((panel) => ({ receipt: panel.receipt, text: panel.text })),
    result: { ...trace.result },
    modelLines: trace.modelLines,
  };
}
