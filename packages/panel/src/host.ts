import { ContractError, type Issue, thrownMessage } from "@raw/schema";
import { updatePanelState } from "./apply-update.js";
import {
  derivePanelProgress as progressOf,
  derivePanelSummary as summaryOf,
  panelTitle as titleOf,
} from "./derive.js";
import { type Clock, systemClock } from "./host-clock.js";
import {
  confirmationLine,
  localPanelId,
  MAX_REJECTION_LINES,
  rejectionLine,
  valueLabel,
} from "./model-lines.js";
import { boundReceipt, type PanelReceipt } from "./receipts.js";
import type { PanelDeclaration as HostDeclaration, PanelDocument as HostDocument } from "./types.js";

/** The next state of a panel after an accepted update. */
interface HostStep {
  ok: true;
  revision: number;
  document: HostDocument;
  closed: boolean;
  op: "replace" | "patch" | "close";
}

/**
 * `panels.md` §7.2 steps 5–6 for one update addressed to a panel whose state is `current` (or none): shape and
 * document validation, patch application, then `base_revision`. The next revision, document and closed flag, or
 * the first failure.
 */
function stepPanel(
  current: { revision: number; document: HostDocument; closed: boolean } | undefined,
  update: unknown,
): HostStep | { ok: false; issue: Issue } {
  const result = updatePanelState(current, update);
  if (!result.ok) {
    return {
      ok: false,
      issue: result.issues[0] ?? { code: "panel_invalid", message: "/: is not valid", path: "/" },
    };
  }
  const { state, update: checked } = result;
  return {
    ok: true,
    revision: state.revision,
    document: state.document,
    closed: state.closed,
    op: checked.op,
  };
}

/** Sidebar panels with data per session, open and closed (`panels.md` §7.4). */
export const MAX_PANELS_PER_SESSION = 16;

/** Accepted updates per panel per call, streaming and result blocks together (`panels.md` §7.3). */
export const MAX_PANEL_UPDATES_PER_CALL = 200;

/** Live frames go out at most once per panel per this many milliseconds (`panels.md` §7.6). */
export const LIVE_FRAME_INTERVAL_MS = 250;

/** Declared titles of implicit panels keep this many characters of the document title (`panels.md` §2.4). */
const IMPLICIT_TITLE_CHARS = 40;

/** The panel protocol a handler context advertises (`context.panels.protocol`). */
export const PANEL_PROTOCOL = 2;

/** A panel's state: its declaration and the current revision of its document. Documents are deep-frozen. */
export interface PanelState {
  /** `<owner>#<local id>`. */
  readonly fullId: string;
  readonly owner: string;
  /** The local id. */
  readonly id: string;
  readonly declaration: HostDeclaration;
  readonly revision: number;
  readonly document: HostDocument;
  readonly closed: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The view instance id of a `chat` panel. */
  readonly view?: string;
}

/** A live frame pushed to observers (`panels.md` §7.6): a panel's latest state, or its removal. */
export type PanelFrame =
  | {
      readonly type: "update";
      readonly fullId: string;
      readonly owner: string;
      readonly panel: string;
      readonly view?: string;
      readonly revision: number;
      readonly document: HostDocument;
      readonly closed: boolean;
      /** `false` for the final frame of a commit (or a rollback). */
      readonly live: boolean;
    }
  | {
      readonly type: "remove";
      readonly fullId: string;
      readonly owner: string;
      readonly panel: string;
      readonly view?: string;
      readonly live: false;
    };

/** Options of `createPanelHost`. */
export interface PanelHostOptions {
  /** Time and timers for coalescing and timestamps (default: the system clock). */
  clock?: Clock;
  /** An observer of live frames (more can be added with `subscribe`). */
  onFrame?: (frame: PanelFrame) => void;
  /**
   * Committed sidebar panels to start from (a restart: `restorePanelStates(store.loadPanels(session))`); their
   * revisions continue where they stopped.
   */
  restore?: readonly PanelState[];
}

