export {
  createHookDispatcher,
  type HookDispatcher,
  type HookDispatcherOptions,
  type HookDispatchOptions,
  type HookDispatchResult,
  type HookEnvelopeFields,
  type HookGatePort,
  type HookNotificationRequest,
  type HookNotifyPort,
  type HookRunner,
  type HookToolView,
  type PreToolUseGate,
  type ToolGateRequest,
  type ToolNotification,
  type ToolNotificationRequest,
} from "./dispatcher.js";
export {
  GATE_EVENTS,
  type GateEvent,
  HOOK_EVENTS,
  type HookEvent,
  isGateEvent,
  isHookEvent,
  isToolEvent,
  TOOL_EVENTS,
  type ToolEvent,
} from "./events.js";
export {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_KILL_GRACE_MS,
  HOOK_NAME_PATTERN,
  HOOK_PROTOCOL_VERSION,
  HOOK_SETTLE_GRACE_MS,
  HOOK_SNAPSHOT_STAGING_MAX_AGE_MS,
  MAX_HOOK_ARG_BYTES,
  MAX_HOOK_ARGS,
  MAX_HOOK_COMMAND_BYTES,
  MAX_HOOK_EVENTS,
  MAX_HOOK_INPUT_BYTES,
  MAX_HOOK_MANIFEST_BYTES,
  MAX_HOOK_MESSAGE_BYTES,
  MAX_HOOK_NAME_BYTES,
  MAX_HOOK_OUTPUT_BYTES,
  MAX_HOOK_REASON_BYTES,
  MAX_HOOK_SNAPSHOT_BYTES,
  MAX_HOOK_SNAPSHOT_CACHE_AGE_MS,
  MAX_HOOK_SNAPSHOT_CACHE_ENTRIES,
  MAX_HOOK_SNAPSHOT_FILE_BYTES,
  MAX_HOOK_SNAPSHOT_FILES,
  MAX_HOOK_STDERR_BYTES,
  MAX_HOOK_TIMEOUT_MS,
  MAX_SESSION_SWEEP_ROUNDS,
  SESSION_SWEEP_INTERVAL_MS,
} from "./limits.js";
export {
  defaultSnapshotDir,
  HOOK_COMMAND_NOT_FOUND,
  type HookFolderIssue,
  type HookFolderValidation,
  type LoadedHook,
  type LoadHookFolderOptions,
  loadHookFolder,
  type ValidateHookFolderOptions,
  validateHookFolder,
} from "./load-hook-folder.js";
export {
  HOOK_MANIFEST_FIELDS,
  type HookManifest,
  type HookManifestResult,
  type HookPredicateJson,
  type HookSubscription,
  type ParseHookManifestOptions,
  parseHookManifest,
} from "./manifest.js";
export type { HookManifestJson } from "./manifest-json.js";
export { HookManifestSchema } from "./manifest-schema.js";
export {
  buildHookPayload,
  HOOK_PAYLOAD_INVALID,
  type HookPayloadFields,
  type HookToolFields,
} from "./payload.js";
export {
  type HookPayload,
  type HookPayloadOf,
  HookPayloadSchema,
  type HookRunStatus,
  type HookToolPayload,
  type HookToolResult,
} from "./payload-schema.js";
export {
  type ProcessStat,
  parseProcStat,
  readProcessStat,
  type SessionSweepResult,
  sessionProcesses,
  signalSession,
  sweepSession,
} from "./process-session.js";
export {
  HOOK_ERROR_CODES,
  type HookErrorCode,
  type HookOutcome,
  type HookProcessOutput,
  type HookResponse,
  type HookRunFailure,
  hookFailedMessage,
  parseHookResponse,
} from "./response.js";
export { type HookResponseJson, HookResponseSchema } from "./response-schema.js";
export {
  type HookHurry,
  type HookReceipt,
  type HookRunResult,
  type RunHookOptions,
  type RunnableHook,
  type RunnableHookPayload,
  runHook,
} from "./runner.js";
export { HOOK_ID_PATTERNS, type HookSelectionResult, isHookId, parseHookSelection } from "./selection.js";
