import {
  type CompiledGlob,
  compileGlob,
  compilePredicateSet,
  matchPredicate,
  type Predicate,
  type PredicateSet,
  type RegexEngine,
} from "@raw/predicate";
import { MAX_POLICY_CACHE_ENTRIES } from "./limits.js";
import { RecencyCache } from "./policy-cache.js";
import { compileRules, type RuleEffect, type ToolRule } from "./rules.js";

/** What `explain` returns (tool-api.md §9.5). */
export interface PolicyExplanation {
  decision: RuleEffect;
  /** Index of the deciding rule, or `null` when no rule applied (the default `allow`). */
  ruleIndex: number | null;
  hidden: boolean;
}

/** A policy built from rules (tool-api.md §9.2–9.5). */
export interface Policy {
  /** The parsed rules. */
  readonly rules: readonly ToolRule[];
  /** §9.2: the last applicable rule wins; conditional rules apply only when `args` is supplied. */
  evaluate(identity: string, args?: unknown, effects?: unknown): RuleEffect;
  /** §9.5: the decision, the deciding rule's index and whether the tool is hidden. */
  explain(identity: string, args?: unknown, effects?: unknown): PolicyExplanation;
  /** §9.3: true when the unconditional rules alone give `deny`. */
  isHidden(identity: string): boolean;
}

/** Options of `createPolicy`. */
export interface PolicyOptions {
  /** The RE2 engine raw rules are compiled with (default re2js). */
  engine?: RegexEngine | undefined;
  /** How many identities keep their precomputed plan (default `MAX_POLICY_CACHE_ENTRIES`). */
  maxCachedIdentities?: number | undefined;
}

/**
 * What the rules say about one identity, computed once: the unconditional outcome and the conditional rules that
 * could still change it (those after the last applicable unconditional rule), latest first.
 */
export interface IdentityPlan {
  readonly hidden: boolean;
  /** Effect of the last applicable unconditional rule, or `allow`. */
  readonly baseEffect: RuleEffect;
  /** Index of the last applicable unconditional rule, or -1. */
  readonly baseIndex: number;
  /** Conditional rules whose glob matches and that come after `baseIndex`, highest index first. */
  readonly conditional: readonly Predicate[];
  /** Their indexes, in the same order. */
  readonly conditionalIndex: readonly number[];
  /** The same predicates compiled for "does any match" (one pass per distinct path). */
  readonly conditionalSet: PredicateSet | undefined;
}

/** A compiled rule set: globs compiled once, plans per identity (internal to the registry and `createPolicy`). */
export interface CompiledPolicy {
  readonly rules: readonly ToolRule[];
  readonly globs: readonly CompiledGlob[];
  plan(identity: string): IdentityPlan;
}

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * How many distinct plans (by the rules they hold) a policy keeps, each with its compiled predicate set (a bounded,
 * recency-evicted cache). Identities that the same rules apply to (every identity under a `*` rule, say) share one
 * plan, so an identity whose own cache entry was evicted gets its plan back without building or compiling anything.
 */
export const MAX_POLICY_SET_CACHE_ENTRIES = 256;

/** The applicable rules of one identity, found by one pass over the globs (reused between look-ups). */
const found: { baseIndex: number; conditionalIndex: number[] } = { baseIndex: -1, conditionalIndex: [] };

/** Fills `found` for `identity`: the last applicable unconditional rule, and the conditional ones after it. */
function findRules(rules: readonly ToolRule[], globs: readonly CompiledGlob[], identity: string): number {
  let baseIndex = -1;
  for (let i = 0; i < rules.length; i++) {
    if ((rules[i] as ToolRule).when === undefined && (globs[i] as CompiledGlob).test(identity)) baseIndex = i;
  }
  const conditionalIndex = found.conditionalIndex;
  conditionalIndex.length = 0;
  let hash = baseIndex + 1;
  for (let i = rules.length - 1; i > baseIndex; i--) {
    if ((rules[i] as ToolRule).when !== undefined && (globs[i] as CompiledGlob).test(identity)) {
      conditionalIndex.push(i);
      hash = (Math.imul(hash, 31) + i) | 0;
    }
  }
  found.baseIndex = baseIndex;
  return hash;
}

/** True when `plan` holds exactly the rules in `found`. */
function holdsFound(plan: IdentityPlan): boolean {
  const wanted = found.conditionalIndex;
  const held = plan.conditionalIndex;
  if (plan.baseIndex !== found.baseIndex || held.length !== wanted.length) return false;
  for (let i = 0; i < held.length; i++) if (held[i] !== wanted[i]) return false;
  return true;
}

