import { isValidGlob, type Predicate, type RegexEngine, safeCompilePredicate } from "@raw/predicate";
import { ContractError, escapePointerToken, type Issue, isObjectRecord } from "@raw/schema";
import { didYouMean } from "./did-you-mean.js";
import { MAX_RULE_MATCH_BYTES } from "./limits.js";

/** What a policy rule decides (tool-api.md §9.1). */
export type RuleEffect = "allow" | "ask" | "deny";

/** A parsed, frozen policy rule: a rule without `when` has no `when` key (tool-api.md §9.1). */
export interface ToolRule {
  /** The identity glob, untrimmed. */
  readonly match: string;
  readonly effect: RuleEffect;
  /** The compiled predicate; only on `ask` rules. */
  readonly when?: Predicate;
}

/** Result of `parseRules`: the frozen rules, or every issue. */
export type ParseRulesResult = { ok: true; rules: readonly ToolRule[] } | { ok: false; issues: Issue[] };

/** Options of `parseRules`. */
export interface ParseRulesOptions {
  /** The RE2 engine predicates compile with (default re2js). */
  engine?: RegexEngine | undefined;
}

/** Code of every rule shape issue (tool-api.md §9.1). */
export const RULE_INVALID = "rule_invalid";

const FIELDS: ReadonlySet<string> = new Set(["match", "effect", "when"]);
const parsedRules = new WeakSet<object>();

function issue(message: string, path: string): Issue {
  return { code: RULE_INVALID, message, path };
}

/** True for a rule object produced by `parseRules` (such rules are accepted again as they are). */
export function isParsedRule(value: unknown): value is ToolRule {
  return typeof value === "object" && value !== null && parsedRules.has(value);
}

/**
 * Validates policy rules by tool-api.md §9.1 and reports every issue (predicate issues are prefixed with
 * `/<i>/when`). The parsed rules and their array are frozen. Rules that came out of `parseRules` are accepted as
 * they are. Never throws.
 */
export function parseRules(value: unknown, options: ParseRulesOptions = {}): ParseRulesResult {
  if (!Array.isArray(value)) return { ok: false, issues: [issue("rules must be an array", "")] };
  const issues: Issue[] = [];
  const rules: ToolRule[] = [];
  for (let i = 0; i < value.length; i++) {
    const rule: unknown = value[i];
    if (isParsedRule(rule)) {
      rules.push(rule);
      continue;
    }
    const at = `/${i}`;
    if (!isObjectRecord(rule)) {
      issues.push(issue("rule must be an object", at));
      continue;
    }
    const before = issues.length;
    for (const key of Object.keys(rule)) {
      if (FIELDS.has(key)) continue;
      const unknown = issue(`unknown rule field: ${key}`, `${at}/${escapePointerToken(key)}`);
      const hint = didYouMean(key, FIELDS);
      issues.push(hint === undefined ? unknown : { ...unknown, hint });
    }
    const match = Object.hasOwn(rule, "match") ? rule.match : undefined;
    if (!isValidGlob(match)) {
      issues.push(
        issue(`match must be a non-empty glob of at most ${MAX_RULE_MATCH_BYTES} bytes`, `${at}/match`),
      );
    }
    const effect = Object.hasOwn(rule, "effect") ? rule.effect : undefined;
    const hasWhen = Object.hasOwn(rule, "when");
    if (effect !== "allow" && effect !== "ask" && effect !== "deny") {
      issues.push(issue("effect must be allow, ask or deny", `${at}/effect`));
    } else if (hasWhen && effect !== "ask") {
      issues.push(issue("conditional effect must be ask", `${at}/effect`));
    }
    let when: Predicate | undefined;
    if (hasWhen) {
      const compiled = safeCompilePredicate(rule.when, { engine: options.engine });
      if (compiled.ok) when = compiled.predicate;
      else for (const item of compiled.issues) issues.push({ ...item, path: `${at}/when${item.path ?? ""}` });
    }
    if (issues.length > before) continue;
    const parsed: ToolRule =
      when === undefined
        ? Object.freeze({ match: match as string, effect: effect as RuleEffect })
        : Object.freeze({ match: match as string, effect: effect as RuleEffect, when });
    parsedRules.add(parsed);
    rules.push(parsed);
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, rules: Object.freeze(rules) };
}

/** Throwing twin of `parseRules`: throws a `ContractError` carrying every issue. */
export function compileRules(value: unknown, options: ParseRulesOptions = {}): readonly ToolRule[] {
  const result = parseRules(value, options);
  if (!result.ok) throw ContractError.fromIssues(result.issues);
  return result.rules;
}
