import { escapeDisplayText, stringifyForDisplay } from "@raw/schema";

/** The steps of a call trace, in pipeline order (`tool-api.md` §7.2). */
export type StepName =
  | "exposure"
  | "validation"
  | "effects"
  | "policy"
  | "hook"
  | "approval"
  | "handler"
  | "panel"
  | "result";

/** One step of a call trace: a status word, a human-readable text (already A1-escaped), and machine-readable data. */
export interface TraceStep {
  step: StepName;
  status: string;
  text: string;
  data?: Record<string, unknown>;
}

/** Most bytes of argument JSON the one-line header of a call trace shows (`callHeader`). */
export const MAX_HEADER_ARGUMENT_BYTES = 512;

/** Width of the step column of `stepText`. */
const STEP_WIDTH = 11;
/** Width of the status column of `stepText`. */
const STATUS_WIDTH = 10;

function line(text: string, maxBytes?: number): string {
  return escapeDisplayText(text, maxBytes === undefined ? {} : { maxBytes });
}

function block(text: string): string {
  return escapeDisplayText(text, { multiline: true });
}

function isFileEffect(value: unknown): value is { path: string; operation: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { path?: unknown }).path === "string" &&
    typeof (value as { operation?: unknown }).operation === "string"
  );
}

/**
 * Intended effects as display lines (amendment A1): a `{ files: [{ path, operation }] }` value as one
 * `<operation> <path>` line per file (each escaped as one screen line, never shortened; `no files` for none),
 * anything else as indented JSON with controls escaped.
 */
export function effectLines(effects: unknown): string[] {
  const files = (effects as { files?: unknown } | null | undefined)?.files;
  if (
    typeof effects === "object" &&
    effects !== null &&
    Object.keys(effects).length === 1 &&
    Array.isArray(files) &&
    files.every(isFileEffect)
  ) {
    if (files.length === 0) return ["no files"];
    return files.map((file) => `${line(file.operation)} ${line(file.path)}`);
  }
  return stringifyForDisplay(effects, 2).split("\n");
}

/**
 * A result content block as display text (A1): text escaped as a block (LF and TAB kept), JSON indented, an image
 * as a short note with its size, anything else as escaped JSON.
 */
export function blockText(content: unknown): string {
  const b = content as {
    type?: unknown;
    text?: unknown;
    value?: unknown;
    mimeType?: unknown;
    data?: unknown;
  };
  if (b?.type === "text" && typeof b.text === "string") return block(b.text);
  if (b?.type === "json") return stringifyForDisplay(b.value, 2);
  if (b?.type === "image") {
    const size = typeof b.data === "string" ? Math.floor((b.data.length * 3) / 4) : 0;
    return `[image ${line(String(b.mimeType))}, about ${size} bytes]`;
  }
  return stringifyForDisplay(content);
}

/** A value as one line of escaped JSON for display (rules and arguments in traces), shortened to `maxBytes`. */
export function compactJson(value: unknown, maxBytes?: number): string {
  return line(stringifyForDisplay(value), maxBytes);
}

/**
 * One trace step as terminal text: `  <step> <status> <text>` in aligned columns, later lines of the text aligned
 * under its first, ending with LF. The step's items were escaped where they were built; any control still in the
 * text is escaped here.
 */
export function stepText(step: TraceStep): string {
  const pad = " ".repeat(2 + STEP_WIDTH + 1 + STATUS_WIDTH + 1);
  const [first = "", ...rest] = block(step.text).split("\n");
  const head =
    `  ${line(step.step).padEnd(STEP_WIDTH)} ${line(step.status).padEnd(STATUS_WIDTH)} ${first}`.trimEnd();
  return `${[head, ...rest.map((text) => (text === "" ? "" : pad + text))].join("\n")}\n`;
}

/** The header line of a call in a text trace: `call <tool> <arguments as one line of JSON, shortened>` and LF. */
export function callHeader(tool: string, args: unknown): string {
  return `call ${line(tool)} ${compactJson(args, MAX_HEADER_ARGUMENT_BYTES)}\n`;
}
