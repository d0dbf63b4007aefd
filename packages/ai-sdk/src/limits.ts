/**
 * The largest tool-call arguments, in bytes of JSON, a tool of this package hands to the session or digests for an
 * approval: 1 MiB. Larger arguments end `arguments_too_large` before anything is kept.
 */
export const MAX_ARGUMENT_BYTES = 1024 * 1024;

/**
 * How many asks (`user-approval`) a session's bridge remembers while their answer is awaited, oldest dropped first:
 * an approval response for a dropped ask is refused (`approval_unknown`) and the call is asked again.
 */
export const MAX_PENDING_APPROVALS = 1024;
