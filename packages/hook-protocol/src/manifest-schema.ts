import committed from "../schemas/hook.schema.json" with { type: "json" };

const { $schema: _dialect, $id: _id, ...schema } = committed;

/**
 * `hook.json` (hooks.md §3) as a plain JSON Schema (2020-12) object, for editors and documentation: the committed
 * `schemas/hook.schema.json` without `$schema` and `$id`, generated at build time from its TypeBox source
 * (`test/schema-source.ts`; a test fails on drift), so TypeBox is not needed at run time. Byte limits are given in
 * the descriptions (the schema's `maxLength` counts characters); `parseHookManifest` is the authority.
 */
export const HookManifestSchema = schema;
