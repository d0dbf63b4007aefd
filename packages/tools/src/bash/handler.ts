import type { HandlerResult, ToolHandlerContext, ToolInput } from "@raw/tool-api";
import { errorResult, rowsFit, utf8Length } from "../shared/results.js";
import type { CapturedText } from "./capture.js";
import { jsonLength, omissionMarker, renderWithin, shareBudget } from "./fit.js";
import {
  BASH_COMMAND_ECHO_BYTES,
  DEFAULT_BASH_TIMEOUT_MS,
  MAX_BASH_CAPTURE_BYTES,
  MAX_BASH_ROW_ERROR_CHARS,
} from "./limits.js";
import type { BASH_INPUT_SCHEMA } from "./manifest.js";
import { type CommandOutcome, runCommand } from "./run-command.js";

/** The arguments of `bash`, as its input schema guarantees them. */
export type BashArgs = ToolInput<typeof BASH_INPUT_SCHEMA>;

/** One command of a `bash` call. */
export type BashCommand = BashArgs["commands"][number];

/** One indexed result row of `bash`. */
export interface BashRow {
  index: number;
  command: string;
  status: "ok" | "error" | "skipped";
  exit_code?: number;
  signal?: string;
  timed_out?: true;
  /** Why a command did not run or did not finish: `aborted`, `prior_command_failure`, or a spawn error code. */
  error?: string;
  stdout: string;
  stderr: string;
  truncated?: true;
}

/** The message of the result that replaces rows that cannot fit the output budget (tool-api.md §8.2). */
export const BATCH_BUDGET_MESSAGE = "batch status exceeds output budget";

/** A row's echo of its command: at most `BASH_COMMAND_ECHO_BYTES` UTF-8 bytes, then `…`. */
export function echoCommand(command: string): string {
  if (utf8Length(command) <= BASH_COMMAND_ECHO_BYTES) return command;
  let kept = "";
  let used = 0;
  for (const point of command) {
    const length = utf8Length(point);
    if (used + length > BASH_COMMAND_ECHO_BYTES - 3) break;
    kept += point;
    used += length;
  }
  return `${kept}…`;
}

/** The largest row a command can produce, without its output (the budget check before anything runs). */
function worstCaseRow(index: number, command: string): BashRow {
  return {
    index,
    command: echoCommand(command),
    status: "skipped",
    exit_code: 255,
    signal: "x".repeat(12),
    timed_out: true,
    error: "x".repeat(MAX_BASH_ROW_ERROR_CHARS),
    stdout: "",
    stderr: "",
    truncated: true,
  };
}

interface Executed {
  row: BashRow;
  stdout?: CapturedText;
  stderr?: CapturedText;
}

function fullLength(captured: CapturedText | undefined): number {
  if (captured === undefined) return 0;
  if (captured.omitted === 0) return jsonLength(captured.head + captured.tail);
  const total = utf8Length(captured.head) + captured.omitted + utf8Length(captured.tail);
  return jsonLength(captured.head) + jsonLength(omissionMarker(total)) + jsonLength(captured.tail);
}

/**
 * Fits the rows to `maxBytes` (tool-api.md §8.2): the rows without output must fit; the rest of the budget is
 * shared by the outputs (a short one leaves its share to the longer ones), and an output over its share keeps its
 * start and end around a visible omission marker. The serialized `{ results }` never exceeds `maxBytes`.
 */
function fitRows(executed: readonly Executed[], maxBytes: number): BashRow[] | undefined {
  const lengths: number[] = [];
  for (const item of executed) lengths.push(fullLength(item.stdout), fullLength(item.stderr));
  const skeleton = executed.map((item, i) => {
    const hasOutput = (lengths[2 * i] as number) > 0 || (lengths[2 * i + 1] as number) > 0;
    return hasOutput ? { ...item.row, truncated: true as const } : item.row;
  });
  const base = utf8Length(JSON.stringify({ results: skeleton }));
  if (base > maxBytes) return undefined;
  const shares = shareBudget(lengths, maxBytes - base);
  return executed.map((item, i) => {
    const row: BashRow = { ...item.row };
    let cut = false;
    if (item.stdout !== undefined) {
      const out = renderWithin(item.stdout, shares[2 * i] as number);
      row.stdout = out.text;
      cut ||= out.cut;
    }
    if (item.stderr !== undefined) {
      const err = renderWithin(item.stderr, shares[2 * i + 1] as number);
      row.stderr = err.text;
      cut ||= err.cut;
    }
    if (cut) {
      // Key order: `truncated` last.
      delete row.truncated;
      row.truncated = true;
    }
    return row;
  });
}

