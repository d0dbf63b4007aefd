import { nearestName } from "@raw/schema";

/**
 * The "did you mean" hint for an unknown field `key`, when a known field is near it: shared by the manifest and the
 * rules parsers (a leaf module, so neither imports the other).
 */
export function didYouMean(key: string, known: Iterable<string>): string | undefined {
  const near = nearestName(key, known);
  return near === undefined ? undefined : `did you mean \`${near}\`?`;
}
