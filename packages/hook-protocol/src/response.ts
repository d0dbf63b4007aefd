import { isPlainObject, utf8Bytes } from "@raw/schema";
import { isGateEvent } from "./events.js";
import { MAX_HOOK_MESSAGE_BYTES, MAX_HOOK_REASON_BYTES } from "./limits.js";

/** The outcome of one hook run (hooks.md §8.3). */
export type HookOutcome = "continued" | "denied" | "error";

/** The error codes of a hook run (hooks.md §10), in specification order. */
export const HOOK_ERROR_CODES = [
  "aborted",
  "input_too_large",
  "spawn",
  "stdin",
  "io",
  "output_too_large",
  "timeout",
  "exit",
  "invalid_output",
  "hook_callback",
] as const;

/** A hook run error code (hooks.md §10). */
export type HookErrorCode = (typeof HOOK_ERROR_CODES)[number];

/** A failure raised while the hook ran; it takes priority over the exit status (hooks.md §8.2). */
export type HookRunFailure = "timeout" | "aborted" | "output_too_large" | "spawn" | "stdin" | "io";

/** What a finished hook process produced: the input of `parseHookResponse`. */
export interface HookProcessOutput {
  /** The whole standard output (bytes are decoded as strict UTF-8; a string is taken as already decoded). */
  stdout: Uint8Array | string;
  /** The exit code, or `null` when the process died by a signal or never exited. */
  exitCode: number | null;
  /** The signal that ended the process, if any. */
  signal?: string | null;
  /** A failure raised while the hook ran (`timeout`, `aborted`, ...); it decides the outcome when present. */
  failure?: HookRunFailure | undefined;
  /** The hook's selection ID, used in messages (default `hook`). */
  id?: string;
}

/** The interpreted answer of one hook run. */
export interface HookResponse {
  /** `continued`, `denied` or `error`. */
  outcome: HookOutcome;
  /** The effective decision on a gate (`continue` or `deny`); absent on notifications and errors. */
  decision?: "continue" | "deny";
  /** For `denied`: the hook's reason, or `hook <id> denied`. For `error`: `hook <id> failed: <code>`. */
  reason?: string;
  /** The hook's non-empty `message` (outcomes `continued` and `denied`). */
  message?: string;
  /** The error code (outcome `error`). */
  code?: HookErrorCode;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const NOT_AN_OBJECT = Symbol("not an object");
const INVALID = Symbol("invalid");

/** The message of a hook run error: `hook <id> failed: <code>` (hooks.md §10). */
export function hookFailedMessage(id: string, code: HookErrorCode): string {
  return `hook ${id} failed: ${code}`;
}

/** An error response with its code and the spec's message. */
export function hookErrorResponse(id: string, code: HookErrorCode): HookResponse {
  return { outcome: "error", reason: hookFailedMessage(id, code), code };
}

/** Decodes stdout as strict UTF-8 and parses it as exactly one JSON plain object. */
function parseObject(stdout: Uint8Array | string): Record<string, unknown> | typeof NOT_AN_OBJECT {
  let text: string;
  let value: unknown;
  try {
    text = typeof stdout === "string" ? stdout : decoder.decode(stdout);
    value = JSON.parse(text);
  } catch {
    return NOT_AN_OBJECT;
  }
  return isPlainObject(value) ? value : NOT_AN_OBJECT;
}

type Checked = { decision?: unknown; reason?: string; message?: string };

/** Checks the keys and values of a response object (hooks.md §8.1). */
function checkObject(value: Record<string, unknown>, gate: boolean): Checked | typeof INVALID {
  const out: Checked = {};
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (key === "decision") {
      if (!gate || (field !== "continue" && field !== "deny")) return INVALID;
      out.decision = field;
    } else if (key === "reason") {
      if (typeof field !== "string" || utf8Bytes(field) > MAX_HOOK_REASON_BYTES) return INVALID;
      out.reason = field;
    } else if (key === "message") {
      if (typeof field !== "string" || utf8Bytes(field) > MAX_HOOK_MESSAGE_BYTES) return INVALID;
      out.message = field;
    } else {
      return INVALID;
    }
  }
  return out;
}

function denied(id: string, checked: Checked | undefined): HookResponse {
  const reason = checked?.reason ? checked.reason : `hook ${id} denied`;
  const response: HookResponse = { outcome: "denied", decision: "deny", reason };
  if (checked?.message) response.message = checked.message;
  return response;
}

/**
 * Interprets a finished hook process by the response protocol of hooks.md §8 (stdout, exit status and runner
 * failures) for `event`. Pure: no process is involved; never throws.
 */
export function parseHookResponse(event: string, output: HookProcessOutput): HookResponse {
  const id = output.id ?? "hook";
  if (output.failure) return hookErrorResponse(id, output.failure);
  if (output.signal) return hookErrorResponse(id, "exit");
  const gate = isGateEvent(event);
  const { exitCode, stdout } = output;
  if (exitCode === 2 && gate) {
    if (stdout.length === 0) return denied(id, undefined);
    const parsed = parseObject(stdout);
    if (parsed === NOT_AN_OBJECT) return denied(id, undefined);
    const checked = checkObject(parsed, gate);
    return checked === INVALID ? hookErrorResponse(id, "invalid_output") : denied(id, checked);
  }
  if (exitCode !== 0) return hookErrorResponse(id, "exit");
  let checked: Checked = {};
  if (stdout.length > 0) {
    const parsed = parseObject(stdout);
    if (parsed === NOT_AN_OBJECT) return hookErrorResponse(id, "invalid_output");
    const result = checkObject(parsed, gate);
    if (result === INVALID) return hookErrorResponse(id, "invalid_output");
    checked = result;
  }
  if (checked.decision === "deny") return denied(id, checked);
  const response: HookResponse = { outcome: "continued" };
  if (gate) response.decision = "continue";
  if (checked.message) response.message = checked.message;
  return response;
}
