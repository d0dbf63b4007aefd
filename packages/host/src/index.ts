/**
 * `@raw/host`: what every surface of Raw runs (amendment A10): the host session, the rules a session starts from
 * and the one approval view shown before any `ask` is answered.
 */
export {
  type ApprovalEffectLine,
  type ApprovalSubject,
  type ApprovalView,
  type DescribeApprovalOptions,
  describeApproval,
  MAX_APPROVAL_ARGUMENT_BYTES,
  MAX_APPROVAL_ARGUMENT_LINES,
} from "./approval-view.js";
export {
  type CallTrace,
  DEFAULT_RULES_LABEL,
  hookReceiptText,
  type StepName,
  type TraceCallOptions,
  type TracedRule,
  type TraceOptions,
  type TraceStep,
  traceCall,
  traceJson,
} from "./call-trace.js";
export {
  DEFAULT_RULES,
  effectsAskRules,
  identityGlob,
  MAX_GLOB_BYTES,
  type RuleSubject,
  sessionRules,
} from "./default-rules.js";
export {
  type HostApprove,
  type HostCall,
  type HostDispatch,
  type HostDispatchOptions,
  type HostEffectsPreview,
  type HostSession,
  type HostSessionOptions,
  type HostStepEvent,
  type HostTool,
  openHostSession,
  PREVIEW_STOP_REASON,
  type SyncHostSessionOptions,
} from "./host-session.js";
export {
  createSchemaBudgetChecker,
  SCHEMA_BUDGET_EXCEEDED,
  SCHEMA_COMPILE_BUDGET_MS,
  SCHEMA_WORKER_HEAP_MB,
  SCHEMA_WORKER_START_TIMEOUT_MS,
  type SchemaBudgetChecker,
  type SchemaBudgetOptions,
  type SchemaCheck,
} from "./schema-budget.js";
export {
  type ApprovalCard,
  type BoardActionResult,
  type BoardCall,
  type BoardEvent,
  type BoardEvents,
  type BoardPanel,
  type BoardPanelEvent,
  type BoardRefusal,
  BoardRequestError,
  type BoardState,
  type BoardTool,
  type InteractionCard,
  MAX_BOARD_CALLS,
  openSessionBoard,
  type SessionBoard,
  type SessionBoardOptions,
} from "./session-board.js";
export {
  blockText,
  callHeader,
  compactJson,
  effectLines,
  MAX_HEADER_ARGUMENT_BYTES,
  stepText,
} from "./trace-text.js";
