import { RE2JS } from "re2js";
import { literalGate, type StringTest } from "./literal-gate.js";

/** A compiled pattern: `test` is an unanchored search (true when the pattern matches any substring). */
export interface CompiledRegex {
  /** True when the pattern is found anywhere in `text`. */
  test(text: string): boolean;
  /**
   * Optional: strings one of which every match contains (a necessary condition, never a sufficient one), so that
   * callers holding many patterns can skip them all with one scan. `undefined` when the engine cannot tell.
   */
  readonly requiredLiterals?: readonly string[] | undefined;
}

/**
 * An RE2 implementation behind the small interface of predicate.md §5: `compile` throws an error carrying a
 * message for an invalid pattern. Hosts pass another engine as `{ engine }`; nothing is installed globally.
 */
export interface RegexEngine {
  /** Compiles `pattern` with RE2 syntax and default flags (none); throws an `Error` with a message when invalid. */
  compile(pattern: string): CompiledRegex;
}

/**
 * How many literals (in total UTF-16 units) a pattern's required-literal set may hold; past it the set is dropped
 * and the pattern is simply tested (a gate that large would cost more than it saves).
 */
export const MAX_REQUIRED_LITERAL_UNITS = 1 << 18;

/** The parts of re2js's internal prefilter tree this module reads (re2js ≥ 2.10): a literal, AND or OR node. */
interface Re2jsPrefilter {
  readonly type: number;
  readonly str: string;
  readonly subs: readonly Re2jsPrefilter[];
}

/** The parts of re2js's internal RE2 object this module uses: the string search without the `RE2JS` wrapper. */
interface Re2jsMachine {
  match(text: string): boolean;
  readonly prefilter: Re2jsPrefilter | null | undefined;
}

const EXACT = 1;
const AND = 2;
const OR = 3;

/** The smaller of two literal sets by how selective a scan for them is (longest shortest literal, then fewest). */
function better(a: readonly string[], b: readonly string[]): readonly string[] {
  const shortest = (set: readonly string[]) =>
    set.reduce((n, s) => Math.min(n, s.length), Number.POSITIVE_INFINITY);
  const sa = shortest(a);
  const sb = shortest(b);
  if (sa !== sb) return sa > sb ? a : b;
  return a.length <= b.length ? a : b;
}

/**
 * A set of literals one of which every match contains, from re2js's prefilter (which re2js itself trusts to skip
 * a search): a literal gives itself, AND any one of its parts (the most selective), OR the union of its parts. Any
 * part that re2js cannot summarize (or an unknown node) gives `undefined`: no set.
 */
function literalsOf(node: Re2jsPrefilter | null | undefined, depth = 0): readonly string[] | undefined {
  if (node === null || node === undefined || typeof node !== "object" || depth > 64) return undefined;
  const subs = Array.isArray(node.subs) ? node.subs : [];
  if (node.type === EXACT)
    return typeof node.str === "string" && node.str.length > 0 ? [node.str] : undefined;
  if (node.type === AND) {
    let best: readonly string[] | undefined;
    for (const sub of subs) {
      const set = literalsOf(sub, depth + 1);
      if (set !== undefined) best = best === undefined ? set : better(best, set);
    }
    return best;
  }
  if (node.type === OR) {
    if (subs.length === 0) return undefined;
    const union: string[] = [];
    for (const sub of subs) {
      const set = literalsOf(sub, depth + 1);
      if (set === undefined) return undefined;
      union.push(...set);
    }
    return union;
  }
  return undefined;
}

/** True when `value` looks like re2js's internal RE2 object (so a re2js upgrade that changes it only loses speed). */
function isRe2jsMachine(value: unknown): value is Re2jsMachine {
  return typeof value === "object" && value !== null && typeof (value as Re2jsMachine).match === "function";
}

/** The RE2 object and literal set of `pattern` as this module reads them from re2js, or `undefined`. */
function internals(
  pattern: string,
): { machine: Re2jsMachine; literals: readonly string[] | undefined } | undefined {
  try {
    // re2js keeps its compiled machine behind an untyped method; the self-check above guards its use.
    const machine = (RE2JS.compile(pattern) as unknown as { re2(): unknown }).re2();
    if (!isRe2jsMachine(machine)) return undefined;
    return { machine, literals: literalsOf(machine.prefilter) };
  } catch {
    return undefined;
  }
}

const same = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((s, i) => s === b[i]));

let trusted: boolean | undefined;

/**
 * True when the installed re2js behaves as this module expects: its internal search is an unanchored search and its
 * prefilter tree reads as literal, AND and OR nodes. Checked once on known patterns; a re2js whose internals
 * differ gets no gate and no direct search (its `RE2JS` objects are used as they are), never a wrong answer.
 */
function internalsTrusted(): boolean {
  if (trusted !== undefined) return trusted;
  const cases: ReadonlyArray<[string, readonly string[] | undefined, string, boolean]> = [
    ["(?:ab|cd)ef", ["ef"], "xxcdefyy", true],
    ["(?:gh|ij)", ["gh", "ij"], "--ij--", true],
    ["klm.*n", ["klm"], "n klm", false],
    ["(?i)x", undefined, "X", true],
    ["^op", ["op"], "xop", false],
  ];
  trusted = cases.every(([pattern, literals, text, match]) => {
    const found = internals(pattern);
    return found !== undefined && same(found.literals, literals) && found.machine.match(text) === match;
  });
  return trusted;
}

/**
 * A re2js pattern: `test` runs re2js's string search directly (the same search `RE2JS.test` runs, without its
 * byte-array checks), after a gate on the pattern's required literals: a string that holds none of them cannot
 * match, and one native scan says so without entering the engine.
 */
class Re2jsRegex implements CompiledRegex {
  readonly requiredLiterals: readonly string[] | undefined;
  private readonly gate: StringTest | undefined;

  constructor(
    private readonly machine: Re2jsMachine,
    literals: readonly string[] | undefined,
  ) {
    const units = literals?.reduce((n, s) => n + s.length, 0) ?? 0;
    this.requiredLiterals =
      literals !== undefined && units <= MAX_REQUIRED_LITERAL_UNITS
        ? Object.freeze([...literals])
        : undefined;
    this.gate = this.requiredLiterals === undefined ? undefined : literalGate(this.requiredLiterals);
    Object.freeze(this);
  }

  test(text: string): boolean {
    if (this.gate !== undefined && !this.gate(text)) return false;
    return this.machine.match(text);
  }
}

/**
 * The default engine: re2js with no flags. Patterns test strings through re2js's search directly, behind a gate
 * on the literals every match must contain (taken from re2js's own prefilter); with a re2js whose internals differ,
 * the compiled `RE2JS` object is returned as is.
 */
// Marked pure: a bundle that never compiles a pattern (the CLI's `raw validate` of a tool folder) drops re2js.
export const re2jsEngine: RegexEngine = /* @__PURE__ */ Object.freeze({
  compile(pattern: string): CompiledRegex {
    const compiled = RE2JS.compile(pattern);
    if (!internalsTrusted()) return compiled;
    let machine: unknown;
    try {
      // re2js keeps its compiled machine behind an untyped method; the self-check guards its use.
      machine = (compiled as unknown as { re2(): unknown }).re2();
    } catch {
      return compiled;
    }
    if (!isRe2jsMachine(machine)) return compiled;
    let literals: readonly string[] | undefined;
    try {
      literals = literalsOf(machine.prefilter);
    } catch {
      literals = undefined;
    }
    return new Re2jsRegex(machine, literals);
  },
});
