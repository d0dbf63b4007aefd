import { deepFreeze, type Issue, isPlainObject } from "@raw/schema";
import { ITEM_STATUSES } from "./blocks/common.js";
import {
  BLOCK_ID_PATTERN,
  BLOCK_ID_REASON,
  checkArray,
  checkBoolean,
  checkKeys,
  checkPattern,
  checkText,
  defineField,
  type Fields,
  OneOf,
  PANEL_ID_PATTERN,
  PANEL_ID_REASON,
  readObject,
} from "./field-checks.js";
import { MAX_DECLARATION_TITLE_CHARS, MAX_PANEL_ACTIONS, MAX_PANELS_PER_TOOL } from "./limits.js";
import { childPointer, displayPointer, fail, invalidIssue, PanelFailure } from "./panel-error.js";
import { firstUnknownTemplate } from "./templates.js";
import type { PanelAction, PanelDeclaration, PanelIcon } from "./types.js";

/** The known panel icons, in the order of `panels.md` §2.2. */
export const PANEL_ICONS: readonly PanelIcon[] = Object.freeze([
  "list-checks",
  "list-ordered",
  "file-text",
  "table",
  "activity",
  "gauge",
  "folder-tree",
  "flag",
  "panel",
]);

/** The warning code for an unknown icon string, which falls back to `panel` (`panels.md` §2.2). */
export const PANEL_ICON_UNKNOWN = "panel_icon_unknown";

/** The manifest code for a `panels` value that is not an array of at most 4, or a duplicate panel id (`tool-api.md` §2.3). */
export const MANIFEST_INVALID_PANELS = "manifest_invalid_panels";

/**
 * A non-fatal finding returned next to a successful result; `path` is the JSON Pointer it concerns. `panels.md` §2.2
 * fixes the warning object as `{ code, message }`, so `path` is a non-enumerable property: readable by tools that
 * place the warning, invisible to equality checks, spreads and JSON.
 */
export type PanelWarning = { code: string; message: string; readonly path: string };

/** The unknown-icon warning: the contract's `{ code, message }` with the icon's pointer as a non-enumerable `path`. */
function iconWarning(message: string, path: string): PanelWarning {
  const warning = { code: PANEL_ICON_UNKNOWN, message } as { code: string; message: string };
  Object.defineProperty(warning, "path", { value: path, enumerable: false });
  return warning as PanelWarning;
}

/**
 * Where a declaration sits, for pointers: `pointer` is its JSON Pointer (for example `/panels/0`), `""` by default.
 * `allIssues` reports every failing field of a declaration in check order (a diagnostic mode for authors' tools such
 * as `raw validate`); by default only the first failure is reported, as `panels.md` §2.1 fixes.
 */
export interface PanelDeclarationOptions {
  pointer?: string;
  allIssues?: boolean;
}

/** Outcome of `parsePanelDeclaration`: the normalized declaration with its warnings, or its first failure. */
export type PanelDeclarationParse =
  | { ok: true; declaration: PanelDeclaration; warnings: PanelWarning[] }
  | { ok: false; issues: Issue[] };

/** Outcome of `parsePanelDeclarations`: the normalized declarations with their warnings, or every issue found. */
export type PanelDeclarationsParse =
  | { ok: true; declarations: PanelDeclaration[]; warnings: PanelWarning[] }
  | { ok: false; issues: Issue[] };

const DECLARATION_KEYS = new Set([
  "id",
  "title",
  "icon",
  "open",
  "context",
  "placement",
  "acp_plan",
  "actions",
]);
const ICONS: ReadonlySet<string> = new Set(PANEL_ICONS);
const OPEN = new OneOf(["never", "first_update"]);
const CONTEXT = new OneOf(["none", "summary"]);
const PLACEMENT = new OneOf(["chat", "sidebar"]);

