/** Names longer than this are never compared (a bounded cost for hostile input). */
const MAX_COMPARED_LENGTH = 128;

/**
 * The candidate nearest to `name` by edit distance (insertions, deletions, substitutions and transpositions of
 * adjacent characters), when that distance is at most `maxDistance` (default 2) and smaller than `name` itself;
 * the first such candidate on a tie; `undefined` when none is near or `name` is one of the candidates. For
 * "did you mean" hints.
 */
export function nearestName(name: string, candidates: Iterable<string>, maxDistance = 2): string | undefined {
  if (name.length > MAX_COMPARED_LENGTH) return undefined;
  let best: string | undefined;
  let bestDistance = Math.min(maxDistance, name.length - 1) + 1;
  for (const candidate of candidates) {
    if (candidate === name) return undefined;
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    if (candidate.length > MAX_COMPARED_LENGTH) continue;
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance of `a` and `b` (UTF-16 code units). */
function editDistance(a: string, b: string): number {
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (prev2[j - 2] as number) + 1);
      }
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[b.length] as number;
}
