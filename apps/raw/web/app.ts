// The page of `raw serve`: a call composer, a timeline of calls with every pipeline step, approval cards and live
// panels. Everything the server sends is untrusted text: it is only ever set as text content or handed to
// <raw-panel>, which validates and escapes it. Nothing here uses innerHTML.
import "@raw/panel-web/define";
import type { RawPanelElement } from "@raw/panel-web";
import type {
  ApprovalView,
  CallView,
  InteractionView,
  PanelEventData,
  ToolView,
  TraceStep,
  WebState,
  WireEvents,
} from "../src/serve/wire.js";

/** A panel the page draws: as the stream sends it (`panel`), or from the `hello` state with its key added. */
type PanelView = PanelEventData;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

async function post(
  path: string,
  body: unknown,
): Promise<{ ok: boolean; status: number; body: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    // The server is not reachable (stopped, restarting): nothing was sent, the caller may try again.
    return {
      ok: false,
      status: 0,
      body: { code: "not_connected", message: "not connected: raw serve cannot be reached; try again" },
    };
  }
  let parsed: Record<string, unknown> = {};
  try {
    parsed = (await res.json()) as Record<string, unknown>;
  } catch {
    // An empty or non-JSON body: the status says enough.
  }
  return { ok: res.ok, status: res.status, body: parsed };
}

// ---- layout ----
const status = el("p", { id: "connection", role: "status" }, "Connecting…");
const toolSelect = el("select", { id: "tool", name: "tool" });
const toolSummary = el("summary", {});
const toolDetails = el("p", { class: "muted" });
const toolDescription = el("details", { id: "tool-description" }, toolSummary, toolDetails);
const argsInput = el("textarea", { id: "arguments", name: "arguments", rows: "6", spellcheck: "false" });
const composerError = el("p", { id: "composer-error", class: "error", role: "alert" });
const runButton = el("button", { type: "submit", class: "primary" }, "Run");
const composer = el(
  "form",
  { id: "composer", "aria-label": "Call a tool" },
  el("h2", {}, "Call a tool"),
  el("label", { for: "tool" }, "Tool"),
  toolSelect,
  toolDescription,
  el("label", { for: "arguments" }, "Arguments (JSON)"),
  argsInput,
  composerError,
  el("div", { class: "buttons" }, runButton),
);
const approvalList = el("div", { id: "approvals", "aria-live": "polite" });
const timeline = el("ol", { id: "timeline", reversed: "" });
const sidebar = el("div", { id: "panels" });
const main = el(
  "main",
  {},
  el("header", {}, el("h1", {}, "raw serve"), status),
  el(
    "div",
    { class: "columns" },
    el(
      "div",
      { class: "left" },
      composer,
      el("section", { "aria-label": "Approvals" }, approvalList),
      el(
        "section",
        { "aria-labelledby": "timeline-title" },
        el("h2", { id: "timeline-title" }, "Timeline"),
        timeline,
      ),
    ),
    el("aside", { "aria-labelledby": "panels-title" }, el("h2", { id: "panels-title" }, "Panels"), sidebar),
  ),
);
document.body.append(main);

// ---- state ----
let tools: ToolView[] = [];
const calls = new Map<string, HTMLLIElement>();
const approvals = new Map<string, HTMLElement>();
const interactions = new Map<string, InteractionView>();
const panels = new Map<string, RawPanelElement>();
/** The server run the page last saw: another one on a reconnect means raw serve restarted. */
let serverRun: string | undefined;

function skeleton(tool: ToolView): string {
  const out: Record<string, unknown> = {};
  const schema = (tool.inputSchema ?? {}) as {
    properties?: Record<string, { type?: string }>;
    required?: string[];
  };
  for (const name of schema.required ?? []) {
    const type = schema.properties?.[name]?.type;
    out[name] =
      type === "array"
        ? []
        : type === "object"
          ? {}
          : type === "number" || type === "integer"
            ? 0
            : type === "boolean"
              ? false
              : "";
  }
  return JSON.stringify(out, null, 2);
}

