import type { Issue } from "@raw/schema";
import { cutUtf8 } from "./model-lines.js";
import { PANEL_TEMPLATE_PATTERN, templateName } from "./templates.js";
import type { PanelAction, PanelDeclaration, PanelDocument, PanelItemStatus } from "./types.js";

/** The code of every action resolution failure (a dashboard maps it to HTTP 422 `invalid_action`). */
export const ACTION_INVALID = "invalid_action";

/** The parts of a panel declaration that action resolution reads. */
export type ActionPanel = Pick<PanelDeclaration, "id" | "actions">;

/** The user's selection: an action id, and the block and item it was chosen on. */
export interface ActionRequest {
  readonly action: string;
  readonly block?: string;
  readonly item?: string;
}

/** Options of `resolveAction`: how a tool action's call is named. */
export interface ResolveActionOptions {
  /** The model-facing name of the declaring tool, copied into a tool action's call. */
  readonly toolName?: string;
  /** The action's operation id, used as the call id of a tool action (default: a fresh UUID). */
  readonly operationId?: string;
}

/**
 * The dispatch call a tool action becomes: it runs the declaring tool again through the normal pipeline with
 * `source: "user_action"`. Its `allow`/`ask`/`deny` rules and hooks apply; the click is **never** approval.
 */
export interface UserActionCall {
  readonly name?: string;
  readonly arguments: unknown;
  readonly toolCallId: string;
  readonly source: "user_action";
}

/** A resolved action: a prompt's text, a tool action's arguments and call, or a response action alone. */
export type ResolvedAction =
  | { ok: true; kind: "prompt"; action: PanelAction; text: string; send: boolean }
  | { ok: true; kind: "tool"; action: PanelAction; arguments: unknown; call: UserActionCall }
  | { ok: true; kind: "response"; action: PanelAction; response: "submit" | "cancel" };

/** Outcome of `resolveAction`. */
export type ActionResolution = ResolvedAction | { ok: false; issues: Issue[] };

interface Scope {
  panelId: string;
  blockId?: string;
  itemId?: string;
  itemLabel?: string;
}

type Block = { readonly id?: unknown; readonly kind?: unknown; readonly [key: string]: unknown };
type Item = {
  readonly id?: unknown;
  readonly label?: unknown;
  readonly status?: unknown;
  readonly [k: string]: unknown;
};

