import type { ApprovalView } from "@raw/host";

/** The kind of an ACP permission option (a UI hint; the id is what an answer names). */
export type PermissionOptionKind = "allow_once" | "allow_always" | "reject_once" | "reject_always";

/** One ACP permission option. */
export interface PermissionOption {
  readonly optionId: PermissionOptionKind;
  readonly name: string;
  readonly kind: PermissionOptionKind;
}

/** The four options of every permission request Raw sends (amendment A12), in the order a client shows them. */
export const PERMISSION_OPTIONS: readonly PermissionOption[] = Object.freeze([
  Object.freeze({ optionId: "allow_once", name: "Allow once", kind: "allow_once" }),
  Object.freeze({ optionId: "allow_always", name: "Always allow", kind: "allow_always" }),
  Object.freeze({ optionId: "reject_once", name: "Reject", kind: "reject_once" }),
  Object.freeze({ optionId: "reject_always", name: "Always reject", kind: "reject_always" }),
] as const);

/** What a permission answer means for the call: run it or not, and whether to remember the answer. */
export interface PermissionDecision {
  readonly approved: boolean;
  /** `true` for `allow_always` / `reject_always`: remembered for the identity and rule, this session only. */
  readonly always: boolean;
  /** Why a call does not run: `cancelled` (the turn or client cancelled), `unknown_option`, or the option kind. */
  readonly reason: PermissionOptionKind | "cancelled" | "unknown_option";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads a `session/request_permission` answer. Only an option id this binding offered counts; anything else (an
 * unknown id, a malformed outcome) is a rejection, never an approval.
 */
export function decidePermission(response: unknown): PermissionDecision {
  const outcome = isRecord(response) ? response.outcome : undefined;
  if (!isRecord(outcome) || outcome.outcome !== "selected") {
    return { approved: false, always: false, reason: "cancelled" };
  }
  const option = PERMISSION_OPTIONS.find((o) => o.optionId === outcome.optionId);
  if (option === undefined) return { approved: false, always: false, reason: "unknown_option" };
  return {
    approved: option.kind === "allow_once" || option.kind === "allow_always",
    always: option.kind === "allow_always" || option.kind === "reject_always",
    reason: option.kind,
  };
}

/**
 * The approval content of a permission request: the one approval view of amendment A10 (`describeApproval`) as a
 * single text content block. The view is already A1-escaped; it is laid out here, never escaped again.
 */
export function approvalContent(
  view: ApprovalView,
): { type: "content"; content: { type: "text"; text: string } }[] {
  return [{ type: "content", content: { type: "text", text: view.text } }];
}
