import { thrownMessage } from "@raw/schema";
import type { ApprovalCallback, ApprovalRequest } from "./types.js";

/** How an approval ended (tool-api.md §7.5). */
export type ApprovalOutcome =
  | { readonly kind: "approved" }
  | { readonly kind: "denied" }
  | { readonly kind: "aborted" }
  | { readonly kind: "expired" }
  | { readonly kind: "error"; readonly message: string };

const APPROVED: ApprovalOutcome = Object.freeze({ kind: "approved" });
const DENIED: ApprovalOutcome = Object.freeze({ kind: "denied" });
const ABORTED: ApprovalOutcome = Object.freeze({ kind: "aborted" });
const EXPIRED: ApprovalOutcome = Object.freeze({ kind: "expired" });

/** Longest delay `setTimeout` honours; longer deadlines are clamped to it. */
const MAX_TIMER_MS = 2_147_483_647;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== "object" || value === null) && typeof value !== "function") return false;
  return typeof (value as { then?: unknown }).then === "function";
}

/**
 * Calls the approval callback once and races its answer against the call's abort signal and the optional
 * deadline (tool-api.md §7.5). The first of them decides; a late answer is ignored (its rejection is observed). A
 * settled answer with the signal aborted by then is `aborted`; a thrown or rejected callback is `error`.
 */
export function runApproval(
  approve: ApprovalCallback,
  request: ApprovalRequest,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): ApprovalOutcome | Promise<ApprovalOutcome> {
  const settled = (value: unknown): ApprovalOutcome =>
    signal?.aborted ? ABORTED : value ? APPROVED : DENIED;
  const failed = (error: unknown): ApprovalOutcome =>
    signal?.aborted ? ABORTED : { kind: "error", message: thrownMessage(error) };
  let answer: unknown;
  try {
    answer = approve(request);
  } catch (error) {
    return failed(error);
  }
  let thenable: boolean;
  try {
    thenable = isThenable(answer);
  } catch (error) {
    return failed(error);
  }
  if (!thenable) return settled(answer);
  return new Promise<ApprovalOutcome>((resolve) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: ApprovalOutcome): void => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => finish(ABORTED);
    if (signal !== undefined) {
      if (signal.aborted) {
        finish(ABORTED);
      } else {
        signal.addEventListener("abort", onAbort, { once: true });
      }
    }
    if (timeoutMs !== undefined && !done) {
      timer = setTimeout(() => finish(EXPIRED), Math.min(timeoutMs, MAX_TIMER_MS));
    }
    Promise.resolve(answer as PromiseLike<unknown>).then(
      (value) => finish(settled(value)),
      (error) => finish(failed(error)),
    );
  });
}