function showTools(list: ToolView[]): void {
  tools = list;
  const selected = toolSelect.value;
  toolSelect.replaceChildren(
    ...list.map((t) => el("option", { value: t.name }, `${t.name} (${t.identity})`)),
  );
  if (list.some((t) => t.name === selected)) toolSelect.value = selected;
  describeTool();
}

function describeTool(): void {
  const tool = tools.find((t) => t.name === toolSelect.value);
  const text = tool?.description ?? "";
  const cut = text.search(/(?<=\.)\s/u);
  toolSummary.textContent = cut === -1 ? text : text.slice(0, cut);
  toolDetails.textContent = cut === -1 ? "" : text.slice(cut + 1);
  if (tool && argsInput.value.trim() === "") argsInput.value = skeleton(tool);
}

toolSelect.addEventListener("change", () => {
  argsInput.value = "";
  describeTool();
});

composer.addEventListener("submit", async (event) => {
  event.preventDefault();
  composerError.textContent = "";
  let args: unknown;
  try {
    args = JSON.parse(argsInput.value);
  } catch (error) {
    composerError.textContent = `The arguments are not JSON: ${(error as Error).message}`;
    argsInput.setAttribute("aria-invalid", "true");
    return;
  }
  argsInput.removeAttribute("aria-invalid");
  const res = await post("./api/calls", { tool: toolSelect.value, arguments: args });
  if (!res.ok)
    composerError.textContent = `${String(res.body.code ?? res.status)}: ${String(res.body.message ?? "")}`;
});

function renderCall(call: CallView): void {
  let item = calls.get(call.id);
  if (!item) {
    item = el("li", { class: "call", "data-call": call.id });
    calls.set(call.id, item);
    timeline.prepend(item);
  }
  item.setAttribute("data-status", call.status);
  const steps = el(
    "ol",
    { class: "steps" },
    ...call.steps.map((s) =>
      el(
        "li",
        { "data-step": s.step, "data-status": s.status },
        el("span", { class: "step" }, s.step),
        " ",
        el("span", { class: "status" }, s.status),
        el("pre", {}, s.text),
      ),
    ),
  );
  const result = call.result
    ? el(
        "div",
        { class: call.result.isError ? "result error" : "result", "data-code": call.result.code ?? "" },
        el(
          "strong",
          {},
          call.result.isError ? `Error${call.result.code ? ` ${call.result.code}` : ""}` : "Result",
        ),
        el("pre", {}, call.result.text),
      )
    : el("p", { class: "muted" }, call.status === "queued" ? "Queued" : "Running…");
  item.replaceChildren(
    el(
      "h3",
      {},
      `${call.tool}`,
      el(
        "span",
        { class: "muted" },
        ` ${call.source === "user_action" ? "panel action" : "call"} · ${call.status}`,
      ),
    ),
    el("details", {}, el("summary", {}, "Arguments"), el("pre", {}, call.argumentsText)),
    steps,
    result,
  );
}

function appendStep(callId: string, step: TraceStep): void {
  const item = calls.get(callId);
  const list = item?.querySelector("ol.steps");
  list?.append(
    el(
      "li",
      { "data-step": step.step, "data-status": step.status },
      el("span", { class: "step" }, step.step),
      " ",
      el("span", { class: "status" }, step.status),
      el("pre", {}, step.text),
    ),
  );
}

function renderApproval(card: ApprovalView): void {
  if (approvals.has(card.id)) return;
  const answer = async (approved: boolean) => {
    for (const button of node.querySelectorAll("button")) button.disabled = true;
    const res = await post(`./api/approvals/${encodeURIComponent(card.id)}`, { approved });
    if (res.ok) return;
    node.querySelector("p.error")?.remove();
    node.append(el("p", { class: "error" }, String(res.body.message ?? res.status)));
    // Not delivered: the card still waits, so its buttons work again (a reconnect tells whether it is gone).
    if (res.status === 0) for (const button of node.querySelectorAll("button")) button.disabled = false;
  };
  const approve = el("button", { type: "button", class: "primary" }, "Approve");
  const deny = el("button", { type: "button" }, "Deny");
  approve.addEventListener("click", () => void answer(true));
  deny.addEventListener("click", () => void answer(false));
  const titleId = `approval-${card.id}`;
  const node = el(
    "article",
    { class: "approval", role: "group", "aria-labelledby": titleId, "data-approval": card.id },
    el("h2", { id: titleId }, `Approve ${card.tool}?`),
    el("p", { class: "muted" }, card.identity),
    el("h3", {}, "Intended effects"),
    card.effects === null
      ? el("p", { class: "muted" }, "The tool declares no intended effects.")
      : card.effects.length > 0
        ? el("ul", { class: "effects" }, ...card.effects.map((line) => el("li", {}, line)))
        : el("p", { class: "muted" }, "No intended effects for this call."),
    el("h3", {}, "Arguments"),
    el("pre", { class: "arguments" }, card.arguments),
    el("div", { class: "buttons" }, approve, deny),
  );
  approvals.set(card.id, node);
  approvalList.append(node);
}

