export {
  ACTION_INVALID,
  type ActionPanel,
  type ActionRequest,
  type ActionResolution,
  MAX_USER_ACTION_RESULT_BYTES,
  type ResolveActionOptions,
  type ResolvedAction,
  resolveAction,
  type UserActionCall,
  type UserActionNoteInput,
  userActionNote,
} from "./actions.js";
export {
  applyPanelUpdate,
  type PanelApplyResult,
  type PanelRevisionInput,
  type PanelRevisionResult,
  type PanelRevisionState,
  updatePanelState,
} from "./apply-update.js";
export {
  type PanelBlockValidation,
  type PanelFormFieldValidation,
  type PanelPartOptions,
  validatePanelBlock,
  validatePanelFormField,
} from "./block-validation.js";
export { isKnownBlockKind, PANEL_BLOCK_KINDS, type PanelBlockKind } from "./blocks/catalog.js";
export {
  MANIFEST_INVALID_PANELS,
  PANEL_ICON_UNKNOWN,
  PANEL_ICONS,
  type PanelDeclarationOptions,
  type PanelDeclarationParse,
  type PanelDeclarationsParse,
  type PanelWarning,
  parsePanelDeclaration,
  parsePanelDeclarations,
} from "./declarations.js";
export {
  derivePanelProgress,
  derivePanelSummary,
  panelTitle,
} from "./derive.js";
export {
  type PanelDocumentValidation,
  validatePanelDocument,
} from "./document.js";
export {
  type ExtractedPanelBlocks,
  extractPanelBlocks,
  isPanelBlock,
  type PanelResultBlock,
} from "./extract.js";
export {
  type FormAnswersValidation,
  type FormAnswerValue,
  type FormField,
  type FormOption,
  MAX_FORM_RESULT_BYTES,
  MAX_FORM_TEXT_BYTES,
  type PreparedForm,
  type PreparedFormField,
  prepareForm,
  validateFormAnswers,
} from "./forms.js";
export {
  DEFAULT_TIMELINE_MAX,
  MAX_BLOCK_FALLBACK_BYTES,
  MAX_CHECKLIST_DEPTH,
  MAX_CHECKLIST_ITEMS,
  MAX_CONTEXT_SUMMARY_BYTES,
  MAX_DECLARATION_TITLE_CHARS,
  MAX_FILES_ENTRIES,
  MAX_FORM_FIELDS,
  MAX_FORM_OPTIONS,
  MAX_KEY_VALUE_ENTRIES,
  MAX_MARKDOWN_BYTES,
  MAX_MERMAID_SOURCE_BYTES,
  MAX_PANEL_ACTIONS,
  MAX_PANEL_BLOCKS,
  MAX_PANEL_DOCUMENT_BYTES,
  MAX_PANELS_PER_TOOL,
  MAX_PATCH_ENTRIES,
  MAX_STEPS_ITEMS,
  MAX_SUBTITLE_CHARS,
  MAX_SUMMARY_CHARS,
  MAX_TABLE_COLUMNS,
  MAX_TABLE_ROWS,
  MAX_TEXT_TABLE_ROWS,
  MAX_TIMELINE_EVENTS,
  MAX_TITLE_CHARS,
} from "./limits.js";
export type { MaybePromise } from "./maybe-async.js";
export {
  PANEL_INVALID,
  PANEL_REVISION_CONFLICT,
  PANEL_TOO_LARGE,
  PANEL_UNKNOWN,
} from "./panel-error.js";
export {
  NO_OPEN_PANELS_TEXT,
  type RenderablePanel,
  type RenderPanelsOptions,
  type RenderPanelsResult,
  renderPanelsText,
} from "./render-panels.js";
export {
  PANEL_STATUS_GLYPHS,
  type ReceiptLineInput,
  renderPanelText,
  renderReceiptLine,
} from "./render-text.js";
export {
  FormAnswersSchema,
  PanelBlockSchema,
  PanelDeclarationSchema,
  PanelDocumentSchema,
  PanelUpdateSchema,
} from "./schemas.js";
export {
  PANEL_TEMPLATE_NAMES,
  type PanelTemplateName,
} from "./templates.js";
export type {
  ChecklistBlock,
  ChecklistItem,
  FilesBlock,
  FilesEntry,
  FormBlock,
  KeyValueBlock,
  KeyValueEntry,
  KnownPanelBlock,
  MarkdownBlock,
  MermaidBlock,
  PanelAction,
  PanelBlock,
  PanelBlockBase,
  PanelDeclaration,
  PanelDocument,
  PanelIcon,
  PanelItemStatus,
  PanelProgress,
  PanelRef,
  PanelStatus,
  ProgressBlock,
  StepsBlock,
  StepsItem,
  TableBlock,
  TableColumn,
  TableRow,
  TimelineBlock,
  TimelineEvent,
  UnknownPanelBlock,
} from "./types.js";
export {
  type AppendEventsPatch,
  type PanelPatch,
  type PanelSetField,
  type PanelUpdate,
  type PanelUpdateOptions,
  type PanelUpdateValidation,
  type RemoveBlockPatch,
  type RemoveItemsPatch,
  type SetBlockPatch,
  type SetPatch,
  type UpsertItemsPatch,
  validatePanelUpdate,
} from "./update.js";