/** What `beginCall` needs to know about a tool call. */
export interface BeginCallInput {
  /** The canonical identity of the tool; it owns the panels it writes. */
  owner: string;
  /** The tool's normalized panel declarations. */
  declarations: readonly HostDeclaration[];
  /** The call's id, copied into receipts. */
  toolCallId?: string;
  /** `"model"` (default) or `"user_action"` for a panel action run by the user. */
  source?: "model" | "user_action";
  /** `true` for owners that may write panels they never declared (MCP and ACP tools, `panels.md` §2.4). */
  implicitPanels?: boolean;
}

/** The `context.panels` a handler receives (`panels.md` §6.1). */
export interface PanelContext {
  /** The panel protocol: the number 2. */
  readonly protocol: 2;
  /** Applies one update (`body` is the update without `panel`); rejects with a `ContractError` panel error. */
  update(panel: unknown, body: unknown): Promise<{ revision: number }>;
  /** The panel's state in this call (committed or provisional), or `undefined`; keeps working after settle. */
  get(panel: unknown): { revision: number; document: HostDocument } | undefined;
}

/** What `settle` returns: the receipts to commit with the result and the lines the model sees. */
export interface PanelSettlement {
  receipts: PanelReceipt[];
  modelLines: string[];
}

/** The panel side of one tool call (`panels.md` §7). */
export interface PanelCall {
  /** The handler's `context.panels`. */
  readonly context: PanelContext;
  /** Closes the streaming window: the handler returned or threw (`update()` then fails with `panel_closed_context`). */
  closeContext(): void;
  /** Applies the result blocks removed from the handler result, in order (closes the streaming window). */
  applyResultBlocks(blocks: readonly unknown[]): void;
  /**
   * Commits the call's panel changes and returns its receipts and model-visible lines. `hasOtherContent` tells
   * whether the result kept non-panel content (confirmation lines appear only when it did not; default `false`).
   * Settling again returns the same settlement.
   */
  settle(options?: { hasOtherContent?: boolean }): PanelSettlement;
  /** Rolls the call's panel changes back (before or after settle), e.g. when the host's own commit failed. */
  abandon(): void;
}

/** The panels of one session (`panels.md` §7). */
export interface PanelHost {
  /** Starts a tool call; rolls back an earlier call that was neither settled nor abandoned. */
  beginCall(input: BeginCallInput): PanelCall;
  /** The sidebar panels with data (provisional ones of an open call included), in creation order; no chat views. */
  list(): PanelState[];
  /** A sidebar panel by full id. */
  get(fullId: string): PanelState | undefined;
  /** A committed chat view instance by its view id. */
  getView(viewId: string): PanelState | undefined;
  /**
   * A `PanelSink` (`tool-api.md` §7.8): hands result blocks to the open call (`applyResultBlocks`); ignored when no
   * call is open.
   */
  readonly sink: (blocks: readonly unknown[]) => void;
  /** Adds a live-frame observer; returns an unsubscribe function. A throwing observer never affects state. */
  subscribe(observer: (frame: PanelFrame) => void): () => void;
}

/** How a rejected update is reported internally. */
type Rejection = { ok: false; issue: Issue };
type Outcome = { ok: true; revision: number; entry: PanelState } | Rejection;

/** Internal hooks of a call used by the interaction binding (`bindInteractionContext`). */
export interface PanelCallInternals {
  readonly owner: string;
  readonly toolCallId: string | undefined;
  /** Calls `listener` once the handler has settled (at once when it already has). */
  onHandlerSettled(listener: () => void): void;
  /** `panels.md` §13.2 step 6: settled, panel argument and ownership checks; the declaration when declared. */
  prepareView(panel: unknown): { declaration: HostDeclaration | undefined; panel: string };
  /** Shows an interaction document as a `replace` update (a fresh instance for a chat panel); throws a panel error. */
  publishView(panel: string, document: unknown, viewInstanceId: string | undefined): number;
}

/**
 * The key of a call's own internals: a non-enumerable property of every `PanelCall` a host creates. A registered
 * symbol (`Symbol.for`), so that `bindInteractionContext` from any copy of this package (its ES module and
 * CommonJS builds, two installs) reads the calls of a host from any other copy: the call carries its state, no
 * module holds it.
 */