function fail(message: string): ActionResolution {
  return { ok: false, issues: [{ code: ACTION_INVALID, message }] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Finds an item in a checklist tree (depth-first), a steps list or a table's rows; other kinds have none. */
function findItem(block: Block, id: string): { item: Item; label: string } | undefined {
  if (block.kind === "checklist") {
    const stack: unknown[] = Array.isArray(block.items) ? [...block.items].reverse() : [];
    while (stack.length > 0) {
      const item = stack.pop();
      if (!isRecord(item)) continue;
      if (item.id === id) return { item, label: typeof item.label === "string" ? item.label : id };
      if (Array.isArray(item.children)) for (const c of [...item.children].reverse()) stack.push(c);
    }
    return undefined;
  }
  if (block.kind === "steps") {
    const items = Array.isArray(block.items) ? block.items : [];
    const item = items.find((i: unknown) => isRecord(i) && i.id === id) as Item | undefined;
    return item ? { item, label: typeof item.label === "string" ? item.label : id } : undefined;
  }
  if (block.kind === "table") {
    const rows = Array.isArray(block.rows) ? block.rows : [];
    const row = rows.find((r: unknown) => isRecord(r) && r.id === id) as Item | undefined;
    if (!row) return undefined;
    const columns = Array.isArray(block.columns) ? block.columns : [];
    const first = isRecord(columns[0]) ? columns[0].id : undefined;
    const cells = row.cells;
    const cell =
      typeof first === "string" && isRecord(cells) && Object.hasOwn(cells, first) ? cells[first] : undefined;
    return { item: row, label: typeof cell === "string" && cell !== "" ? cell : id };
  }
  return undefined;
}

/** Replaces the four templates in one string; returns the first unresolvable template as written instead. */
function fill(text: string, scope: Scope): { value: string } | { unresolved: string } {
  let unresolved: string | undefined;
  if (!text.includes("{{")) return { value: text };
  const value = text.replace(PANEL_TEMPLATE_PATTERN, (written, inner: string) => {
    let replacement: string | undefined;
    switch (templateName(inner)) {
      case "panel.id":
        replacement = scope.panelId;
        break;
      case "block.id":
        replacement = scope.blockId;
        break;
      case "item.id":
        replacement = scope.itemId;
        break;
      case "item.label":
        replacement = scope.itemLabel;
        break;
    }
    if (replacement === undefined) unresolved ??= written;
    return replacement ?? written;
  });
  return unresolved === undefined ? { value } : { unresolved };
}

/** Replaces templates inside string values only, recursively through arrays and objects. */
function fillValue(value: unknown, scope: Scope): { value: unknown } | { unresolved: string } {
  if (typeof value === "string") return fill(value, scope);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const entry of value) {
      const r = fillValue(entry, scope);
      if ("unresolved" in r) return r;
      out.push(r.value);
    }
    return { value: out };
  }
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const r = fillValue(value[key], scope);
      if ("unresolved" in r) return r;
      Object.defineProperty(out, key, {
        value: r.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { value: out };
  }
  return { value };
}

/**
 * Resolves a user's selection of a panel action against the declaration and the panel's current document
 * (`panels.md` §10.3), first failure wins (code `invalid_action`, the spec's exact messages). A prompt action
 * resolves to its text, a tool action to its arguments and the `source: "user_action"` call that runs the
 * declaring tool again through the normal pipeline (rules and hooks apply; a click is never approval), and a
 * response action to the action alone (it never creates a tool call or grants permission).
 */
export function resolveAction(
  declaration: ActionPanel,
  document: PanelDocument | undefined,
  request: ActionRequest,
  options: ResolveActionOptions = {},
): ActionResolution {
  const { action: actionId, block: blockId, item: itemId } = request;
  const action = (declaration.actions ?? []).find((a) => a.id === actionId);
  if (!action) return fail(`panel ${declaration.id} has no action "${String(actionId)}"`);
  const scope: Scope = { panelId: declaration.id };
  if (action.scope === "panel") {
    if (blockId !== undefined || itemId !== undefined) return fail("a panel action takes no block or item");
  }
  if (action.scope !== "item" && action.when !== undefined) {
    return fail("this action is only offered for items with a status");
  }
  let block: Block | undefined;
  if (action.scope !== "panel") {
    if (blockId === undefined) return fail(`action "${action.id}" needs a block`);
    if (action.blocks !== undefined && !action.blocks.includes(blockId)) {
      return fail(`action "${action.id}" does not apply to block "${blockId}"`);
    }
    const blocks = document?.blocks ?? [];
    block = (blocks as readonly unknown[]).find((b) => isRecord(b) && b.id === blockId) as Block | undefined;
    if (!block) return fail(`block "${blockId}" does not exist in the panel`);
    scope.blockId = blockId;
    if (action.scope === "block" && itemId !== undefined) return fail("a block action takes no item");
    if (action.scope === "item") {
      if (itemId === undefined) return fail(`action "${action.id}" needs an item`);
      const found = findItem(block, itemId);
      if (!found) return fail(`item "${itemId}" does not exist in block "${blockId}"`);
      const status = typeof found.item.status === "string" ? found.item.status : "pending";
      if (action.when !== undefined && !action.when.status.includes(status as PanelItemStatus)) {
        return fail(`action "${action.id}" is not available for an item with status ${status}`);
      }
      scope.itemId = itemId;
      scope.itemLabel = found.label;
    }
  }
  if (action.kind === "response") {
    if (block?.kind !== "form") return fail("a response action requires a form block");
    return { ok: true, kind: "response", action, response: action.response ?? "submit" };
  }
  if (action.kind === "prompt") {
    const r = fill(action.text ?? "", scope);
    if ("unresolved" in r) return fail(`template ${r.unresolved} cannot be resolved for this action`);
    return { ok: true, kind: "prompt", action, text: r.value, send: action.send === true };
  }
  const r = fillValue(action.arguments ?? {}, scope);
  if ("unresolved" in r) return fail(`template ${r.unresolved} cannot be resolved for this action`);
  const call: UserActionCall = {
    ...(options.toolName !== undefined ? { name: options.toolName } : {}),
    arguments: r.value,
    toolCallId: options.operationId ?? crypto.randomUUID(),
    source: "user_action",
  };
  return { ok: true, kind: "tool", action, arguments: r.value, call };
}

/** The result text quoted in a user-action note is cut to this many bytes (`panels.md` §10.4: at most 1 KiB). */
export const MAX_USER_ACTION_RESULT_BYTES = 1024;

/** What the model is told once about a tool action the user ran (`panels.md` §10.4). */
export interface UserActionNoteInput {
  /** The action's label. */
  readonly label: string;
  /** The panel's title (the document title, else the declared title). */
  readonly title: string;
  /** The canonical identity of the declaring tool. */
  readonly owner: string;
  /** The text of the action's tool result. */
  readonly result: string;
}

/**
 * The note put in front of the next user message after a tool action ran (`panels.md` §10.4):
 * `The user ran "<label>" on <title>; <owner> returned: <result text, at most 1 KiB>`, then two newlines and the
 * user's text when given. The result text is cut with the `…` rule of §9.3.
 */
export function userActionNote(input: UserActionNoteInput, userText?: string): string {
  const note = `The user ran "${input.label}" on ${input.title}; ${input.owner} returned: ${cutUtf8(
    input.result,
    MAX_USER_ACTION_RESULT_BYTES,
  )}`;
  return userText === undefined ? note : `${note}\n\n${userText}`;
}
