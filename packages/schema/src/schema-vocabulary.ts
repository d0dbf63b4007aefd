import { type Dialect, sharedAjv } from "./ajv.js";

/** JSON Schema's primitive type names, in the order hints list them. */
export const JSON_SCHEMA_TYPES: readonly string[] = Object.freeze([
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "null",
]);

const keywordCache = new Map<Dialect, ReadonlySet<string>>();
let formatCache: readonly string[] | undefined;

/**
 * Every keyword the strict profile accepts in a schema of `dialect`: the dialect's vocabulary, the annotations
 * (`title`, `description`, `default`, `examples`, ...) and the format vocabulary, read from the validator that
 * compiles the schema, so the list can never disagree with it.
 */
export function schemaKeywords(dialect: Dialect): ReadonlySet<string> {
  let keywords = keywordCache.get(dialect);
  if (keywords === undefined) {
    keywords = new Set(Object.keys(sharedAjv(dialect).RULES.keywords));
    keywordCache.set(dialect, keywords);
  }
  return keywords;
}

/** The `format` names the strict profile knows (ajv-formats), the same for every dialect. */
export function knownFormats(): readonly string[] {
  formatCache ??= Object.freeze(Object.keys(sharedAjv("2020-12").formats));
  return formatCache;
}
