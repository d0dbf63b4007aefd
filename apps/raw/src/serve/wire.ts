/**
 * The wire of `raw serve`: every message its server sends the page (the `hello` state and each event of the
 * stream), declared once, in `@raw/host` (the session board, `openSessionBoard`), under the names the page uses. The
 * server (`web-session.ts`, `events.ts`) and the page (`web/app.ts`) both import these types; the module holds types
 * only, so the page's bundle gains no code and never reaches `node:` modules.
 */
export type {
  ApprovalCard as ApprovalView,
  BoardCall as CallView,
  BoardEvent as WireEvent,
  BoardEvents as WireEvents,
  BoardPanel as PanelView,
  BoardPanelEvent as PanelEventData,
  BoardState as WebState,
  BoardTool as ToolView,
  InteractionCard as InteractionView,
  StepName,
  TraceStep,
} from "@raw/host";
