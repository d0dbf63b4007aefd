/** Names longer than this are ranked last, never compared (a bounded cost for hostile input). */
export const MAX_RANKED_NAME_LENGTH = 128;

/** Levenshtein distance of `a` and `b` (UTF-16 code units), with adjacent transpositions counting as one edit. */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] as number) + 1);
      row.push(d);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * `candidates` ordered nearest to `name` first (edit distance, case-insensitive; a candidate that starts with or
 * contains `name` counts as near), ties in their given order. For "did you mean" lines and lists of what exists.
 */
export function rankByNearness(name: string, candidates: Iterable<string>): string[] {
  const wanted = name.toLowerCase();
  const scored = [...candidates].map((candidate, index) => {
    const lower = candidate.toLowerCase();
    let score: number;
    if (wanted.length > MAX_RANKED_NAME_LENGTH || lower.length > MAX_RANKED_NAME_LENGTH)
      score = Number.MAX_SAFE_INTEGER;
    else if (wanted !== "" && lower.includes(wanted)) score = Math.max(0, lower.length - wanted.length) / 100;
    else score = distance(wanted, lower);
    return { candidate, index, score };
  });
  scored.sort((a, b) => a.score - b.score || a.index - b.index);
  return scored.map((entry) => entry.candidate);
}

/** The candidate near enough to `name` to suggest (at most 2 edits, and at most half its length), if any. */
export function closeName(name: string, candidates: Iterable<string>): string | undefined {
  const best = rankByNearness(name, candidates)[0];
  if (best === undefined || name.length > MAX_RANKED_NAME_LENGTH) return undefined;
  const d = distance(name.toLowerCase(), best.toLowerCase());
  return d > 0 && d <= Math.min(2, Math.floor(name.length / 2)) ? best : undefined;
}
