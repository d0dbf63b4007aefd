import { MAX_MATCHING_VISITS } from "./limits.js";
import type { PatchChange } from "./parse-patch.js";

/** The matching budget shared by every hunk of one patch: line visits left (effects.md §8.3.1). Mutated in place. */
export interface MatchingBudget {
  remaining: number;
}

/** Codes `applyHunks` can produce (effects.md §8.4). */
export type ApplyHunksCode =
  | "patch_unanchored_insertion"
  | "patch_context_not_found"
  | "patch_ambiguous_context"
  | "patch_matching_limit";

/** Outcome of `applyHunks`: the new content, or the failing code. */
export type ApplyHunksResult = { ok: true; content: string } | { ok: false; code: ApplyHunksCode };

const LF = 10;
const CR = 13;
const BOM = 0xfeff;

/** A fresh budget of `MAX_MATCHING_VISITS` line visits for one patch. */
export function createMatchingBudget(): MatchingBudget {
  return { remaining: MAX_MATCHING_VISITS };
}

/**
 * The new content of an Add section (effects.md §8.3.1): the content lines joined with `\n`, plus a final `\n`
 * when there is at least one line and no no-newline marker.
 */
export function addedContent(change: Pick<PatchChange, "added" | "noNewline">): string {
  const lines = change.added;
  if (lines.length === 0) return "";
  const body = lines.join("\n");
  return change.noNewline ? body : `${body}\n`;
}

/**
 * Applies the hunks of an Update `change` to the decoded source text (effects.md §8.3.2): BOM and per-line
 * endings preserved, unique matches after a forward-only cursor, anchored hunks ending at the last line, and
 * one matching `budget` shared across the whole patch (decremented in place). Never throws for bad input.
 */
export function applyHunks(
  sourceText: string,
  change: Pick<PatchChange, "hunks" | "noNewline">,
  budget: MatchingBudget,
): ApplyHunksResult {
  // 1. BOM.
  let source = sourceText;
  let bom = "";
  if (source.charCodeAt(0) === BOM) {
    bom = "\uFEFF";
    source = source.slice(1);
  }

  // 2. Lines with their endings.
  const texts: string[] = [];
  const endings: string[] = [];
  let start = 0;
  for (;;) {
    const nl = source.indexOf("\n", start);
    if (nl < 0) break;
    if (nl > start && source.charCodeAt(nl - 1) === CR) {
      texts.push(source.slice(start, nl - 1));
      endings.push("\r\n");
    } else {
      texts.push(source.slice(start, nl));
      endings.push("\n");
    }
    start = nl + 1;
  }
  if (start < source.length) {
    texts.push(source.slice(start));
    endings.push("");
  }
  const count = texts.length;
  const defaultEnding = count > 0 && endings[0] !== "" ? (endings[0] as string) : "\n";
  const endsWithLf = source.length > 0 && source.charCodeAt(source.length - 1) === LF;

  // 3. Hunks.
  const outTexts: string[] = [];
  const outEndings: string[] = [];
  let cursor = 0;
  for (const hunk of change.hunks) {
    const expected: string[] = [];
    for (const line of hunk.lines) if (line.kind !== "+") expected.push(line.text);
    const n = expected.length;

    let position: number;
    if (n === 0) {
      if (count !== 0 || cursor !== 0 || outTexts.length !== 0) return fail("patch_unanchored_insertion");
      position = 0;
    } else {
      const found = findPosition(texts, expected, cursor, hunk.eof, budget);
      if (found < 0) {
        return fail(
          found === NOT_FOUND
            ? "patch_context_not_found"
            : found === AMBIGUOUS
              ? "patch_ambiguous_context"
              : "patch_matching_limit",
        );
      }
      position = found;
    }

    for (let i = cursor; i < position; i++) {
      outTexts.push(texts[i] as string);
      outEndings.push(endings[i] as string);
    }
    let input = position;
    for (const line of hunk.lines) {
      if (line.kind === " ") {
        outTexts.push(texts[input] as string);
        outEndings.push(endings[input] as string);
        input++;
      } else if (line.kind === "-") {
        input++;
      } else {
        let ending = input < count ? (endings[input] as string) : "";
        if (ending === "" && input > 0) ending = endings[input - 1] as string;
        if (ending === "") ending = defaultEnding;
        outTexts.push(line.text);
        outEndings.push(ending);
      }
    }
    cursor = input;
  }

  // 4. The rest of the source.
  for (let i = cursor; i < count; i++) {
    outTexts.push(texts[i] as string);
    outEndings.push(endings[i] as string);
  }

  // 5–7. Endings and assembly.
  const last = outTexts.length - 1;
  let content = bom;
  for (let i = 0; i < last; i++) {
    const ending = outEndings[i] as string;
    content += (outTexts[i] as string) + (ending === "" ? defaultEnding : ending);
  }
  if (last >= 0) {
    let ending = outEndings[last] as string;
    if (change.noNewline || !endsWithLf) ending = "";
    else if (ending === "") ending = defaultEnding;
    content += (outTexts[last] as string) + ending;
  }
  return { ok: true, content };
}

const NOT_FOUND = -1;
const AMBIGUOUS = -2;
const OVER_BUDGET = -3;

function fail(code: ApplyHunksCode): ApplyHunksResult {
  return { ok: false, code };
}

/**
 * Scans candidate positions `p ≥ cursor` (those where the expected lines fit), one budget unit per position,
 * and returns the unique match, or `NOT_FOUND`, `AMBIGUOUS` or `OVER_BUDGET`. An anchored hunk only counts the
 * position whose last matched line is the source's last line; the scan still visits (and pays for) every
 * position before it.
 */
function findPosition(
  texts: readonly string[],
  expected: readonly string[],
  cursor: number,
  anchored: boolean,
  budget: MatchingBudget,
): number {
  const n = expected.length;
  const lastCandidate = texts.length - n;
  if (lastCandidate < cursor) return NOT_FOUND;
  if (anchored) {
    const visits = lastCandidate - cursor + 1;
    if (visits > budget.remaining) {
      budget.remaining = 0;
      return OVER_BUDGET;
    }
    budget.remaining -= visits;
    return matchesAt(texts, expected, lastCandidate) ? lastCandidate : NOT_FOUND;
  }
  const first = expected[0] as string;
  let found = NOT_FOUND;
  for (let p = cursor; p <= lastCandidate; p++) {
    if (budget.remaining <= 0) return OVER_BUDGET;
    budget.remaining--;
    if (texts[p] === first && matchesAt(texts, expected, p)) {
      if (found !== NOT_FOUND) return AMBIGUOUS;
      found = p;
    }
  }
  return found;
}

function matchesAt(texts: readonly string[], expected: readonly string[], p: number): boolean {
  for (let i = 0; i < expected.length; i++) if (texts[p + i] !== expected[i]) return false;
  return true;
}
