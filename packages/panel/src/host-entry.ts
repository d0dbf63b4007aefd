/**
 * `@raw/panel/host`: the runtime side of raw.panel/2 (`panels.md` §6–§9, §11.2, §13, §14.3–§14.5): the panel host and
 * its calls, result blocks, actions, forms, the interaction service and its stores, receipts and the lines a model
 * reads, host snapshots and reminders, and the text of a session's panels. The document model (validation, updates,
 * declarations, rendering of one document) is `@raw/panel`.
 */
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
  type ExtractedPanelBlocks,
  extractPanelBlocks,
  isPanelBlock,
  type PanelResultBlock,
} from "./extract.js";
export {
  type FormAnswersValidation,
  MAX_FORM_RESULT_BYTES,
  type PreparedForm,
  type PreparedFormField,
  prepareForm,
  validateFormAnswers,
} from "./forms.js";
export {
  type BeginCallInput,
  createPanelHost,
  LIVE_FRAME_INTERVAL_MS,
  MAX_PANEL_UPDATES_PER_CALL,
  MAX_PANELS_PER_SESSION,
  PANEL_PROTOCOL,
  type PanelCall,
  type PanelContext,
  type PanelFrame,
  type PanelHost,
  type PanelHostOptions,
  type PanelSettlement,
  type PanelState,
} from "./host.js";
export {
  type Clock,
  systemClock,
} from "./host-clock.js";
export {
  compactionReminders,
  MAX_REMINDER_BYTES,
  MAX_REMINDERS_TOTAL_BYTES,
  MIN_REMINDER_BODY_BYTES,
  REMINDER_MARKER,
} from "./host-reminders.js";
export {
  PANEL_SNAPSHOT_VERSION,
  type PanelHostSnapshot,
  parsePanelSnapshot,
  restorePanelStates,
  snapshotPanelHost,
} from "./host-snapshot.js";
export {
  type AsyncInteractionService,
  type AsyncInteractionServiceOptions,
  createInteractionService,
  DEFAULT_INTERACTION_TIMEOUT_MS,
  DEFAULT_STORE_TIMEOUT_MS,
  type InteractionAdapter,
  type InteractionEvent,
  type InteractionRequestInput,
  type InteractionResult,
  type InteractionRetry,
  type InteractionService,
  type InteractionServiceOptions,
  type InteractionSubmission,
  type InteractionView,
  MAX_IDEMPOTENCY_KEY_CHARS,
  MAX_INTERACTION_TIMEOUT_MS,
} from "./interaction.js";
export {
  type BindInteractionOptions,
  type BoundInteractionContext,
  bindInteractionContext,
  type InteractionContext,
} from "./interaction-context.js";
export {
  acknowledgementOf,
  createMemoryInteractionStore,
  INTERACTION_CONFLICT_MESSAGE,
  type InteractionAcknowledgement,
  type InteractionIdentity,
  type InteractionRecord,
  type InteractionSettle,
  type InteractionState,
  type InteractionStore,
  type InteractionTerminalState,
  interactionConflict,
  interactionDuplicate,
  interactionNotFound,
  type SyncInteractionStore,
  settleRecord,
  TERMINAL_RESULTS,
} from "./interaction-store.js";
export {
  MAX_REJECTION_ID_BYTES,
  MAX_REJECTION_LINES,
  MAX_REJECTION_MESSAGE_BYTES,
} from "./model-lines.js";
export {
  MAX_RECEIPT_BYTES,
  MAX_RECEIPT_ERROR_BYTES,
  MAX_RECEIPT_TITLE_BYTES,
  type PanelReceipt,
} from "./receipts.js";
export {
  NO_OPEN_PANELS_TEXT,
  type RenderablePanel,
  type RenderPanelsOptions,
  type RenderPanelsResult,
  renderPanelsText,
} from "./render-panels.js";
export { type ReceiptLineInput, renderReceiptLine } from "./render-text.js";
export {
  checkStorableRecord,
  checkStorableSettle,
  isStorableId,
  isStorableSessionId,
  isStorableText,
  MAX_STORE_ID_BYTES,
  MAX_STORE_IDEMPOTENCY_KEY_CHARS,
  MAX_STORE_TEXT_BYTES,
} from "./store-inputs.js";
