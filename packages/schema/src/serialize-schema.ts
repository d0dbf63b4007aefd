/** The JSON Schema dialect every generated contract schema declares. */
export const CONTRACT_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** Base of the stable `$id`s of the generated contract schemas. */
export const SCHEMA_ID_BASE = "https://raw.tlelabs.com/schemas";

/**
 * Serializes a TypeBox schema as a committed JSON Schema file: `$schema` and `$id` first, the schema's own
 * keys in declaration order, two-space indentation and a trailing newline.
 */
export function serializeJsonSchema(schema: object, id: string): string {
  const { $schema: _dialect, $id: _id, ...body } = schema as Record<string, unknown>;
  return `${JSON.stringify({ $schema: CONTRACT_SCHEMA_DIALECT, $id: id, ...body }, null, 2)}\n`;
}
