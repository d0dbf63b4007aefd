/**
 * How long a `session/request_permission` may stay unanswered before the agent withdraws it (`$/cancel_request`) and
 * the call ends `approval_denied` (ms): 30 minutes, as long as an interaction request waits by default. An answer
 * that arrives later is ignored and never runs the call.
 */
export const ACP_APPROVAL_TIMEOUT_MS = 1_800_000;

/** The longest approval timeout an agent accepts (ms): one day, as for interaction requests. */
export const MAX_ACP_APPROVAL_TIMEOUT_MS = 86_400_000;

/**
 * The approval timeout of `createAcpAgent({ approvalTimeoutMs })`: the default when not given; a positive integer up
 * to `MAX_ACP_APPROVAL_TIMEOUT_MS` otherwise, else a `TypeError` naming the option.
 */
export function approvalTimeoutOf(value: unknown): number {
  if (value === undefined) return ACP_APPROVAL_TIMEOUT_MS;
  if (
    typeof value !== "number" ||
    !Number.isSafeInteger(value) ||
    value < 1 ||
    value > MAX_ACP_APPROVAL_TIMEOUT_MS
  ) {
    throw new TypeError(
      `approvalTimeoutMs must be an integer from 1 to ${MAX_ACP_APPROVAL_TIMEOUT_MS} (ms), got ${String(value)}`,
    );
  }
  return value;
}