export const PANEL_CALL_INTERNALS: unique symbol = Symbol.for("raw.panel/2.call-internals");

/** The internals of a panel call created by a host of any copy of this package, or `undefined`. */
export function panelCallInternals(call: unknown): PanelCallInternals | undefined {
  if (typeof call !== "object" || call === null) return undefined;
  const internals: unknown = Object.getOwnPropertyDescriptor(call, PANEL_CALL_INTERNALS)?.value;
  return typeof internals === "object" && internals !== null ? (internals as PanelCallInternals) : undefined;
}

function error(code: string, message: string, path?: string): Rejection {
  return { ok: false, issue: path === undefined ? { code, message } : { code, message, path } };
}

function toError(issue: Issue): ContractError {
  return new ContractError(issue.code, issue.message, [issue]);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Copies own enumerable properties without invoking setters (a `__proto__` key stays data). */
function copyOwn(value: Record<string, unknown>, skip: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === skip) continue;
    Object.defineProperty(out, key, {
      value: value[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function implicitDeclaration(id: string, document: HostDocument): HostDeclaration {
  const title = typeof document.title === "string" && document.title !== "" ? document.title : id;
  return {
    id,
    title: Array.from(title).slice(0, IMPLICIT_TITLE_CHARS).join(""),
    icon: "panel",
    open: "never",
    context: "none",
    placement: "sidebar",
    acp_plan: false,
    actions: [],
  };
}

interface FrameSlot {
  lastSentAt?: number | undefined;
  timer?: unknown;
  pending?: PanelState | undefined;
}

/**
 * Creates the panel host of one session (`panels.md` §7): per-call update checks in the spec's order, revisions,
 * the per-call rate limit, the 16-panel session limit with eviction, chat view instances, live-frame coalescing,
 * and commit at settle with rollback on `abandon()`.
 */
export function createPanelHost(options: PanelHostOptions = {}): PanelHost {
  const clock = options.clock ?? systemClock;
  const observers = new Set<(frame: PanelFrame) => void>();
  if (options.onFrame) observers.add(options.onFrame);
  /** Committed sidebar panels by full id, in creation order. */
  const committed = new Map<string, PanelState>();
  /** Committed chat views by view id. */
  const views = new Map<string, PanelState>();
  const frames = new Map<string, FrameSlot>();
  const order = new WeakMap<PanelState, number>();
  let sequence = 0;
  let active: CallImpl | undefined;
  for (const state of options.restore ?? []) {
    if (committed.has(state.fullId) || committed.size >= MAX_PANELS_PER_SESSION) continue;
    committed.set(state.fullId, state);
    order.set(state, ++sequence);
  }

  const emit = (frame: PanelFrame) => {
    for (const observer of [...observers]) {
      try {
        observer(frame);
      } catch {
        // An observer that throws never affects panel state.
      }
    }
  };
  const slotKey = (state: { fullId: string; view?: string | undefined }) =>
    state.view === undefined ? state.fullId : `${state.fullId}\u0000${state.view}`;
  const updateFrame = (state: PanelState, live: boolean): PanelFrame => ({
    type: "update",
    fullId: state.fullId,
    owner: state.owner,
    panel: state.id,
    ...(state.view !== undefined ? { view: state.view } : {}),
    revision: state.revision,
    document: state.document,
    closed: state.closed,
    live,
  });
  const removeFrame = (state: PanelState): PanelFrame => ({
    type: "remove",
    fullId: state.fullId,
    owner: state.owner,
    panel: state.id,
    ...(state.view !== undefined ? { view: state.view } : {}),
    live: false,
  });

  /** Schedules a live frame: at once when 250 ms have passed since the last one, else coalesced (latest wins). */
  const scheduleFrame = (state: PanelState) => {
    const key = slotKey(state);
    let slot = frames.get(key);
    if (!slot) {
      slot = {};
      frames.set(key, slot);
    }
    const now = clock.now();
    if (
      slot.timer === undefined &&
      (slot.lastSentAt === undefined || now - slot.lastSentAt >= LIVE_FRAME_INTERVAL_MS)
    ) {
      slot.lastSentAt = now;
      emit(updateFrame(state, true));
      return;
    }
    slot.pending = state;
    if (slot.timer !== undefined) return;
    const current = slot;
    const wait = LIVE_FRAME_INTERVAL_MS - (now - (slot.lastSentAt ?? now));
    current.timer = clock.setTimeout(() => {
      current.timer = undefined;
      const latest = current.pending;
      current.pending = undefined;
      if (!latest) return;
      current.lastSentAt = clock.now();
      emit(updateFrame(latest, true));
    }, wait);
  };

  /** Sends a final (`live: false`) frame, dropping any coalesced one. */
  const finalFrame = (key: string, frame: PanelFrame) => {
    const slot = frames.get(key);
    if (slot?.timer !== undefined) clock.clearTimeout(slot.timer);
    frames.set(key, { lastSentAt: clock.now() });
    emit(frame);
  };

  class CallImpl implements PanelCall {
    readonly context: PanelContext;
    readonly owner: string;
    readonly toolCallId: string | undefined;
    readonly source: "tool" | "user_action";
    readonly declarations: ReadonlyMap<string, HostDeclaration>;
    readonly implicit: boolean;
    /** Provisional sidebar states by full id (`null`: evicted in this call). */
    readonly working = new Map<string, PanelState | null>();
    /** This call's chat instances by full id (the latest instance per panel). */
    readonly chat = new Map<string, PanelState>();
    /** Accepted updates per full id. */
    readonly accepted = new Map<string, number>();
    /** Touched panels and views in order of first accepted update: the final state and the last op. */
    readonly touched = new Map<string, { state: PanelState; op: HostStep["op"] }>();
    /** Rejected result blocks, in order. */
    readonly rejections: Array<{ panel: unknown; issue: Issue; receipt: PanelReceipt | undefined }> = [];
    readonly rejectedPanels = new Set<string>();
    handlerSettled = false;
    readonly closeListeners: Array<() => void> = [];
    phase: "open" | "settled" | "abandoned" = "open";
    settlement: PanelSettlement | undefined;
    /** What the commit replaced, to undo it: sidebar states by full id and the committed views. */
    undo:
      | {
          sidebar: Map<string, { before: PanelState | undefined; after: PanelState | null }>;
          views: string[];
        }
      | undefined;

    constructor(input: BeginCallInput) {
      this.owner = input.owner;
      this.toolCallId = input.toolCallId;
      this.source = input.source === "user_action" ? "user_action" : "tool";
      this.declarations = new Map((input.declarations ?? []).map((d) => [d.id, d] as const));
      this.implicit = input.implicitPanels === true;
      const call = this;
      this.context = Object.freeze({
        protocol: PANEL_PROTOCOL as 2,
        update(panel: unknown, body: unknown): Promise<{ revision: number }> {
          const outcome = call.streamUpdate(panel, body);
          return outcome.ok
            ? Promise.resolve({ revision: outcome.revision })
            : Promise.reject(toError(outcome.issue));
        },
        get(panel: unknown) {
          return call.read(panel);
        },
      });
      const internals: PanelCallInternals = {
        owner: this.owner,
        toolCallId: this.toolCallId,
        onHandlerSettled: (listener) => {
          if (this.handlerSettled) listener();
          else this.closeListeners.push(listener);
        },
        prepareView: (panel) => this.prepareView(panel),
        publishView: (panel, document, view) => {
          const outcome = this.apply(panel, { op: "replace", document }, { freshView: view });
          if (!outcome.ok) throw toError(outcome.issue);
          return outcome.revision;
        },
      };
      Object.defineProperty(this, PANEL_CALL_INTERNALS, { value: Object.freeze(internals) });
    }

    /** The sidebar state visible to this call: provisional, else committed. */
    sidebar(fullId: string): PanelState | undefined {
      if (this.working.has(fullId)) return this.working.get(fullId) ?? undefined;
      return committed.get(fullId);
    }

    /** Resolves a panel argument to its local id and full id, or the step-2 rejection. */
    resolve(panel: unknown): { id: string; fullId: string } | Rejection {
      if (typeof panel !== "string") {
        return error("panel_invalid", `/panel: must be a string, got ${valueLabel(panel)}`, "/panel");
      }
      const hash = panel.lastIndexOf("#");
      if (hash >= 0 && panel.slice(0, hash) !== this.owner) {
        return error("panel_not_owned", `panel "${panel}" belongs to another owner`);
      }
      const id = localPanelId(panel);
      return { id, fullId: `${this.owner}#${id}` };
    }

    /** The declaration of a local id: declared, or the stored implicit one for an implicit owner. */
    declaration(id: string, fullId: string): HostDeclaration | undefined {
      const declared = this.declarations.get(id);
      if (declared || !this.implicit) return declared;
      return this.sidebar(fullId)?.declaration;
    }

    read(panel: unknown): { revision: number; document: HostDocument } | undefined {
      const target = this.resolve(panel);
      if ("ok" in target) return undefined;
      const declaration = this.declaration(target.id, target.fullId);
      const state =
        declaration?.placement === "chat" ? this.chat.get(target.fullId) : this.sidebar(target.fullId);
      return state ? { revision: state.revision, document: state.document } : undefined;
    }

    streamUpdate(panel: unknown, body: unknown): Outcome {
      if (this.handlerSettled || this.phase !== "open") {
        return error("panel_closed_context", "context.panels.update was called after the handler settled");
      }
      return this.apply(panel, body, {});
    }

    prepareView(panel: unknown): { declaration: HostDeclaration | undefined; panel: string } {
      if (this.handlerSettled || this.phase !== "open") {
        throw new ContractError("panel_closed_context", "interaction requested after the handler settled");
      }
      const target = this.resolve(panel);
      if ("ok" in target) throw toError(target.issue);
      return { declaration: this.declarations.get(target.id), panel: target.id };
    }

    /** The checks of `panels.md` §7.2 from step 2 on, then acceptance. `body` is the update without `panel`. */
    apply(panel: unknown, body: unknown, how: { freshView?: string | undefined }): Outcome {
      // 2. The panel argument and ownership.
      const target = this.resolve(panel);
      if ("ok" in target) return target;
      const { id, fullId } = target;
      // 3. The rate limit (accepted updates per full id in this call).
      const count = this.accepted.get(fullId) ?? 0;
      if (count >= MAX_PANEL_UPDATES_PER_CALL) {
        return error(
          "panel_rate_limited",
          `more than ${MAX_PANEL_UPDATES_PER_CALL} updates to "${fullId}" in one tool call`,
        );
      }
      // 4. Declared, unless the owner is implicit.
      const declared = this.declaration(id, fullId);
      if (!declared && !this.implicit) {
        return error("panel_undeclared", `tool ${this.owner} did not declare panel "${id}"`);
      }
      const chat = declared?.placement === "chat";
      const current = chat
        ? how.freshView !== undefined
          ? undefined
          : this.chat.get(fullId)
        : this.sidebar(fullId);
      // 5–6. Shape, document and patch application, then the base revision (checked after validation).
      let step: HostStep;
      try {
        const update = isObject(body) ? { ...copyOwn(body, "panel"), panel: id } : body;
        const result = stepPanel(current, update);
        if (!result.ok) return result;
        step = result;
      } catch (thrown) {
        return error("panel_invalid", `/: update could not be applied: ${thrownMessage(thrown)}`, "/");
      }
      // 7. The session limit, for a new sidebar panel.
      if (!chat && current === undefined) {
        const full = this.sessionPanels();
        if (full.length >= MAX_PANELS_PER_SESSION) {
          const victim = full
            .filter((p) => p.closed)
            .sort(
              (a, b) =>
                a.updatedAt - b.updatedAt ||
                a.createdAt - b.createdAt ||
                (order.get(a) ?? 0) - (order.get(b) ?? 0),
            )[0];
          if (!victim) {
            return error(
              "panel_limit",
              `this session already has ${MAX_PANELS_PER_SESSION} panels and none is closed`,
            );
          }
          this.working.set(victim.fullId, null);
        }
      }
      // 8. Accept.
      const now = clock.now();
      const declaration = declared ?? implicitDeclaration(id, step.document);
      const view = chat ? (how.freshView ?? current?.view ?? crypto.randomUUID()) : undefined;
      const state: PanelState = Object.freeze({
        fullId,
        owner: this.owner,
        id,
        declaration,
        revision: step.revision,
        document: step.document,
        closed: step.closed,
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
        ...(view !== undefined ? { view } : {}),
      });
      order.set(state, ++sequence);
      if (chat) this.chat.set(fullId, state);
      else this.working.set(fullId, state);
      this.accepted.set(fullId, count + 1);
      // A Map keeps the position of the first insertion: touched panels stay in order of first accepted update.
      this.touched.set(slotKey(state), { state, op: step.op });
      scheduleFrame(state);
      return { ok: true, revision: state.revision, entry: state };
    }

    /** The sidebar panels with data as this call sees them. */
    sessionPanels(): PanelState[] {
      const out: PanelState[] = [];
      for (const [fullId, state] of committed) {
        if (this.working.has(fullId)) {
          const w = this.working.get(fullId);
          if (w) out.push(w);
        } else out.push(state);
      }
      for (const [fullId, state] of this.working) if (state && !committed.has(fullId)) out.push(state);
      return out;
    }

    closeContext(): void {
      this.endHandler();
    }

    /** Closes the streaming window once and tells the listeners (pending interactions end cancelled). */
    endHandler(): void {
      if (this.handlerSettled) return;
      this.handlerSettled = true;
      for (const listener of this.closeListeners.splice(0)) {
        try {
          listener();
        } catch {
          // A listener never affects the call.
        }
      }
    }

    applyResultBlocks(blocks: readonly unknown[]): void {
      this.endHandler();
      if (this.phase !== "open") return;
      for (const block of Array.isArray(blocks) ? blocks : []) {
        let panel: unknown;
        let outcome: Outcome;
        try {
          panel = isObject(block) ? block.panel : undefined;
          outcome = this.apply(panel, isObject(block) ? copyOwn(block, "type") : block, {});
        } catch (thrown) {
          outcome = error("panel_invalid", `/: update could not be applied: ${thrownMessage(thrown)}`, "/");
        }
        if (!outcome.ok) this.reject(panel, outcome.issue);
      }
    }

    /** Records a rejected result block: its model line, and a receipt for the panel's first rejection. */
    reject(panel: unknown, issue: Issue): void {
      let receipt: PanelReceipt | undefined;
      const id = typeof panel === "string" ? localPanelId(panel) : valueLabel(panel);
      const key = typeof panel === "string" ? `${this.owner}#${id}` : id;
      if (!this.rejectedPanels.has(key)) {
        this.rejectedPanels.add(key);
        const declaration = typeof panel === "string" ? this.declaration(id, key) : undefined;
        const state =
          typeof panel !== "string"
            ? undefined
            : declaration?.placement === "chat"
              ? this.chat.get(key)
              : this.sidebar(key);
        receipt = boundReceipt({
          panel: id,
          owner: this.owner,
          title: titleOf(state?.document, declaration?.title ?? id),
          revision: state?.revision ?? 0,
          summary: "",
          status: state ? (state.document.status ?? "active") : "idle",
          op: "replace",
          ...(this.toolCallId !== undefined ? { toolCallId: this.toolCallId } : {}),
          source: this.source,
          error: { code: issue.code, message: issue.message },
          ...(state?.view !== undefined ? { view: state.view } : {}),
        });
      }
      this.rejections.push({ panel, issue, receipt });
    }

    settle(settleOptions: { hasOtherContent?: boolean } = {}): PanelSettlement {
      this.endHandler();
      if (this.settlement) return this.settlement;
      if (this.phase !== "open") return { receipts: [], modelLines: [] };
      this.phase = "settled";
      if (active === this) active = undefined;
      // Commit: sidebar states and evictions, then this call's chat views.
      const sidebar = new Map<string, { before: PanelState | undefined; after: PanelState | null }>();
      for (const [fullId, state] of this.working) {
        sidebar.set(fullId, { before: committed.get(fullId), after: state });
        if (state) committed.set(fullId, state);
        else committed.delete(fullId);
      }
      const committedViews: string[] = [];
      for (const { state } of this.touched.values()) {
        if (state.view !== undefined) {
          views.set(state.view, state);
          committedViews.push(state.view);
        }
      }
      this.undo = { sidebar, views: committedViews };
      // Receipts and lines.
      const receipts: PanelReceipt[] = [];
      const confirmations: string[] = [];
      for (const { state, op } of this.touched.values()) {
        const summary = summaryOf(state.document, state.declaration.title);
        const progress = progressOf(state.document);
        receipts.push(
          boundReceipt({
            panel: state.id,
            owner: state.owner,
            title: titleOf(state.document, state.declaration.title),
            revision: state.revision,
            summary,
            ...(progress !== undefined ? { progress } : {}),
            status: state.document.status ?? "active",
            op,
            ...(this.toolCallId !== undefined ? { toolCallId: this.toolCallId } : {}),
            source: this.source,
            ...(state.view !== undefined ? { view: state.view } : {}),
          }),
        );
        if (settleOptions.hasOtherContent !== true)
          confirmations.push(confirmationLine(state.id, state.revision, summary));
      }
      for (const { receipt } of this.rejections) if (receipt) receipts.push(receipt);
      const rejected = this.rejections
        .slice(0, MAX_REJECTION_LINES)
        .map(({ panel, issue }) => rejectionLine(panel, issue.code, issue.message));
      // Final frames.
      for (const [fullId, state] of this.working) {
        if (state === null) {
          const before = sidebar.get(fullId)?.before;
          if (before) finalFrame(slotKey(before), removeFrame(before));
        }
      }
      for (const [key, { state }] of this.touched) {
        if (state.view !== undefined || committed.get(state.fullId) === state)
          finalFrame(key, updateFrame(state, false));
      }
      this.settlement = { receipts, modelLines: [...confirmations, ...rejected] };
      return this.settlement;
    }

    abandon(): void {
      this.endHandler();
      if (this.phase === "abandoned") return;
      const wasSettled = this.phase === "settled";
      this.phase = "abandoned";
      if (active === this) active = undefined;
      if (wasSettled && this.undo) {
        for (const [fullId, { before, after }] of this.undo.sidebar) {
          const now = committed.get(fullId);
          if (now !== (after ?? undefined)) continue; // a later call changed it since
          if (before) committed.set(fullId, before);
          else committed.delete(fullId);
          this.revertFrame(fullId, before, after ?? undefined);
        }
        for (const view of this.undo.views) {
          const state = views.get(view);
          views.delete(view);
          if (state) finalFrame(slotKey(state), removeFrame(state));
        }
        return;
      }
      // Never committed: drop the provisional state and show observers the committed one again.
      for (const [fullId, state] of this.working)
        this.revertFrame(fullId, committed.get(fullId), state ?? undefined);
      for (const [key, { state }] of this.touched)
        if (state.view !== undefined) finalFrame(key, removeFrame(state));
    }

    /** Sends the frame that shows a rolled-back panel as it is now committed (or removed). */
    revertFrame(fullId: string, restored: PanelState | undefined, dropped: PanelState | undefined): void {
      if (restored) finalFrame(fullId, updateFrame(restored, false));
      else if (dropped) finalFrame(fullId, removeFrame(dropped));
    }
  }

  return {
    beginCall(input) {
      if (active && active.phase === "open") active.abandon();
      const call = new CallImpl(input);
      active = call;
      return call;
    },
    list() {
      return active && active.phase === "open" ? active.sessionPanels() : [...committed.values()];
    },
    get(fullId) {
      if (active && active.phase === "open") return active.sidebar(fullId);
      return committed.get(fullId);
    },
    getView(viewId) {
      return views.get(viewId);
    },
    sink(blocks) {
      if (active && active.phase === "open") active.applyResultBlocks(blocks);
    },
    subscribe(observer) {
      observers.add(observer);
      return () => {
        observers.delete(observer);
      };
    },
  };
}
