import committed from "../schemas/rules.schema.json" with { type: "json" };

const { $schema: _dialect, $id: _id, ...schema } = committed;

/**
 * JSON Schema of a policy rules array (tool-api.md §9.1) for editors, as a plain JSON Schema (2020-12) object: the
 * committed `schemas/rules.schema.json` without `$schema` and `$id`, generated at build time from its TypeBox source
 * (`test/schema-source.ts`; a test fails on drift), so TypeBox is not needed at run time. A convenience: `parseRules`
 * is the authority (byte limits, RE2 validity of `when.regex`).
 */
export const ToolRulesSchema = schema;

/** JSON Schema of one policy rule (tool-api.md §9.1): the items schema of `ToolRulesSchema`. */
export const ToolRuleSchema = schema.items;
