/** The decisions a policy test case may expect (`hidden` is the `deny` of a tool hidden by policy, §9.3). */
export const EXPECTED_DECISIONS = ["allow", "ask", "deny", "hidden"] as const;

/** A decision a case expects. */
export type ExpectedDecision = (typeof EXPECTED_DECISIONS)[number];

/** One case of a `cases.json` file. */
export interface PolicyCase {
  name?: string;
  identity: string;
  arguments?: Record<string, unknown>;
  effects?: Record<string, unknown>;
  expect: ExpectedDecision;
}

/** The `$id` of the cases schema. */
export const POLICY_CASES_SCHEMA_ID = "https://raw.tlelabs.com/schemas/raw.cli/1/cases.schema.json";

/**
 * The JSON Schema of `raw policy test` case files (committed as `schemas/cases.schema.json`). It follows the
 * object-schema compile rules of `tool-api.md` §3, so the CLI validates case files with `compileObjectSchema`.
 */
export const POLICY_CASES_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: POLICY_CASES_SCHEMA_ID,
  title: "raw policy test cases",
  description:
    "Expected policy decisions for `raw policy test <rules.json> <cases.json>`: each case names a canonical identity, optional arguments and effects, and the decision the rules must give.",
  type: "object",
  additionalProperties: false,
  required: ["cases"],
  properties: {
    $schema: { type: "string", description: "Lets editors find this schema." },
    cases: {
      type: "array",
      minItems: 1,
      items: { $ref: "#/$defs/case" },
    },
  },
  $defs: {
    case: {
      type: "object",
      additionalProperties: false,
      required: ["identity", "expect"],
      properties: {
        name: { type: "string", minLength: 1, description: "A label printed with the case." },
        identity: {
          type: "string",
          minLength: 1,
          description: "The canonical identity the rules match, for example builtin/bash.",
        },
        arguments: {
          type: "object",
          description: "The call's arguments; without them only unconditional rules apply.",
        },
        effects: {
          type: "object",
          description: "The call's intended effects, for rules with source effects.",
        },
        expect: {
          type: "string",
          enum: [...EXPECTED_DECISIONS],
          description: "allow, ask or deny as explain decides it; hidden when the tool is hidden (a deny).",
        },
      },
    },
  },
} as const;

/** The committed text of `schemas/cases.schema.json`. */
export function casesSchemaText(): string {
  return `${JSON.stringify(POLICY_CASES_SCHEMA, null, 2)}\n`;
}
