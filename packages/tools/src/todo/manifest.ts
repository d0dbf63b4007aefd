import { MAX_TODO_ITEMS, TODO_BLOCK, TODO_PANEL, TODO_STATUSES, TODO_TITLE } from "./constants.js";

const ITEM_ID = { type: "string", pattern: "^[A-Za-z0-9_.-]{1,64}$" } as const;

/** The input schema of `todo`. */
export const TODO_INPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["mode"],
  properties: {
    mode: {
      type: "string",
      enum: ["replace", "merge"],
      description:
        "replace: the items become the whole list. merge: items are upserted by id into the current list.",
    },
    title: { type: "string", maxLength: 80, description: "Optional title of the list." },
    items: {
      type: "array",
      maxItems: MAX_TODO_ITEMS,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id"],
        properties: {
          id: { ...ITEM_ID, description: "Stable item id (letters, digits, _ . -)." },
          label: {
            type: "string",
            minLength: 1,
            maxLength: 200,
            description: "Required for new items; merge keeps the old label when omitted.",
          },
          status: { type: "string", enum: [...TODO_STATUSES] },
          priority: { type: "string", enum: ["high", "medium", "low"] },
          note: { type: "string", maxLength: 500 },
          parent: { ...ITEM_ID, description: "Id of the parent item (an earlier item in replace mode)." },
        },
      },
    },
    remove: {
      type: "array",
      maxItems: MAX_TODO_ITEMS,
      items: ITEM_ID,
      description: "merge only: ids of items to remove (with their children).",
    },
  },
} as const;

/** The model-facing description of `todo`. */
export const TODO_DESCRIPTION = [
  "Keeps your task list for this session in the user's Todo side panel (a checklist of at most 200 items, nested at most 3 levels).",
  "mode `replace` sets the whole list from `items` (each with id and label; `parent` nests an item under an earlier one). mode `merge` updates the current list: each item is matched by id and only the given fields change (send {id, status} to tick an item off); unknown ids are added (they need a label), `remove` deletes ids.",
  "Statuses: pending, in_progress, done, skipped, blocked, failed. Keep exactly one item in_progress while you work and mark items done as soon as they are finished.",
  "The result is one short line with the list's revision and progress; the user can also tick items off in the panel.",
].join("\n");

/** The panel actions of `todo` (`panels.md` §10): tool actions that update an item through the normal tool path. */
const TODO_ACTIONS = [
  {
    id: "done",
    label: "Mark done",
    scope: "item",
    blocks: [TODO_BLOCK],
    kind: "tool",
    arguments: { mode: "merge", items: [{ id: "{{item.id}}", status: "done" }] },
    primary: true,
    when: { status: ["pending", "in_progress", "blocked", "failed"] },
  },
  {
    id: "start",
    label: "Start",
    scope: "item",
    blocks: [TODO_BLOCK],
    kind: "tool",
    arguments: { mode: "merge", items: [{ id: "{{item.id}}", status: "in_progress" }] },
    when: { status: ["pending", "blocked", "failed"] },
  },
  {
    id: "reopen",
    label: "Reopen",
    scope: "item",
    blocks: [TODO_BLOCK],
    kind: "tool",
    arguments: { mode: "merge", items: [{ id: "{{item.id}}", status: "pending" }] },
    when: { status: ["done", "skipped"] },
  },
  {
    id: "discuss",
    label: "Ask about this",
    scope: "item",
    blocks: [TODO_BLOCK],
    kind: "prompt",
    text: "About the task {{item.label}} ({{item.id}}): ",
  },
  {
    id: "clear",
    label: "Clear list",
    scope: "panel",
    kind: "tool",
    arguments: { mode: "replace", items: [] },
    confirm: "Remove every item from the list?",
  },
] as const;

/** The `tool.json` of `todo`. */
export const TODO_MANIFEST = {
  api_version: 2,
  id: "todo",
  version: "1.0.0",
  name: "todo",
  description: TODO_DESCRIPTION,
  input_schema: TODO_INPUT_SCHEMA,
  entry: "./index.mjs",
  condition_sources: ["arguments"],
  panels: [
    {
      id: TODO_PANEL,
      title: TODO_TITLE,
      icon: "list-checks",
      open: "first_update",
      context: "summary",
      placement: "sidebar",
      acp_plan: true,
      actions: TODO_ACTIONS,
    },
  ],
} as const;
