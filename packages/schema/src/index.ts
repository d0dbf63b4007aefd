export type { Dialect } from "./ajv.js";
export { formatValidationIssues, issuesFromAjv, SCHEMA_VIOLATION } from "./ajv-issues.js";
export { MAX_CACHED_SCHEMA_CHARS, MAX_COMPILED_SCHEMAS } from "./compile-cache.js";
export {
  type CompileObjectSchemaOptions,
  compileObjectSchema,
  type ObjectValidator,
  type SchemaProfile,
  safeCompileObjectSchema,
} from "./compile-object-schema.js";
export { deepFreeze, freezeJsonTree } from "./deep-freeze.js";
export { detectDialect } from "./dialect.js";
export {
  DISPLAY_ESCAPED_RANGES,
  type EscapeDisplayOptions,
  escapeDisplayText,
  formatByteCount,
  shortenDisplayText,
  stringifyForDisplay,
} from "./display-text.js";
export { ContractError, type Issue, isContractError, thrownMessage, type Validated } from "./issue.js";
export { nearestName } from "./nearest-name.js";
export { isObjectRecord, isPlainObject } from "./plain-object.js";
export { escapePointerToken, parsePointer, pointer, unescapePointerToken } from "./pointer.js";
export { CONTRACT_SCHEMA_DIALECT, SCHEMA_ID_BASE, serializeJsonSchema } from "./serialize-schema.js";
export { type JsonSnapshot, type SnapshotJsonOptions, snapshotJson } from "./snapshot-json.js";
export { MAX_SCHEMA_FINDINGS, MAX_SCHEMA_WALK_NODES } from "./strict-schema-walk.js";
export { codePoints, truncateUtf8, utf8Bytes } from "./text.js";
export { compileContractSchema, validateWith } from "./validate-with.js";