function removeApproval(id: string): void {
  approvals.get(id)?.remove();
  approvals.delete(id);
}

function pendingFor(key: string): InteractionView | undefined {
  return [...interactions.values()].find(
    (i) => (i.view === undefined ? i.fullId : `${i.fullId}@${i.view}`) === key,
  );
}

function panelElement(view: PanelView): RawPanelElement {
  let panel = panels.get(view.key);
  if (!panel) {
    panel = document.createElement("raw-panel") as RawPanelElement;
    panel.setAttribute("data-key", view.key);
    panel.addEventListener("raw-form-submit", async (event) => {
      const detail = (event as CustomEvent<{ block: string; answers: Record<string, unknown> }>).detail;
      const pending = pendingFor(view.key);
      if (!pending || !panel) return;
      const res = await post(`./api/interactions/${encodeURIComponent(pending.requestId)}`, {
        response: "submit",
        expectedRevision: pending.revision,
        idempotencyKey: crypto.randomUUID(),
        answers: detail.answers,
      });
      if (!res.ok) panel.setFormMessage(detail.block, String(res.body.message ?? res.status));
    });
    panel.addEventListener("raw-form-cancel", async () => {
      const pending = pendingFor(view.key);
      if (!pending) return;
      await post(`./api/interactions/${encodeURIComponent(pending.requestId)}`, {
        response: "cancel",
        expectedRevision: pending.revision,
        idempotencyKey: crypto.randomUUID(),
      });
    });
    panel.addEventListener("raw-action", async (event) => {
      const detail = (
        event as CustomEvent<{ action: string; block?: string; item?: string; confirm?: string }>
      ).detail;
      if (detail.confirm !== undefined && !window.confirm(detail.confirm)) return;
      const res = await post("./api/actions", { key: view.key, ...detail });
      if (res.ok && res.body.kind === "prompt") {
        argsInput.focus();
        composerError.textContent = "";
        const note = el("p", { class: "prompt-draft" }, String(res.body.text ?? ""));
        composer.querySelector(".prompt-draft")?.remove();
        composer.insertBefore(note, composerError);
      } else if (!res.ok) {
        composerError.textContent = String(res.body.message ?? res.status);
      }
    });
    panels.set(view.key, panel);
    sidebar.append(panel);
  }
  return panel;
}

function renderPanel(view: PanelView): void {
  const panel = panelElement(view);
  if (view.declaration) {
    panel.declaration = view.declaration as never;
    panel.declaredTitle = view.declaration.title;
  }
  panel.awaiting = pendingFor(view.key) !== undefined;
  panel.applyFrame({
    type: "update",
    revision: view.revision,
    document: view.document,
    closed: view.closed,
    live: view.live ?? false,
  });
}

function removePanel(key: string): void {
  panels.get(key)?.remove();
  panels.delete(key);
}

function refreshAwaiting(): void {
  for (const [key, panel] of panels) panel.awaiting = pendingFor(key) !== undefined;
}

/**
 * An approval card the server no longer waits for: its buttons go, so it can never be approved, and a note says
 * why. It stays until the next reconnect so the reader sees what happened.
 */
