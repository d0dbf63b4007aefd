import { MAX_PANELS_PER_TOOL, type PanelDeclaration, PanelDeclarationSchema } from "@raw/panel";
import { type PredicateJson, PredicateSchema } from "@raw/predicate";
import Type from "typebox";
import {
  MAX_DESCRIPTION_BYTES,
  MAX_RULE_MATCH_BYTES,
  TOOL_ENTRY_PATTERN,
  TOOL_ID_PATTERN,
  TOOL_NAME_PATTERN,
  TOOL_VERSION_PATTERN,
} from "../src/limits.js";

// The TypeBox sources of the committed JSON Schemas (tool.json, the rules array). They are used at build time only:
// test/schemas.test.ts writes schemas/*.schema.json from them (`npm run schemas`) and fails when a committed file
// drifts; the package ships and exports the JSON, never TypeBox.

/** The panel declaration schema of `@raw/panel` (plain JSON Schema) as a TypeBox schema of its plain type. */
const PanelDeclarationSource = Type.Unsafe<PanelDeclaration>(PanelDeclarationSchema);

/** The predicate schema of `@raw/predicate` (plain JSON Schema) as a TypeBox schema of its plain type. */
const PredicateSource = Type.Unsafe<PredicateJson>(PredicateSchema);

/** A JSON Schema of an object: `type: "object"` and any other keyword (its static type says so, for `Static`). */
const ObjectSchema = (description: string) =>
  Type.Unsafe<{ type: "object"; [keyword: string]: unknown }>(
    Type.Object({ type: Type.Literal("object") }, { description, additionalProperties: true }),
  );

/**
 * JSON Schema of `tool.json` (raw.tool-api/2) for editors. A convenience: `parseToolManifest` is the authority
 * (it also enforces the byte limit of `description`, the schema compile rules and the panel rules).
 */
export const ToolManifestSchemaSource = Type.Object(
  {
    $schema: Type.Optional(
      Type.String({
        description: "Editor hint (amendment A9): the URL of this schema; accepted and ignored.",
      }),
    ),
    api_version: Type.Literal(2, {
      description: "The tool API version: the JSON number 2 (raw.tool-api/2).",
    }),
    id: Type.String({ pattern: TOOL_ID_PATTERN, description: "Folder id; equals the folder name." }),
    version: Type.String({
      pattern: TOOL_VERSION_PATTERN,
      description: "major.minor.patch without leading zeros; a label only.",
    }),
    name: Type.String({ pattern: TOOL_NAME_PATTERN, description: "Model-facing name." }),
    description: Type.String({
      minLength: 1,
      maxLength: MAX_DESCRIPTION_BYTES,
      pattern: "\\S",
      description: `What the tool does and what its result means; at most ${MAX_DESCRIPTION_BYTES} UTF-8 bytes.`,
    }),
    input_schema: ObjectSchema("JSON Schema (object) of the arguments."),
    entry: Type.String({
      pattern: TOOL_ENTRY_PATTERN,
      description: "Entry module exporting handler, and optionally validateArgs and describeEffects.",
    }),
    condition_sources: Type.Optional(
      Type.Array(Type.Union([Type.Literal("arguments"), Type.Literal("effects")]), {
        minItems: 1,
        maxItems: 2,
        uniqueItems: true,
        description: 'Sources a predicate may inspect; default ["arguments"].',
      }),
    ),
    effects_schema: Type.Optional(ObjectSchema("JSON Schema (object) of the intended effects.")),
    panels: Type.Optional(
      Type.Array(PanelDeclarationSource, {
        maxItems: MAX_PANELS_PER_TOOL,
        description: "Panel declarations with distinct ids.",
      }),
    ),
  },
  {
    additionalProperties: false,
    if: {
      type: "object",
      properties: { condition_sources: { type: "array", contains: { const: "effects" } } },
      required: ["condition_sources"],
    },
    then: { type: "object", properties: { effects_schema: {} }, required: ["effects_schema"] },
  },
);

/** JSON Schema of one policy rule (tool-api.md §9.1). */
export const ToolRuleSchemaSource = Type.Object(
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
    when: Type.Optional(PredicateSource),
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
export const ToolRulesSchemaSource = Type.Array(ToolRuleSchemaSource, {
  title: "Raw tool rules",
  description: "Ordered policy rules (raw.tool-api/2): the last applicable rule wins.",
});
