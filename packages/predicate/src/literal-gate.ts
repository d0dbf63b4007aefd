/** A test on a string. */
export type StringTest = (text: string) => boolean;

/**
 * How many literals one gate holds at most. A gate scans the string once whatever the number of literals, but its
 * cost at each position grows with them; past this many, callers test their patterns instead.
 */
export const MAX_GATE_LITERALS = 64;

/**
 * How many leading UTF-16 units of each literal a gate looks for. A prefix of a string every match contains is
 * itself contained in every match, so cutting keeps the gate exact in what it lets through, and it bounds the work
 * at each position of a hostile string (no long partial matches to walk).
 */
export const MAX_GATE_LITERAL_UNITS = 8;

const SPECIAL = /[\\^$.*+?()[\]{}|/]/g;

/**
 * A fast necessary condition for "some pattern matches": true when `text` contains at least one of `literals`
 * (each cut to `MAX_GATE_LITERAL_UNITS`). One literal is an `includes`; several are one native scan for a literal
 * alternation (no quantifier, no class, so the scan is linear in the string for a bounded number of short
 * literals). Returns `undefined` (no gate: test the patterns) for an empty set, an empty literal, or more than
 * `MAX_GATE_LITERALS` distinct literals.
 */
export function literalGate(literals: readonly string[]): StringTest | undefined {
  const cut = new Set<string>();
  for (const literal of literals) {
    if (typeof literal !== "string" || literal.length === 0) return undefined;
    cut.add(literal.slice(0, MAX_GATE_LITERAL_UNITS));
    if (cut.size > MAX_GATE_LITERALS) return undefined;
  }
  if (cut.size === 0) return undefined;
  if (cut.size === 1) {
    const only = cut.values().next().value as string;
    return (text) => text.includes(only);
  }
  let scan: RegExp;
  try {
    scan = new RegExp([...cut].map((s) => s.replace(SPECIAL, "\\$&")).join("|"));
  } catch {
    return undefined;
  }
  return (text) => scan.test(text);
}
