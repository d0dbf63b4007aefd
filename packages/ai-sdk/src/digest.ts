import { createHash } from "node:crypto";

/**
 * Whether `value`'s JSON is at most `limit` bytes, measured by a walk that stops as soon as the limit is passed (no
 * JSON text of the whole value is built). Strings count their UTF-8 bytes, so escapes may make the real JSON a little
 * longer; what passes is bounded all the same.
 */
export function jsonBytesWithin(value: unknown, limit: number): boolean {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") total += Buffer.byteLength(item, "utf8") + 2;
    else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (const entry of item) stack.push(entry);
    } else if (typeof item === "object" && item !== null) {
      const keys = Object.keys(item);
      total += 2;
      for (const key of keys) {
        total += Buffer.byteLength(key, "utf8") + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
    } else total += String(item).length;
    if (total > limit) return false;
  }
  return true;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      out[key] = canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/**
 * The digest an approval is bound to: SHA-256 over the canonical JSON (keys sorted) of the tool name and the
 * arguments. Call it only on arguments `jsonBytesWithin(args, MAX_ARGUMENT_BYTES)` admitted.
 */
export function callDigest(name: string, args: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([name, canonical(args ?? null)]))
    .digest("base64url");
}
