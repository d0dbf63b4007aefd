import { truncateUtf8, utf8Bytes } from "@raw/schema";
import type { ToolRule, ToolRuleJson } from "@raw/tool-api";

/**
 * The rules every surface starts from without a rules file (amendment A10): ask before the bundled tools that
 * write files and run commands. `sessionRules` adds an unconditional `ask` for every other loaded tool that
 * declares an effects schema.
 */
export const DEFAULT_RULES: readonly ToolRuleJson[] = Object.freeze([
  Object.freeze({ match: "builtin/write_file", effect: "ask" }),
  Object.freeze({ match: "builtin/bash", effect: "ask" }),
]);

/** Longest identity glob a rule may hold (`predicate.md` §8: 1 to 256 bytes). */
export const MAX_GLOB_BYTES = 256;

/** What `sessionRules` reads of a loaded tool: its identity and whether it declares an effects schema. */
export interface RuleSubject {
  readonly identity: string;
  readonly effectsSchema?: unknown;
}

/**
 * A glob that matches `identity` itself. Globs have no escaping (`predicate.md` §8), but `*` and `?` in an identity
 * still match themselves, so the identity is its own glob; one over 256 bytes is cut to 255 bytes and ends `*`
 * (it then matches a few more identities, which only asks more often).
 */
export function identityGlob(identity: string): string {
  if (utf8Bytes(identity) <= MAX_GLOB_BYTES) return identity;
  return `${truncateUtf8(identity, MAX_GLOB_BYTES - 1)}*`;
}

/**
 * The unconditional `ask` rules A10 adds as tools load: one per tool that declares an effects schema (intended
 * effects are how a tool says it changes things), in the order given, each identity once and none that
 * `DEFAULT_RULES` already asks before.
 */
export function effectsAskRules(tools: readonly RuleSubject[]): ToolRuleJson[] {
  const seen = new Set<string>(DEFAULT_RULES.map((rule) => rule.match));
  const rules: ToolRuleJson[] = [];
  for (const tool of tools) {
    if (tool.effectsSchema === undefined || seen.has(tool.identity)) continue;
    seen.add(tool.identity);
    rules.push({ match: identityGlob(tool.identity), effect: "ask" });
  }
  return rules;
}

/**
 * The rules a host session runs (A10): `DEFAULT_RULES`, then an `ask` rule per loaded tool that declares an effects
 * schema, then the user's own rules. The last applicable rule decides (`tool-api.md` §9.2), so a user rule that
 * matches a call always wins — `allow` runs it unasked, `deny` hides it — and a tool the user's rules never
 * mention is still asked before when it changes things. `defaults` counts the rules before the user's.
 */
export function sessionRules(
  user: readonly (ToolRule | ToolRuleJson)[] | undefined,
  tools: readonly RuleSubject[],
): { rules: Array<ToolRule | ToolRuleJson>; defaults: number } {
  const defaults: ToolRuleJson[] = [...DEFAULT_RULES, ...effectsAskRules(tools)];
  return { rules: [...defaults, ...(user ?? [])], defaults: defaults.length };
}
