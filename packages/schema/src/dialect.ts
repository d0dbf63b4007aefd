import type { Dialect } from "./ajv.js";

export type { Dialect } from "./ajv.js";

const DIALECTS: ReadonlyMap<string, Dialect> = new Map<string, Dialect>([
  ["http://json-schema.org/draft-07/schema", "draft-07"],
  ["http://json-schema.org/draft-07/schema#", "draft-07"],
  ["https://json-schema.org/draft-07/schema", "draft-07"],
  ["https://json-schema.org/draft-07/schema#", "draft-07"],
  ["https://json-schema.org/draft/2019-09/schema", "2019-09"],
  ["https://json-schema.org/draft/2019-09/schema#", "2019-09"],
  ["https://json-schema.org/draft/2020-12/schema", "2020-12"],
  ["https://json-schema.org/draft/2020-12/schema#", "2020-12"],
]);

/** The dialect selected by a schema's `$schema` value (absent = 2020-12), or undefined for any other value. */
export function detectDialect(schema: object): Dialect | undefined {
  if (!Object.hasOwn(schema, "$schema")) return "2020-12";
  const declared = (schema as { $schema?: unknown }).$schema;
  return typeof declared === "string" ? DIALECTS.get(declared) : undefined;
}
