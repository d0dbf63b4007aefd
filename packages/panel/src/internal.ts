/**
 * `@raw/panel/internal`: helpers the host is built from, exported for this repository's packages and tests. Not
 * part of the raw.panel/2 contract: they may change in any release.
 */
export { firstInProgressLabel } from "./derive.js";
export { submissionFingerprint } from "./interaction.js";
export { MAX_TEXT_TABLE_ROWS } from "./limits.js";
export {
  confirmationLine,
  cutUtf8,
  modelLinesBlock,
  rejectionLine,
} from "./model-lines.js";
export {
  boundReceipt,
  RECEIPT_SUMMARY_STEP_BYTES,
  receiptBytes,
} from "./receipts.js";
export { formatDuration, PANEL_STATUS_GLYPHS } from "./render-text.js";
