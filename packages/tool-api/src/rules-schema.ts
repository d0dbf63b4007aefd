import { PredicateSchema } from "@raw/predicate";
import Type from "typebox";
import { MAX_RULE_MATCH_BYTES } from "./limits.js";

/** JSON Schema of one policy rule (tool-api.md §9.1). */
export const ToolRuleSchema = Type.Object(
  {
    match: Type.String({
      minLength: 1,
      maxLength: MAX_RULE_MATCH_BYTES,
      pattern: "\\S",
      description: `Identity glob (* and ? wildcards, everything else literal, untrimmed); at most ${MAX_RULE_MATCH_BYTES} UTF-8 bytes.`,
    }),
    effect: Type.Union([Type.Literal("allow"), Type.Literal("ask"), Type.Literal("deny")], {
      description: "What the rule decides; a rule with when must be ask.",
    }),
    when: Type.Optional(PredicateSchema),
  },
  {
    additionalProperties: false,
    if: { type: "object", properties: { when: {} }, required: ["when"] },
    then: { type: "object", properties: { effect: { const: "ask" } } },
  },
);

/**
 * JSON Schema of a policy rules array (tool-api.md §9.1) for editors. A convenience: `parseRules` is the authority
 * (byte limits, RE2 validity of `when.regex`).
 */
export const ToolRulesSchema = Type.Array(ToolRuleSchema, {
  title: "Raw tool rules",
  description: "Ordered policy rules (raw.tool-api/2): the last applicable rule wins.",
});
