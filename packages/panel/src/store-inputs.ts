import { ContractError } from "@raw/schema";
import { byteLength, exceedsChars } from "./field-checks.js";
import type { InteractionRecord, InteractionSettle } from "./interaction-record.js";

/**
 * Longest session id, owner or request id a store keeps, in UTF-8 bytes. Every store (memory, SQLite, PostgreSQL)
 * refuses a longer one at `create` with `interaction_invalid`, so what one store accepts all accept and an accepted
 * request always fits a column, a lease and a wake-up message.
 */
export const MAX_STORE_ID_BYTES = 256;

/** Longest idempotency key a store keeps, in characters (`panels.md` §13.4 step 3). */
export const MAX_STORE_IDEMPOTENCY_KEY_CHARS = 128;

/** Longest fingerprint or canonical result a store keeps, in UTF-8 bytes (a settle over it is `interaction_invalid`). */
export const MAX_STORE_TEXT_BYTES = 1_048_576;

// Lone surrogates (not well-formed UTF-16): stored as U+FFFD by UTF-8 databases, so refused everywhere.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// C0 and C1 controls and DEL: never part of an id.
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * Whether `value` is an id a store keeps exactly (a session id, an owner, a request id): a non-empty string of at
 * most `MAX_STORE_ID_BYTES` UTF-8 bytes, well-formed (no lone surrogate), without control characters.
 */
export function isStorableId(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value !== "" &&
    value.length <= MAX_STORE_ID_BYTES &&
    byteLength(value) <= MAX_STORE_ID_BYTES &&
    !LONE_SURROGATE.test(value) &&
    !CONTROL.test(value)
  );
}

/** Whether `value` is a session argument a store can hold: `undefined` (no session) or a storable id. */
export function isStorableSessionId(value: unknown): value is string | undefined {
  return value === undefined || isStorableId(value);
}

/**
 * Whether `value` is text a store keeps exactly: well-formed (no lone surrogate), no NUL, at most `maxChars`
 * characters (code points) when given and `MAX_STORE_TEXT_BYTES` UTF-8 bytes.
 */
export function isStorableText(value: unknown, maxChars?: number): value is string {
  if (typeof value !== "string" || value.includes("\u0000") || LONE_SURROGATE.test(value)) return false;
  if (maxChars !== undefined && exceedsChars(value, maxChars)) return false;
  return value.length <= MAX_STORE_TEXT_BYTES && byteLength(value) <= MAX_STORE_TEXT_BYTES;
}

function invalid(field: string, rule: string): ContractError {
  return new ContractError("interaction_invalid", `interaction_invalid: ${field} ${rule}`);
}

const ID_RULE = `must be a non-empty string of at most ${MAX_STORE_ID_BYTES} UTF-8 bytes without control characters or lone surrogates`;

/**
 * The door of every store's `create` (memory, SQLite, PostgreSQL alike): throws `interaction_invalid` naming the
 * field when the session id, owner or request id is not a storable id, or the times are not safe integers. Nothing
 * is stored then.
 */
export function checkStorableRecord(record: InteractionRecord): void {
  const identity = (record as { identity?: Partial<InteractionRecord["identity"]> } | null)?.identity;
  if (typeof identity !== "object" || identity === null) throw invalid("identity", "must be an object");
  if (!isStorableSessionId(identity.sessionId)) throw invalid("identity.sessionId", ID_RULE);
  if (!isStorableId(identity.owner)) throw invalid("identity.owner", ID_RULE);
  if (!isStorableId(identity.requestId)) throw invalid("identity.requestId", ID_RULE);
  if (!Number.isSafeInteger(record.createdAt) || !Number.isSafeInteger(record.deadline)) {
    throw invalid("createdAt and deadline", "must be safe integers (epoch milliseconds)");
  }
}

/**
 * The door of every store's `settle`: throws `interaction_invalid` naming the field when the idempotency key is not
 * 1–`MAX_STORE_IDEMPOTENCY_KEY_CHARS` characters of well-formed text without NUL, or the fingerprint or canonical
 * result is not storable text. Keys are then kept exactly (a replay always finds its key). Nothing is changed then.
 */
export function checkStorableSettle(settle: InteractionSettle): void {
  const key = settle.idempotencyKey;
  if (key !== undefined && (key === "" || !isStorableText(key, MAX_STORE_IDEMPOTENCY_KEY_CHARS))) {
    throw invalid(
      "idempotencyKey",
      `must be 1 to ${MAX_STORE_IDEMPOTENCY_KEY_CHARS} characters without NUL or lone surrogates`,
    );
  }
  if (settle.fingerprint !== undefined && !isStorableText(settle.fingerprint)) {
    throw invalid(
      "fingerprint",
      `must be at most ${MAX_STORE_TEXT_BYTES} bytes without NUL or lone surrogates`,
    );
  }
  if (!isStorableText(settle.canonicalResult)) {
    throw invalid(
      "canonicalResult",
      `must be at most ${MAX_STORE_TEXT_BYTES} bytes without NUL or lone surrogates`,
    );
  }
}