// Moved to `@raw/panel/host` and `@raw/panel/internal`: the same bindings, kept here for one major version.
import * as host from "./host-entry.js";
import * as internal from "./internal.js";

/** @deprecated import from "@raw/panel/host" */
export const acknowledgementOf = host.acknowledgementOf;
/** @deprecated import from "@raw/panel/host" */
export type AsyncInteractionService = host.AsyncInteractionService;
/** @deprecated import from "@raw/panel/host" */
export type AsyncInteractionServiceOptions = host.AsyncInteractionServiceOptions;
/** @deprecated import from "@raw/panel/host" */
export type BeginCallInput = host.BeginCallInput;
/** @deprecated import from "@raw/panel/host" */
export const bindInteractionContext = host.bindInteractionContext;
/** @deprecated import from "@raw/panel/host" */
export type BindInteractionOptions = host.BindInteractionOptions;
/** @deprecated import from "@raw/panel/host" */
export type BoundInteractionContext = host.BoundInteractionContext;
/** @deprecated import from "@raw/panel/host" */
export type Clock = host.Clock;
/** @deprecated import from "@raw/panel/host" */
export const compactionReminders = host.compactionReminders;
/** @deprecated import from "@raw/panel/host" */
export const createInteractionService = host.createInteractionService;
/** @deprecated import from "@raw/panel/host" */
export const createMemoryInteractionStore = host.createMemoryInteractionStore;
/** @deprecated import from "@raw/panel/host" */
export const createPanelHost = host.createPanelHost;
/** @deprecated import from "@raw/panel/host" */
export const DEFAULT_INTERACTION_TIMEOUT_MS = host.DEFAULT_INTERACTION_TIMEOUT_MS;
/** @deprecated import from "@raw/panel/host" */
export const DEFAULT_STORE_TIMEOUT_MS = host.DEFAULT_STORE_TIMEOUT_MS;
/** @deprecated import from "@raw/panel/host" */
export const INTERACTION_CONFLICT_MESSAGE = host.INTERACTION_CONFLICT_MESSAGE;
/** @deprecated import from "@raw/panel/host" */
export type InteractionAcknowledgement = host.InteractionAcknowledgement;
/** @deprecated import from "@raw/panel/host" */
export type InteractionAdapter = host.InteractionAdapter;
/** @deprecated import from "@raw/panel/host" */
export const interactionConflict = host.interactionConflict;
/** @deprecated import from "@raw/panel/host" */
export type InteractionContext = host.InteractionContext;
/** @deprecated import from "@raw/panel/host" */
export const interactionDuplicate = host.interactionDuplicate;
/** @deprecated import from "@raw/panel/host" */
export type InteractionEvent = host.InteractionEvent;
/** @deprecated import from "@raw/panel/host" */
export type InteractionIdentity = host.InteractionIdentity;
/** @deprecated import from "@raw/panel/host" */
export const interactionNotFound = host.interactionNotFound;
/** @deprecated import from "@raw/panel/host" */
export type InteractionRecord = host.InteractionRecord;
/** @deprecated import from "@raw/panel/host" */
export type InteractionRequestInput = host.InteractionRequestInput;
/** @deprecated import from "@raw/panel/host" */
export type InteractionResult = host.InteractionResult;
/** @deprecated import from "@raw/panel/host" */
export type InteractionRetry = host.InteractionRetry;
/** @deprecated import from "@raw/panel/host" */
export type InteractionService = host.InteractionService;
/** @deprecated import from "@raw/panel/host" */
export type InteractionServiceOptions = host.InteractionServiceOptions;
/** @deprecated import from "@raw/panel/host" */
export type InteractionSettle = host.InteractionSettle;
/** @deprecated import from "@raw/panel/host" */
export type InteractionState = host.InteractionState;
/** @deprecated import from "@raw/panel/host" */
export type InteractionStore = host.InteractionStore;
/** @deprecated import from "@raw/panel/host" */
export type InteractionSubmission = host.InteractionSubmission;
/** @deprecated import from "@raw/panel/host" */
export type InteractionTerminalState = host.InteractionTerminalState;
/** @deprecated import from "@raw/panel/host" */
export type InteractionView = host.InteractionView;
/** @deprecated import from "@raw/panel/host" */
export const LIVE_FRAME_INTERVAL_MS = host.LIVE_FRAME_INTERVAL_MS;
/** @deprecated import from "@raw/panel/host" */
export const MAX_IDEMPOTENCY_KEY_CHARS = host.MAX_IDEMPOTENCY_KEY_CHARS;
/** @deprecated import from "@raw/panel/host" */
export const MAX_INTERACTION_TIMEOUT_MS = host.MAX_INTERACTION_TIMEOUT_MS;
/** @deprecated import from "@raw/panel/host" */
export const MAX_PANEL_UPDATES_PER_CALL = host.MAX_PANEL_UPDATES_PER_CALL;
/** @deprecated import from "@raw/panel/host" */
export const MAX_PANELS_PER_SESSION = host.MAX_PANELS_PER_SESSION;
/** @deprecated import from "@raw/panel/host" */
export const MAX_RECEIPT_BYTES = host.MAX_RECEIPT_BYTES;
/** @deprecated import from "@raw/panel/host" */
export const MAX_RECEIPT_ERROR_BYTES = host.MAX_RECEIPT_ERROR_BYTES;
/** @deprecated import from "@raw/panel/host" */
export const MAX_RECEIPT_TITLE_BYTES = host.MAX_RECEIPT_TITLE_BYTES;
/** @deprecated import from "@raw/panel/host" */
export const MAX_REJECTION_ID_BYTES = host.MAX_REJECTION_ID_BYTES;
/** @deprecated import from "@raw/panel/host" */
export const MAX_REJECTION_LINES = host.MAX_REJECTION_LINES;
/** @deprecated import from "@raw/panel/host" */
export const MAX_REJECTION_MESSAGE_BYTES = host.MAX_REJECTION_MESSAGE_BYTES;
/** @deprecated import from "@raw/panel/host" */
export const MAX_REMINDER_BYTES = host.MAX_REMINDER_BYTES;
/** @deprecated import from "@raw/panel/host" */
export const MAX_REMINDERS_TOTAL_BYTES = host.MAX_REMINDERS_TOTAL_BYTES;
/** @deprecated import from "@raw/panel/host" */
export const MIN_REMINDER_BODY_BYTES = host.MIN_REMINDER_BODY_BYTES;
/** @deprecated import from "@raw/panel/host" */
export const PANEL_PROTOCOL = host.PANEL_PROTOCOL;
/** @deprecated import from "@raw/panel/host" */
export const PANEL_SNAPSHOT_VERSION = host.PANEL_SNAPSHOT_VERSION;
/** @deprecated import from "@raw/panel/host" */
export type PanelCall = host.PanelCall;
/** @deprecated import from "@raw/panel/host" */
export type PanelContext = host.PanelContext;
/** @deprecated import from "@raw/panel/host" */
export type PanelFrame = host.PanelFrame;
/** @deprecated import from "@raw/panel/host" */
export type PanelHost = host.PanelHost;
/** @deprecated import from "@raw/panel/host" */
export type PanelHostOptions = host.PanelHostOptions;
/** @deprecated import from "@raw/panel/host" */
export type PanelHostSnapshot = host.PanelHostSnapshot;
/** @deprecated import from "@raw/panel/host" */
export type PanelReceipt = host.PanelReceipt;
/** @deprecated import from "@raw/panel/host" */
export type PanelSettlement = host.PanelSettlement;
/** @deprecated import from "@raw/panel/host" */
export type PanelState = host.PanelState;
/** @deprecated import from "@raw/panel/host" */
export const parsePanelSnapshot = host.parsePanelSnapshot;
/** @deprecated import from "@raw/panel/host" */
export const REMINDER_MARKER = host.REMINDER_MARKER;
/** @deprecated import from "@raw/panel/host" */
export const restorePanelStates = host.restorePanelStates;
/** @deprecated import from "@raw/panel/host" */
export const settleRecord = host.settleRecord;
/** @deprecated import from "@raw/panel/host" */
export const snapshotPanelHost = host.snapshotPanelHost;
/** @deprecated import from "@raw/panel/host" */
export type SyncInteractionStore = host.SyncInteractionStore;
/** @deprecated import from "@raw/panel/host" */
export const systemClock = host.systemClock;
/** @deprecated import from "@raw/panel/host" */
export const TERMINAL_RESULTS = host.TERMINAL_RESULTS;
/** @deprecated import from "@raw/panel/internal" */
export const boundReceipt = internal.boundReceipt;
/** @deprecated import from "@raw/panel/internal" */
export const confirmationLine = internal.confirmationLine;
/** @deprecated import from "@raw/panel/internal" */
export const cutUtf8 = internal.cutUtf8;
/** @deprecated import from "@raw/panel/internal" */
export const firstInProgressLabel = internal.firstInProgressLabel;
/** @deprecated import from "@raw/panel/internal" */
export const formatDuration = internal.formatDuration;
/** @deprecated import from "@raw/panel/internal" */
export const modelLinesBlock = internal.modelLinesBlock;
/** @deprecated import from "@raw/panel/internal" */
export const RECEIPT_SUMMARY_STEP_BYTES = internal.RECEIPT_SUMMARY_STEP_BYTES;
/** @deprecated import from "@raw/panel/internal" */
export const receiptBytes = internal.receiptBytes;
/** @deprecated import from "@raw/panel/internal" */
export const rejectionLine = internal.rejectionLine;
/** @deprecated import from "@raw/panel/internal" */
export const submissionFingerprint = internal.submissionFingerprint;
