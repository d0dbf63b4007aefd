import type { LoadedHook } from "@raw/hook-protocol";
import { openSessionBoard, type SessionBoard } from "@raw/host";
import type { PanelHost, PanelState, SyncInteractionStore } from "@raw/panel/host";
import type { LoadedTool } from "@raw/tool-api";
import { type RulesInput, ruleAt, withDefaultRules } from "../support/inputs.js";
import type { EventHub } from "./events.js";

export type { ApprovalView, CallView, InteractionView, PanelView, ToolView, WebState } from "./wire.js";

/** A failure of a page request outside the board (`BoardRequestError`): an HTTP status, a code and a message. */
export class WebRequestError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 422,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The HTTP status of each refusal of the board. */
export const REFUSAL_STATUS = { invalid: 400, unknown: 404, conflict: 409, rejected: 422 } as const;

/** Options of `openWebSession`. */
export interface WebSessionOptions {
  readonly cwd: string;
  readonly tools: readonly LoadedTool[];
  readonly rules?: RulesInput | undefined;
  readonly hooks?: readonly LoadedHook[] | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Where interaction requests live (`raw serve --state`); default in memory. */
  readonly interactionStore?: SyncInteractionStore | undefined;
  /** Committed sidebar panels to start from (`raw serve --state` after a restart). */
  readonly restorePanels?: readonly PanelState[] | undefined;
  /** Called with the panel host after each committed change of its panels (to keep them for the next run). */
  readonly onPanelsChanged?: ((host: PanelHost) => void) | undefined;
}

/** The session behind `raw serve`: the session board of `@raw/host`, pushed to every page. */
export type WebSession = SessionBoard;

/**
 * Opens the web session: a session board (`openSessionBoard`) whose events go to every page, each policy step of a
 * trace naming its rule where the rules file has it.
 */
export async function openWebSession(options: WebSessionOptions, hub: EventHub): Promise<WebSession> {
  let rules: RulesInput | undefined;
  const board = openSessionBoard({
    cwd: options.cwd,
    tools: options.tools,
    rules: options.rules?.rules,
    hooks: options.hooks,
    hookEnv: options.env,
    store: options.interactionStore,
    restorePanels: options.restorePanels,
    onPanelsChanged: options.onPanelsChanged,
    onEvent: (event) => hub.send(event),
    trace: { approverLabel: "the web page", describeRule: (index) => ruleAt(rules, index) },
  });
  rules = withDefaultRules(options.rules, board.session.rules.rules.slice(0, board.session.rules.defaults));
  return board;
}
