import { normalizePath } from "@raw/effects";
import { escapeDisplayText, formatByteCount, stringifyForDisplay, utf8Bytes } from "@raw/schema";

/** Most bytes of argument JSON an approval view shows; the rest is stated as `… N more bytes`. */
export const MAX_APPROVAL_ARGUMENT_BYTES = 1024;
/** Most lines of indented argument JSON an approval view shows. */
export const MAX_APPROVAL_ARGUMENT_LINES = 16;

/** What `describeApproval` reads: an approval request of `@raw/tool-api` or any request of that shape. */
export interface ApprovalSubject {
  readonly identity: string;
  readonly arguments: unknown;
  readonly effects?: unknown;
}

/** One intended effect of an approval view, A1-escaped. */
export interface ApprovalEffectLine {
  /** The operation (`write`, `delete`, …), escaped; `change` when a file effect names none. */
  readonly operation: string;
  /** The absolute normalized path, escaped; for an effect that is not a file, its JSON text. */
  readonly path: string;
  /** True when the path lies outside the session's working folder. */
  readonly outside: boolean;
  /** The whole line as `text` shows it (`write /work/a.txt`, `write /etc/passwd outside`). */
  readonly line: string;
}

/**
 * The one approval view of amendment A10: what a person reads before answering an `ask`, on every surface. Every
 * string in it is already A1-escaped (a bidi override reads `\u202e`, ESC reads `\x1b`); renderers lay it out and
 * never escape again.
 */
export interface ApprovalView {
  /** The canonical identity, escaped. */
  readonly identity: string;
  /** `undefined` when the tool declares no effects; else every intended effect, never shortened. */
  readonly effects: readonly ApprovalEffectLine[] | undefined;
  /** The arguments as indented JSON, escaped, shortened with the stated remainder. */
  readonly arguments: string;
  /** UTF-8 bytes of argument JSON left out (0 when whole). */
  readonly argumentsOmittedBytes: number;
  /** The view as lines: the identity, the effects one per line, then the argument lines. */
  readonly lines: readonly string[];
  /** `lines` joined with LF. */
  readonly text: string;
}

/** Options of `describeApproval`. */
export interface DescribeApprovalOptions {
  /** The session's working folder (absolute): relative effect paths resolve against it; paths outside it are marked. */
  readonly cwd: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function json(value: unknown, space?: number): string {
  try {
    return stringifyForDisplay(value, space);
  } catch {
    return escapeDisplayText(String(value));
  }
}

function isInside(cwd: string, path: string): boolean {
  return path === cwd || path.startsWith(cwd === "/" ? "/" : `${cwd}/`);
}

function fileLine(cwd: string, file: unknown): ApprovalEffectLine {
  if (isRecord(file) && typeof file.path === "string") {
    const absolute = normalizePath(cwd, file.path);
    const operation = escapeDisplayText(typeof file.operation === "string" ? file.operation : "change");
    const path = escapeDisplayText(absolute);
    const outside = !isInside(cwd, absolute);
    return { operation, path, outside, line: `${operation} ${path}${outside ? " outside" : ""}` };
  }
  const text = json(file);
  return { operation: "change", path: text, outside: false, line: `change ${text}` };
}

function effectLines(cwd: string, effects: unknown): ApprovalEffectLine[] {
  const files = isRecord(effects) ? effects.files : undefined;
  if (Array.isArray(files)) {
    const lines = files.map((file) => fileLine(cwd, file));
    const rest = Object.keys(effects as object).filter((key) => key !== "files");
    if (rest.length > 0) {
      const other = Object.fromEntries(rest.map((key) => [key, (effects as Record<string, unknown>)[key]]));
      const text = json(other);
      lines.push({ operation: "other", path: text, outside: false, line: `other ${text}` });
    }
    return lines;
  }
  const text = json(effects);
  return [{ operation: "other", path: text, outside: false, line: `other ${text}` }];
}

/** The argument excerpt: at most `MAX_APPROVAL_ARGUMENT_LINES` lines and `MAX_APPROVAL_ARGUMENT_BYTES` bytes. */
function argumentExcerpt(args: unknown): { text: string; omitted: number } {
  const full = json(args, 2);
  const total = utf8Bytes(full);
  let keep = full;
  const lines = full.split("\n");
  if (lines.length > MAX_APPROVAL_ARGUMENT_LINES)
    keep = lines.slice(0, MAX_APPROVAL_ARGUMENT_LINES).join("\n");
  if (utf8Bytes(keep) > MAX_APPROVAL_ARGUMENT_BYTES) {
    // Cut on a code point boundary of the escaped text: no raw control can appear at the cut.
    let bytes = 0;
    let end = 0;
    for (const ch of keep) {
      const size = utf8Bytes(ch);
      if (bytes + size > MAX_APPROVAL_ARGUMENT_BYTES) break;
      bytes += size;
      end += ch.length;
    }
    keep = keep.slice(0, end);
  }
  const omitted = total - utf8Bytes(keep);
  return { text: omitted > 0 ? `${keep}… ${formatByteCount(omitted)} more bytes` : keep, omitted };
}

/**
 * The one approval view (amendment A10) of an approval request: the identity first; then every intended effect
 * one per line, its operation and absolute normalized path, the word `outside` on a path outside `cwd`, never
 * shortened; then the arguments as indented JSON, shortened to `MAX_APPROVAL_ARGUMENT_LINES` lines and
 * `MAX_APPROVAL_ARGUMENT_BYTES` bytes with the remainder stated. Every string is A1-escaped once, here: a terminal,
 * a web page, an MCP elicitation and an ACP permission request show this view and differ only in layout.
 */
export function describeApproval(request: ApprovalSubject, options: DescribeApprovalOptions): ApprovalView {
  const cwd = normalizePath("/", options.cwd);
  const identity = escapeDisplayText(String(request.identity));
  const effects = request.effects === undefined ? undefined : effectLines(cwd, request.effects);
  const args = argumentExcerpt(request.arguments);
  const lines = [`approve ${identity}?`];
  if (effects === undefined) lines.push("intended effects: none declared by this tool");
  else if (effects.length === 0) lines.push("intended effects: none");
  else lines.push("intended effects:", ...effects.map((effect) => `  ${effect.line}`));
  lines.push("arguments:", ...args.text.split("\n").map((line) => `  ${line}`));
  return {
    identity,
    effects,
    arguments: args.text,
    argumentsOmittedBytes: args.omitted,
    lines,
    text: lines.join("\n"),
  };
}