const ACTION_KEYS = new Set([
  "id",
  "label",
  "scope",
  "blocks",
  "kind",
  "text",
  "send",
  "arguments",
  "response",
  "primary",
  "confirm",
  "when",
]);
const WHEN_KEYS = new Set(["status"]);
const SCOPES = new OneOf(["panel", "block", "item"]);
const ACTION_KINDS = new OneOf(["prompt", "tool", "response"]);
const RESPONSES = new OneOf(["submit", "cancel"]);
const MAX_ACTION_LABEL_CHARS = 32;
const MAX_ACTION_BLOCKS = 20;
const MAX_PROMPT_TEXT_CHARS = 2000;
const MAX_CONFIRM_CHARS = 200;
const MAX_WHEN_STATUSES = 6;

function checkTemplates(text: string, pointer: string): void {
  const unknown = firstUnknownTemplate(text);
  if (unknown !== undefined) fail(pointer, `unknown template {{${unknown}}}`);
}

/** Copies tool-action arguments (plain objects and arrays, `__proto__` kept as data) and checks their templates. */
function copyArguments(value: unknown, pointer: string, ancestors: Set<object>): unknown {
  if (typeof value === "string") {
    checkTemplates(value, pointer);
    return value;
  }
  if (typeof value !== "object" || value === null) return value;
  if (ancestors.has(value)) fail(pointer, "is not serializable");
  ancestors.add(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    copy = value.map((entry, i) => copyArguments(entry, `${pointer}/${i}`, ancestors));
  } else if (isPlainObject(value)) {
    const out: Fields = {};
    for (const key of Object.keys(value)) {
      defineField(out, key, copyArguments(value[key], childPointer(pointer, key), ancestors));
    }
    copy = out;
  } else copy = value;
  ancestors.delete(value);
  return copy;
}

/** Validates one action in the order of `panels.md` §10.1; returns its copy. */
function checkAction(value: unknown, p: string): PanelAction {
  const { fields, keys } = readObject(value, p);
  checkKeys(keys, ACTION_KEYS, p);
  checkPattern(fields.id, `${p}/id`, PANEL_ID_PATTERN, PANEL_ID_REASON);
  checkText(fields.label, `${p}/label`, MAX_ACTION_LABEL_CHARS, true);
  const scope = SCOPES.check(fields.scope, `${p}/scope`);
  const kind = ACTION_KINDS.check(fields.kind, `${p}/kind`);
  if (kind !== "response" && fields.response !== undefined)
    fail(`${p}/response`, "is only for response actions");
  if (fields.blocks !== undefined) {
    if (scope === "panel") fail(`${p}/blocks`, "is not allowed for panel scope");
    const blocks = checkArray(fields.blocks, `${p}/blocks`, 1, MAX_ACTION_BLOCKS);
    for (let i = 0; i < blocks.length; i++) {
      checkPattern(blocks[i], `${p}/blocks/${i}`, BLOCK_ID_PATTERN, BLOCK_ID_REASON);
    }
    fields.blocks = Object.freeze([...blocks]);
  }
  if (kind === "prompt") {
    const text = checkText(fields.text, `${p}/text`, MAX_PROMPT_TEXT_CHARS, true);
    if (fields.send !== undefined) checkBoolean(fields.send, `${p}/send`, "must be a boolean");
    if (fields.arguments !== undefined) fail(`${p}/arguments`, "is only for tool actions");
    checkTemplates(text, `${p}/text`);
  } else if (kind === "tool") {
    if (!isPlainObject(fields.arguments)) fail(`${p}/arguments`, "must be an object");
    if (fields.text !== undefined || fields.send !== undefined) {
      fail(p, "text and send are only for prompt actions");
    }
    fields.arguments = copyArguments(fields.arguments, `${p}/arguments`, new Set());
  } else {
    if (scope !== "block") fail(`${p}/scope`, "response actions require block scope");
    RESPONSES.check(fields.response, `${p}/response`);
    for (const key of ["arguments", "text", "send", "primary", "when"]) {
      if (fields[key] !== undefined) {
        fail(p, "response actions do not accept execution arguments or item predicates");
      }
    }
  }
  if (fields.primary !== undefined) {
    if (fields.primary !== true) fail(`${p}/primary`, "must be true");
    if (scope !== "item") fail(`${p}/primary`, "is only for item actions");
  }
  if (fields.confirm !== undefined) checkText(fields.confirm, `${p}/confirm`, MAX_CONFIRM_CHARS, true);
  if (fields.when !== undefined) {
    const wp = `${p}/when`;
    const { fields: when, keys: whenKeys } = readObject(fields.when, wp);
    checkKeys(whenKeys, WHEN_KEYS, wp);
    const statuses = checkArray(when.status, `${wp}/status`, 1, MAX_WHEN_STATUSES);
    for (let i = 0; i < statuses.length; i++) ITEM_STATUSES.check(statuses[i], `${wp}/status/${i}`);
    when.status = Object.freeze([...statuses]);
    fields.when = Object.freeze(when);
  }
  // Every field was checked above, one by one: the record is a PanelAction.
  return fields as unknown as PanelAction;
}

