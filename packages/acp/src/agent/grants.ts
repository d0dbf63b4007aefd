/**
 * The `*_always` answers of one ACP session (amendment A12): remembered for an identity **and** the rule that
 * asked, for the rest of that session only, and consulted inside `approve` — so deny rules and `PreToolUse` hooks,
 * which run before approval, still win.
 */
export interface SessionGrants {
  /** The remembered answer for this identity and rule, if any. */
  lookup(identity: string, ruleIndex: number | null | undefined): boolean | undefined;
  /** Remembers an `allow_always` (`true`) or `reject_always` (`false`) answer. */
  remember(identity: string, ruleIndex: number | null | undefined, approved: boolean): void;
  /** How many answers are remembered. */
  readonly size: number;
}

function keyOf(identity: string, ruleIndex: number | null | undefined): string {
  return `${identity}\u0000${ruleIndex ?? "none"}`;
}

/** Creates the grants of one ACP session (in memory; never shared across sessions). */
export function createSessionGrants(): SessionGrants {
  const grants = new Map<string, boolean>();
  return {
    lookup: (identity, ruleIndex) => grants.get(keyOf(identity, ruleIndex)),
    remember(identity, ruleIndex, approved) {
      grants.set(keyOf(identity, ruleIndex), approved);
    },
    get size() {
      return grants.size;
    },
  };
}
