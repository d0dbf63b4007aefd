import type { HostSession } from "@raw/host";
import { gateIdentities } from "./identity.js";

/** One identity the gate uses for an agent and what the session's unconditional rules decide for it. */
export interface GateIdentityExplanation {
  readonly identity: string;
  readonly decision: string;
  /** The deciding rule's index in the user's rules (`null`: no user rule; `"default"`: an A10 default rule). */
  readonly rule: number | "default" | null;
}

/**
 * The identities of `gateIdentities(agent)` with the decision of the session's rules before any arguments are known
 * (`tool-api.md` §9.5; a conditional `ask` applies only once a request's arguments and effects are known).
 */
export function explainGate(session: HostSession, agent: string): GateIdentityExplanation[] {
  return gateIdentities(agent).map((identity) => {
    const explained = session.explain(identity);
    const index = explained.ruleIndex;
    const defaults = session.rules.defaults;
    const rule = index === null ? null : index < defaults ? "default" : index - defaults;
    return {
      identity,
      decision: explained.decision,
      rule,
    };
  });
}