/**
 * Runs one check of a declaration. Without `issues` a failure propagates (first failure wins); with it, a
 * `PanelFailure` is recorded and the check yields `undefined`, so the following fields are still checked.
 */
function attempt<T>(issues: Issue[] | undefined, check: () => T): T | undefined {
  if (issues === undefined) return check();
  try {
    return check();
  } catch (error) {
    if (!(error instanceof PanelFailure)) throw error;
    issues.push(error.issue);
    return undefined;
  }
}

/**
 * Validates a declaration in the order of `panels.md` §2.1 and returns it normalized; fails with a `PanelFailure`.
 * With `issues`, every failing field (each unknown key, each field, each action's first failure) is recorded there
 * instead, in check order; the returned value is then meaningful only when nothing was recorded.
 */
function checkDeclaration(
  value: unknown,
  p: string,
  warnings: PanelWarning[],
  issues?: Issue[],
): PanelDeclaration {
  const { fields, keys } = readObject(value, p);
  if (issues === undefined) checkKeys(keys, DECLARATION_KEYS, p);
  else for (const key of keys) attempt(issues, () => checkKeys([key], DECLARATION_KEYS, p));
  const id = attempt(issues, () => checkPattern(fields.id, `${p}/id`, PANEL_ID_PATTERN, PANEL_ID_REASON));
  const title = attempt(issues, () =>
    checkText(fields.title, `${p}/title`, MAX_DECLARATION_TITLE_CHARS, true),
  );
  let icon: PanelIcon = "panel";
  if (fields.icon !== undefined) {
    attempt(issues, () => {
      if (typeof fields.icon !== "string") fail(`${p}/icon`, "must be a string");
    });
    if (typeof fields.icon === "string") {
      if (ICONS.has(fields.icon)) icon = fields.icon as PanelIcon;
      else {
        warnings.push(
          iconWarning(
            `${displayPointer(p)}: unknown icon "${fields.icon}" falls back to "panel"`,
            `${p}/icon`,
          ),
        );
      }
    }
  }
  const open = attempt(issues, () =>
    fields.open === undefined ? "never" : OPEN.check(fields.open, `${p}/open`),
  );
  const context = attempt(issues, () =>
    fields.context === undefined ? "none" : CONTEXT.check(fields.context, `${p}/context`),
  );
  const placement = attempt(issues, () =>
    fields.placement === undefined ? "sidebar" : PLACEMENT.check(fields.placement, `${p}/placement`),
  );
  const acpPlan = attempt(issues, () =>
    fields.acp_plan === undefined
      ? false
      : checkBoolean(fields.acp_plan, `${p}/acp_plan`, "must be a boolean"),
  );
  const actions: PanelAction[] = [];
  if (fields.actions !== undefined) {
    const list =
      attempt(issues, () => checkArray(fields.actions, `${p}/actions`, 0, MAX_PANEL_ACTIONS)) ?? [];
    const ids = new Set<string>();
    let primaries = 0;
    for (let i = 0; i < list.length; i++) {
      const ap = `${p}/actions/${i}`;
      attempt(issues, () => {
        const action = checkAction(list[i], ap);
        if (ids.has(action.id)) fail(`${ap}/id`, "duplicate action id");
        ids.add(action.id);
        if (action.primary === true) primaries++;
        actions.push(action);
      });
    }
    attempt(issues, () => {
      if (primaries > 1) fail(`${p}/actions`, "at most one primary action");
    });
  }
  return deepFreeze({
    id,
    title,
    icon,
    open,
    context,
    placement,
    acp_plan: acpPlan,
    actions,
  }) as PanelDeclaration;
}

