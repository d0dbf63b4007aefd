/**
 * `@raw/validate`: validation of tool folders, hook folders, rules files, panel documents and policy cases as an
 * API (`validatePaths`, `formatReport`), the machinery of `raw validate`. Tool entries are imported in an isolated
 * child process, never in the caller's.
 */

export {
  casesSchemaText,
  EXPECTED_DECISIONS,
  type ExpectedDecision,
  POLICY_CASES_SCHEMA,
  POLICY_CASES_SCHEMA_ID,
  type PolicyCase,
} from "./cases.js";
export { ENTRY_IMPORT_TIMEOUT_MS } from "./entry-child.js";
export {
  displayPath,
  type FileFailure,
  type FileFailureCode,
  type JsonFile,
  MAX_INPUT_BYTES,
  parseJsonText,
  readJsonFile,
  readTextFile,
  readTextFileSync,
  type TextFile,
} from "./files.js";
export { formatReport } from "./format-report.js";
export {
  BOM_HINT,
  type JsonSource,
  MAX_JSON_SOURCE_DEPTH,
  parseJsonSource,
  parserMessage,
  positionAt,
  type SourcePosition,
  TRAILING_COMMA_HINT,
} from "./json-source.js";
export {
  type DeclaredName,
  escapeData,
  escapeProperty,
  type FileKind,
  type FileReport,
  formatGithub,
  formatJson,
  formatReports,
  formatText,
  type LocatedIssue,
  locate,
  placeIssue,
  REPORT_FORMATS,
  type ReportedIssue,
  type ReportFormat,
  summaryLine,
} from "./report.js";
export { MAX_CONCURRENT_PATHS } from "./run-validation.js";
export {
  HOOK_MANIFEST_SCHEMA_URL,
  hookScaffold,
  SCAFFOLD_HOOK_NAME,
  SCAFFOLD_TOOL_ID,
  type Scaffold,
  TOOL_MANIFEST_SCHEMA_URL,
  toolScaffold,
} from "./scaffold.js";
export { type ValidateInputCode, ValidateInputError } from "./validate-error.js";
export {
  checkAcrossFolders,
  hookReport,
  toolReport,
  type ValidatePathOptions,
  validateCasesValue,
  validateDocument,
  validateHook,
  validateJsonFile,
  validatePath,
  validateTool,
} from "./validate-files.js";
export type {
  FileValidation,
  ValidatePathsOptions,
  ValidationIssue,
  ValidationReport,
} from "./validate-paths.js";
export { MAX_VALIDATE_PATHS, MAX_VALIDATE_TIMEOUT_MS, reportOf, validatePaths } from "./validate-paths.js";
export {
  VALIDATE_HOOK_SNAPSHOTS_FOLDER,
  VALIDATE_SNAPSHOT_BOUNDS,
  VALIDATE_SNAPSHOT_CLEAN_INTERVAL_MS,
  VALIDATE_SNAPSHOTS_FOLDER,
  ValidateSnapshots,
} from "./validate-snapshots.js";
