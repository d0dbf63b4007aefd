import { ContractError } from "@raw/schema";
import { type PanelCall, panelCallInternals } from "./host.js";
import type { AsyncInteractionService, InteractionResult, InteractionService } from "./interaction.js";

/** The `context.interactions` a handler receives (`panels.md` §13.1). */
export interface InteractionContext {
  /** Asks the user through the declared panel `panel`; resolves to the terminal result of §11.3. */
  request(input: { panel: string; document: unknown; timeout_ms?: number }): Promise<InteractionResult>;
}

/** The host's handle on a bound context: the context itself and the end of the call. */
export interface BoundInteractionContext extends InteractionContext {
  /**
   * The call ended without awaiting its requests: every request still pending ends `cancelled`. This also happens
   * by itself when the panel call's handler settles (`closeContext`, `applyResultBlocks`, `settle`, `abandon`).
   */
  cancelPending(): void;
}

/** What binding needs from the dispatch call. */
export interface BindInteractionOptions {
  /** The call's effective output cap (`context.maxOutputBytes`); forms are fitted to it. */
  maxOutputBytes: number;
  /** The call's abort signal: aborting it cancels the call's requests. */
  signal?: AbortSignal;
  /** The operation id recorded in the requests' identity. */
  operationId?: string;
}

/**
 * Binds an interaction service to one panel call: `request({ panel, document, timeout_ms? })` asks through the
 * call's declared panel, checks the call like a panel update (after settle `panel_closed_context`, an undeclared
 * panel `panel_undeclared`), shows the document as an update of the call (a fresh instance for a chat panel), and
 * cancels with the call's signal or when the handler settles without awaiting the request.
 */
export function bindInteractionContext(
  service: InteractionService | AsyncInteractionService,
  call: PanelCall,
  options: BindInteractionOptions,
): BoundInteractionContext {
  const internals = panelCallInternals(call);
  if (!internals)
    throw new ContractError("interaction_invalid", "interaction_invalid: not a panel call of this package");
  /** One controller per request still waiting: ending the call cancels them. */
  const waiting = new Set<AbortController>();
  const cancelPending = () => {
    for (const controller of [...waiting]) controller.abort();
  };
  // The handler settled: a request it did not await ends cancelled (`panels.md` §13.3).
  internals.onHandlerSettled(cancelPending);
  return {
    async request(input) {
      let panel = "";
      const ended = new AbortController();
      const signal = options.signal ? AbortSignal.any([options.signal, ended.signal]) : ended.signal;
      waiting.add(ended);
      try {
        return await service.request(
          {
            owner: internals.owner,
            panel: typeof input?.panel === "string" ? input.panel : "",
            document: input?.document,
            ...(input?.timeout_ms !== undefined ? { timeout_ms: input.timeout_ms } : {}),
            ...(internals.toolCallId !== undefined ? { toolCallId: internals.toolCallId } : {}),
            ...(options.operationId !== undefined ? { operationId: options.operationId } : {}),
            maxOutputBytes: options.maxOutputBytes,
            prepareView: () => {
              const view = internals.prepareView(input?.panel);
              panel = view.panel;
              return view;
            },
            publish: (record) => {
              internals.publishView(panel, record.document, record.identity.viewInstanceId);
            },
          },
          { signal },
        );
      } finally {
        waiting.delete(ended);
      }
    },
    cancelPending,
  };
}
