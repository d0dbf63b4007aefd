import committed from "../schemas/tool.schema.json" with { type: "json" };

const { $schema: _dialect, $id: _id, ...schema } = committed;

/**
 * JSON Schema of `tool.json` (raw.tool-api/2) for editors, as a plain JSON Schema (2020-12) object: the committed
 * `schemas/tool.schema.json` without `$schema` and `$id`, generated at build time from its TypeBox source
 * (`test/schema-source.ts`; a test fails on drift), so TypeBox is not needed at run time. A convenience:
 * `parseToolManifest` is the authority (it also enforces the byte limit of `description`, the schema compile rules
 * and the panel rules).
 */
export const ToolManifestSchema = schema;
