export { checkDraft, draftAnswers, type FormDraft } from "./form.js";
export {
  EMPTY_PANEL_STATE,
  type FrameOutcome,
  type FrameRejection,
  nextPanelState,
  type PanelFrameInput,
  type PanelViewState,
} from "./frames.js";
export { MAX_MARKDOWN_NESTING, renderMarkdown } from "./markdown.js";
export { loadMermaidPackage, type MermaidApi, type MermaidLoader, renderMermaid } from "./mermaid.js";
export { type ActionDetail, type FormSubmitDetail, RawPanelElement } from "./raw-panel.js";
export { ALLOWED_LINK_SCHEMES, isAllowedLink } from "./safe-url.js";
export { panelStyles } from "./styles.js";