function rowFor(index: number, command: string, outcome: CommandOutcome): BashRow {
  const row: BashRow = { index, command: echoCommand(command), status: "ok", stdout: "", stderr: "" };
  if (outcome.exitCode !== undefined) row.exit_code = outcome.exitCode;
  if (outcome.signal !== undefined) row.signal = outcome.signal;
  if (outcome.timedOut) row.timed_out = true;
  if (outcome.aborted) row.error = "aborted";
  else if (outcome.spawnError !== undefined)
    row.error = outcome.spawnError.slice(0, MAX_BASH_ROW_ERROR_CHARS);
  const failed =
    outcome.timedOut || outcome.aborted || outcome.spawnError !== undefined || outcome.exitCode !== 0;
  if (failed) row.status = "error";
  return row;
}

function codeOf(row: BashRow): string {
  if (row.error === "aborted") return "aborted";
  if (row.timed_out) return "command_timeout";
  if (row.error !== undefined) return "spawn_error";
  return "command_failed";
}

/**
 * The `bash` handler: runs the commands in order, each with `/bin/sh -c` as the leader of a new session from
 * `context.cwd`, and stops at the first command that fails (non-zero exit, signal, timeout, abort or spawn
 * failure); later commands are `skipped` with `prior_command_failure`. The result is one `json` block
 * `{ results: [...] }` of indexed rows fitted to `context.maxOutputBytes`.
 */
export async function handler(args: BashArgs, context: ToolHandlerContext): Promise<HandlerResult> {
  const commands = args.commands;
  const maxBytes = context.maxOutputBytes;
  if (
    !rowsFit(
      commands.map((c, i) => worstCaseRow(i, c.command)),
      maxBytes,
    )
  ) {
    return errorResult("output_budget_too_small", BATCH_BUDGET_MESSAGE);
  }
  const captureBytes = Math.max(2, Math.min(MAX_BASH_CAPTURE_BYTES, Math.floor(maxBytes)));
  const executed: Executed[] = [];
  let stopReason: "aborted" | "prior_command_failure" | undefined;
  let last: CommandOutcome | undefined;
  for (let index = 0; index < commands.length; index++) {
    const { command, timeout_ms } = commands[index] as BashCommand;
    if (stopReason === undefined && context.signal?.aborted) stopReason = "aborted";
    if (stopReason !== undefined) {
      executed.push({
        row: {
          index,
          command: echoCommand(command),
          status: "skipped",
          error: stopReason,
          stdout: "",
          stderr: "",
        },
      });
      continue;
    }
    const outcome = await runCommand(command, {
      cwd: context.cwd,
      timeoutMs: timeout_ms ?? DEFAULT_BASH_TIMEOUT_MS,
      captureBytes,
      signal: context.signal,
    });
    last = outcome;
    const row = rowFor(index, command, outcome);
    executed.push({ row, stdout: outcome.stdout, stderr: outcome.stderr });
    if (row.status !== "ok") stopReason = outcome.aborted ? "aborted" : "prior_command_failure";
  }
  const rows = fitRows(executed, maxBytes);
  if (rows === undefined) return errorResult("output_budget_too_small", BATCH_BUDGET_MESSAGE);
  const failed = rows.find((row) => row.status !== "ok");
  const result: HandlerResult = {
    isError: failed !== undefined,
    content: [{ type: "json", value: { results: rows } }],
  };
  if (failed !== undefined) result.code = codeOf(failed);
  if (rows.some((row) => row.truncated)) result.truncated = true;
  if (last !== undefined) {
    result.exitCode = last.exitCode ?? null;
    result.signal = last.signal ?? null;
    result.timedOut = last.timedOut;
  }
  return result;
}