/** Builds the plan of the rules in `found` (no caching). */
function buildPlan(rules: readonly ToolRule[], engine: RegexEngine | undefined): IdentityPlan {
  const baseIndex = found.baseIndex;
  const baseEffect: RuleEffect = baseIndex >= 0 ? (rules[baseIndex] as ToolRule).effect : "allow";
  const conditionalIndex = [...found.conditionalIndex];
  const conditional = conditionalIndex.map((i) => (rules[i] as ToolRule).when as Predicate);
  return Object.freeze({
    hidden: baseEffect === "deny",
    baseEffect,
    baseIndex,
    conditional: conditional.length === 0 ? EMPTY : Object.freeze(conditional),
    conditionalIndex: conditionalIndex.length === 0 ? EMPTY : Object.freeze(conditionalIndex),
    conditionalSet: conditional.length === 0 ? undefined : compilePredicateSet(conditional, { engine }),
  });
}

/**
 * Compiles parsed (or raw) rules once. `plan(identity)` is cached per identity in a bounded map evicted by recency;
 * behind it, plans are shared by the rules they hold (a second bounded map keyed by those rules), so many
 * identities cycling through the first cache never rebuild a plan nor recompile a regex: a miss costs one pass over
 * the globs.
 */
export function compilePolicy(rules: unknown, options: PolicyOptions = {}): CompiledPolicy {
  const parsed = compileRules(rules ?? [], { engine: options.engine });
  const globs = Object.freeze(parsed.map((rule) => compileGlob(rule.match, { engine: options.engine })));
  const plans = new RecencyCache<string, IdentityPlan>(
    Math.max(1, options.maxCachedIdentities ?? MAX_POLICY_CACHE_ENTRIES),
  );
  const shared = new RecencyCache<number, IdentityPlan[]>(MAX_POLICY_SET_CACHE_ENTRIES);
  const planOf = (identity: string): IdentityPlan => {
    const hash = findRules(parsed, globs, identity);
    let bucket = shared.get(hash);
    if (bucket !== undefined) {
      for (let i = 0; i < bucket.length; i++)
        if (holdsFound(bucket[i] as IdentityPlan)) return bucket[i] as IdentityPlan;
    } else {
      bucket = [];
      shared.set(hash, bucket);
    }
    const plan = buildPlan(parsed, options.engine);
    bucket.push(plan);
    return plan;
  };
  return Object.freeze({
    rules: parsed,
    globs,
    plan(identity: string): IdentityPlan {
      let plan = plans.get(identity);
      if (plan === undefined) {
        plan = planOf(identity);
        if (typeof identity === "string") plans.set(identity, plan);
      }
      return plan;
    },
  });
}

/** A reusable predicate input, so evaluation allocates nothing per call (matchPredicate keeps no reference). */
const scratch: { arguments: unknown; effects: unknown } = { arguments: undefined, effects: undefined };

/**
 * The index of the first conditional rule of `plan` (latest first) whose predicate matches, or -1. Conditional
 * rules apply only when arguments are supplied (§9.2).
 */
export function matchConditional(plan: IdentityPlan, args: unknown, effects: unknown): number {
  const conditional = plan.conditional;
  if (args === undefined || conditional.length === 0) return -1;
  scratch.arguments = args;
  scratch.effects = effects;
  try {
    for (let k = 0; k < conditional.length; k++) {
      if (matchPredicate(conditional[k] as Predicate, scratch)) return k;
    }
    return -1;
  } finally {
    scratch.arguments = undefined;
    scratch.effects = undefined;
  }
}

/** §9.2 on a plan: a matching conditional rule after the last unconditional one gives `ask`. */
export function evaluatePlan(plan: IdentityPlan, args: unknown, effects: unknown): RuleEffect {
  const set = plan.conditionalSet;
  // Conditional rules can only set `ask`: when the base is already `ask`, or none could apply, nothing changes.
  if (set === undefined || args === undefined || plan.baseEffect === "ask") return plan.baseEffect;
  scratch.arguments = args;
  scratch.effects = effects;
  try {
    return set.matchAny(scratch) ? "ask" : plan.baseEffect;
  } finally {
    scratch.arguments = undefined;
    scratch.effects = undefined;
  }
}

/**
 * Creates a policy from rules (parsed by `parseRules`, or raw: raw rules are parsed here and a `ContractError`
 * carrying every issue is thrown when they are invalid). Globs are compiled once; the unconditional outcome and the
 * applicable conditional rules are computed once per identity (bounded cache).
 */
export function createPolicy(rules: unknown, options: PolicyOptions = {}): Policy {
  const compiled = compilePolicy(rules, options);
  return Object.freeze({
    rules: compiled.rules,
    evaluate(identity: string, args?: unknown, effects?: unknown): RuleEffect {
      return evaluatePlan(compiled.plan(identity), args, effects);
    },
    explain(identity: string, args?: unknown, effects?: unknown): PolicyExplanation {
      const plan = compiled.plan(identity);
      if (plan.hidden) return { decision: "deny", ruleIndex: plan.baseIndex, hidden: true };
      const k = matchConditional(plan, args, effects);
      if (k >= 0) return { decision: "ask", ruleIndex: plan.conditionalIndex[k] as number, hidden: false };
      return {
        decision: plan.baseEffect,
        ruleIndex: plan.baseIndex >= 0 ? plan.baseIndex : null,
        hidden: false,
      };
    },
    isHidden(identity: string): boolean {
      return compiled.plan(identity).hidden;
    },
  });
}
