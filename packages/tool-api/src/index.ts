export {
  ACP_PLAN_IGNORED,
  type AcpPlanCandidate,
  type AcpPlanSelection,
  selectAcpPlan,
  selectRegistryAcpPlan,
} from "./acp-plan.js";
export {
  type DefinedTool,
  type DefineToolOptions,
  defineTool,
  type FrozenJson,
  type ToolArgs,
  type ToolInput,
} from "./define-tool.js";
export { sourceDigest } from "./digest.js";
export { DISPATCH_ERROR } from "./dispatch.js";
export {
  DISPATCH_CODES,
  DISPATCH_STEPS,
  type DispatchCode,
  type DispatchCodeEntry,
  type DispatchStep,
} from "./dispatch-codes.js";
export {
  DEFAULT_MAX_OUTPUT_BYTES,
  HANDLER_ABORT_GRACE_MS,
  MAX_DESCRIPTION_BYTES,
  MAX_IMAGE_BYTES,
  MAX_POLICY_CACHE_ENTRIES,
  MAX_RULE_MATCH_BYTES,
  MAX_SNAPSHOT_CACHE_AGE_MS,
  MAX_SNAPSHOT_CACHE_BYTES,
  MAX_SNAPSHOT_CACHE_ENTRIES,
  SNAPSHOT_STAGING_MAX_AGE_MS,
  TOOL_API_VERSION,
  TOOL_ENTRY_PATTERN,
  TOOL_ID_PATTERN,
  TOOL_NAME_PATTERN,
  TOOL_VERSION_PATTERN,
} from "./limits.js";
export { type LintableRule, lintRules, RULE_SHADOWED } from "./lint-rules.js";
export {
  type EntryImporter,
  type LoadedTool,
  type LoadToolFolderOptions,
  type LoadToolOptions,
  loadToolFolder,
  loadToolFolders,
  type ToolFolderValidation,
  type ToolIssue,
  type ToolSelection,
  type ToolSourceLocation,
  validateToolFolder,
} from "./loader.js";
export {
  isValidConditionSources,
  isValidToolId,
  type ParseToolManifestOptions,
  type ParseToolManifestResult,
  parseToolManifest,
  TOOL_MANIFEST_FIELDS,
  type ToolManifest,
} from "./manifest.js";
export type { ToolManifestJson } from "./manifest-json.js";
export { ToolManifestSchema } from "./manifest-schema.js";
export {
  checkManifestPanels,
  type PanelDeclarationsCheck,
  type PanelDeclarationsCheckResult,
} from "./panel-declarations.js";
export { createPolicy, type Policy, type PolicyExplanation, type PolicyOptions } from "./policy.js";
export {
  type AnyToolRegistration,
  createToolRegistry,
  REGISTRATION_INVALID,
  type ToolRegistry,
  type ToolRegistryOptions,
  type ToolRuleJson,
  type ToolRulesInput,
} from "./registry.js";
export {
  type CappableResult,
  capResult,
  errorResult,
  JSON_PREVIEW_PREFIX,
  RESULT_CODE_PATTERN,
} from "./results.js";
export {
  type ParseRulesOptions,
  type ParseRulesResult,
  parseRules,
  RULE_INVALID,
  type RuleEffect,
  type ToolRule,
} from "./rules.js";
export { ToolRuleSchema, ToolRulesSchema } from "./rules-schema.js";
export {
  type CleanSnapshotCacheOptions,
  cleanSnapshotCache,
  defaultSnapshotCacheDir,
  rawCacheRoot,
  SNAPSHOT_CLEAN_MARKER,
  type SnapshotCacheBounds,
} from "./snapshot-cache.js";
export type {
  ApprovalCallback,
  ApprovalRequest,
  CallSource,
  ConditionSource,
  ContentBlock,
  DescribeEffects,
  DispatchContext,
  DispatchObservation,
  DispatchStepEvent,
  DispatchStepName,
  DispatchStepStatus,
  HandlerContentBlock,
  HandlerResult,
  ImageBlock,
  JsonBlock,
  PanelResultBlock,
  PanelSink,
  PanelSinkCall,
  PreToolUseAnswer,
  PreToolUseGate,
  PreToolUseRequest,
  TextBlock,
  ToolCall,
  ToolDefinition,
  ToolHandler,
  ToolHandlerContext,
  ToolInspection,
  ToolInteractionsContext,
  ToolNotification,
  ToolNotificationEvent,
  ToolNotificationRequest,
  ToolPanelDeclaration,
  ToolPanelsContext,
  ToolRegistration,
  ToolResult,
  ValidateArgs,
} from "./types.js";
