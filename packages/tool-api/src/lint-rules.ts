import { globCovers } from "@raw/predicate";
import type { Issue } from "@raw/schema";

/** Code of the lint warning for a rule that can never decide (tool-api.md §9.6). */
export const RULE_SHADOWED = "rule_shadowed";

/** The shape `lintRules` reads: a glob and whether the rule is conditional. */
export interface LintableRule {
  readonly match: string;
  readonly effect?: unknown;
  readonly when?: unknown;
}

/**
 * Warns about every rule `i` shadowed by a later unconditional rule `j` whose glob covers its glob (the exact,
 * conservative check of tool-api.md §9.6), naming the smallest such `j`. Returns warnings, never errors.
 */
export function lintRules(rules: readonly LintableRule[]): Issue[] {
  const warnings: Issue[] = [];
  if (!Array.isArray(rules)) return warnings;
  const isRule = (rule: unknown): rule is LintableRule =>
    typeof rule === "object" && rule !== null && typeof (rule as LintableRule).match === "string";
  for (let i = 0; i < rules.length; i++) {
    const rule: unknown = rules[i];
    if (!isRule(rule)) continue;
    for (let j = i + 1; j < rules.length; j++) {
      const later: unknown = rules[j];
      if (!isRule(later) || later.when !== undefined) continue;
      if (globCovers(later.match, rule.match)) {
        warnings.push({
          code: RULE_SHADOWED,
          path: `/${i}`,
          message: `rule ${i} can never decide: later unconditional rule ${j} matches every identity it matches`,
        });
        break;
      }
    }
  }
  return warnings;
}