/**
 * Validates one panel declaration (`panels.md` §2, §10), first failure wins. On success returns it normalized and
 * deep-frozen (`icon`, `open`, `context`, `placement`, `acp_plan` and `actions` always present) with the
 * unknown-icon warnings (each with `path` at its `icon`). On failure returns one `panel_invalid` issue whose pointer
 * starts at `options.pointer` (a manifest passes `/panels/<i>`; the default `""` renders as `/`), or, with
 * `options.allIssues`, one issue per failing field in check order. Never throws.
 */
export function parsePanelDeclaration(
  value: unknown,
  options: PanelDeclarationOptions = {},
): PanelDeclarationParse {
  const pointer = options.pointer ?? "";
  const warnings: PanelWarning[] = [];
  try {
    if (options.allIssues === true) {
      const issues: Issue[] = [];
      const declaration = checkDeclaration(value, pointer, warnings, issues);
      return issues.length > 0 ? { ok: false, issues } : { ok: true, declaration, warnings };
    }
    return { ok: true, declaration: checkDeclaration(value, pointer, warnings), warnings };
  } catch (error) {
    if (error instanceof PanelFailure) return { ok: false, issues: [error.issue] };
    return { ok: false, issues: [invalidIssue(pointer, "is not serializable")] };
  }
}

/** The `id` of a declaration as written, when it is a string (for the duplicate check). */
function rawId(entry: unknown): string | undefined {
  try {
    const id = isPlainObject(entry) ? entry.id : undefined;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Validates a tool's panel declarations the way `tool-api.md` §2.2 checks a manifest's `panels`, reporting every
 * issue: an array of at most 4 (`manifest_invalid_panels`, `panels must be an array of at most 4 declarations`, at
 * `options.pointer`), then each declaration's first failure (`panel_invalid` at `<pointer>/<i>/...`), then
 * duplicate ids (`manifest_invalid_panels`, `duplicate panel id "<id>"`, at `<pointer>/<i>/id`). A manifest passes
 * `{ pointer: "/panels" }`; `allIssues` reports every failing field of each declaration. Never throws.
 */
export function parsePanelDeclarations(
  value: unknown,
  options: PanelDeclarationOptions = {},
): PanelDeclarationsParse {
  const pointer = options.pointer ?? "";
  if (!Array.isArray(value) || value.length > MAX_PANELS_PER_TOOL) {
    return {
      ok: false,
      issues: [
        {
          code: MANIFEST_INVALID_PANELS,
          message: `panels must be an array of at most ${MAX_PANELS_PER_TOOL} declarations`,
          path: pointer,
        },
      ],
    };
  }
  const issues: Issue[] = [];
  const declarations: PanelDeclaration[] = [];
  const warnings: PanelWarning[] = [];
  for (let i = 0; i < value.length; i++) {
    const result = parsePanelDeclaration(value[i], {
      pointer: `${pointer}/${i}`,
      ...(options.allIssues === true ? { allIssues: true } : {}),
    });
    if (result.ok) {
      declarations.push(result.declaration);
      warnings.push(...result.warnings);
    } else issues.push(...result.issues);
  }
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const id = rawId(value[i]);
    if (id === undefined) continue;
    if (seen.has(id)) {
      issues.push({
        code: MANIFEST_INVALID_PANELS,
        message: `duplicate panel id "${id}"`,
        path: `${pointer}/${i}/id`,
      });
    }
    seen.add(id);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, declarations, warnings };
}
