/**
 * `@raw/panel`: the raw.panel/2 document model (`panels.md` §2–§6, §8, §10–§12, §14.1–§14.2): panel declarations,
 * documents, blocks, updates and patches, their validators and schemas, the limits and codes, derived progress and
 * summary, and the plain-text rendering. Pure: no file system, no processes, safe in a browser. The runtime a host
 * runs (the panel host, result blocks, actions, forms and interactions, receipts) is `@raw/panel/host`.
 */
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
  type FormAnswerValue,
  type FormField,
  type FormOption,
  MAX_FORM_TEXT_BYTES,
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
export { renderPanelText } from "./render-text.js";
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