function markApprovalGone(id: string, restarted: boolean): void {
  const node = approvals.get(id);
  approvals.delete(id);
  if (!node) return;
  node.setAttribute("data-gone", "");
  node.querySelector(".buttons")?.remove();
  node.append(
    el(
      "p",
      { class: "gone", role: "status" },
      restarted
        ? "Gone: raw serve restarted and the call that asked ended; it can no longer be approved."
        : "No longer waiting: it was answered or ended while the page was disconnected.",
    ),
  );
}

/** A question whose call ended with the previous run of the server: shown as gone, never answerable. */
function noteInteractionGone(view: InteractionView): void {
  approvalList.append(
    el(
      "p",
      { class: "gone", role: "status", "data-gone-interaction": view.requestId },
      `Gone: the question of ${view.fullId} ended when raw serve restarted; it can no longer be answered.`,
    ),
  );
}

function redraw(state: WebState): void {
  const restarted = serverRun !== undefined && state.run !== serverRun;
  serverRun = state.run;
  // A new server run numbers its panels afresh: the old elements go, so no revision of the last run holds them back.
  if (restarted) for (const key of [...panels.keys()]) removePanel(key);
  showTools(state.tools);
  timeline.replaceChildren();
  calls.clear();
  for (const call of state.calls) renderCall(call);
  // What the last reconnect marked gone has been read; what is gone now is marked, never left approvable.
  for (const node of approvalList.querySelectorAll("[data-gone], [data-gone-interaction]")) node.remove();
  const waiting = new Set(state.approvals.map((card) => card.id));
  for (const id of [...approvals.keys()]) if (!waiting.has(id)) markApprovalGone(id, restarted);
  for (const card of state.approvals) renderApproval(card);
  const stillPending = new Set(state.interactions.map((i) => i.requestId));
  if (restarted)
    for (const view of interactions.values())
      if (!stillPending.has(view.requestId)) noteInteractionGone(view);
  interactions.clear();
  for (const i of state.interactions) interactions.set(i.requestId, i);
  const keys = new Set<string>();
  for (const p of state.panels) {
    const key = p.view === undefined ? p.fullId : `${p.fullId}@${p.view}`;
    keys.add(key);
    renderPanel({ ...p, key });
  }
  for (const key of [...panels.keys()]) if (!keys.has(key)) removePanel(key);
  refreshAwaiting();
}

// ---- the event stream ----
function connect(): void {
  const source = new EventSource("./events");
  const on = <K extends keyof WireEvents>(type: K, handle: (data: WireEvents[K]) => void) =>
    source.addEventListener(type, (event) => {
      try {
        handle(JSON.parse((event as MessageEvent<string>).data) as WireEvents[K]);
      } catch {
        // A malformed event changes nothing.
      }
    });
  source.addEventListener("open", () => {
    status.textContent = "Live";
    document.body.dataset.connection = "live";
    for (const panel of panels.values()) panel.status = "live";
  });
  source.addEventListener("error", () => {
    const closed = source.readyState === EventSource.CLOSED;
    status.textContent = closed
      ? "Disconnected: reload the page with the address raw serve printed"
      : "Reconnecting…";
    document.body.dataset.connection = closed ? "closed" : "reconnecting";
    for (const panel of panels.values()) panel.status = closed ? "unavailable" : "reconnecting";
  });
  on("hello", (state: WebState) => redraw(state));
  on("call", (call: CallView) => renderCall(call));
  on("step", (data: { callId: string; step: TraceStep }) => appendStep(data.callId, data.step));
  on("approval", (card: ApprovalView) => renderApproval(card));
  on("approval-settled", (data: { id: string }) => removeApproval(data.id));
  on("interaction", (view: InteractionView) => {
    interactions.set(view.requestId, view);
    refreshAwaiting();
  });
  on("interaction-settled", (data: { requestId: string }) => {
    const pending = interactions.get(data.requestId);
    interactions.delete(data.requestId);
    if (pending)
      panels
        .get(pending.view === undefined ? pending.fullId : `${pending.fullId}@${pending.view}`)
        ?.resetForm(pending.formBlockId);
    refreshAwaiting();
  });
  on("panel", (view: PanelView) => renderPanel(view));
  on("panel-removed", (data: { key: string }) => removePanel(data.key));
}

connect();
