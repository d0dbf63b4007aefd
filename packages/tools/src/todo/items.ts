import type { ChecklistItem } from "@raw/panel";
import type { ToolInput } from "@raw/tool-api";
import { TODO_BLOCK } from "./constants.js";
import type { TODO_INPUT_SCHEMA } from "./manifest.js";

/** The arguments of `todo`, as its input schema guarantees them. */
export type TodoArgs = ToolInput<typeof TODO_INPUT_SCHEMA>;

/** One item as the model gives it: checklist item fields plus an optional `parent` id. */
export type TodoItemInput = NonNullable<TodoArgs["items"]>[number];

type MutableItem = { -readonly [K in keyof ChecklistItem]: ChecklistItem[K] } & { children?: MutableItem[] };

/** The checklist fields of an input item: everything but `parent`, writable. */
export type TodoItemFields = {
  -readonly [K in keyof Omit<TodoItemInput, "parent">]: Omit<TodoItemInput, "parent">[K];
};

/** The checklist fields of an input item (without `parent`). */
export function itemFields(input: TodoItemInput): TodoItemFields {
  const { parent: _parent, ...fields } = input;
  return fields;
}

/** The item tree of a `replace`: each item under its `parent` (an earlier item), in input order. */
export function buildTree(items: readonly TodoItemInput[]): ChecklistItem[] {
  const roots: MutableItem[] = [];
  const byId = new Map<string, MutableItem>();
  for (const input of items) {
    // A `replace` item has its label (validateArgs); only `label` is optional in the fields, so this narrows them.
    const item = itemFields(input) as MutableItem;
    byId.set(input.id, item);
    const parent = input.parent === undefined ? undefined : byId.get(input.parent);
    if (parent === undefined) {
      roots.push(item);
    } else {
      parent.children ??= [];
      parent.children.push(item);
    }
  }
  return roots;
}

/** A new todo document: an optional title and one checklist block. */
export function buildDocument(
  title: string | undefined,
  items: readonly TodoItemInput[],
): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  if (title !== undefined) document.title = title;
  document.blocks = [{ id: TODO_BLOCK, kind: "checklist", items: buildTree(items) }];
  return document;
}

/**
 * The patches of a `merge`: consecutive items with the same `parent` become one `upsert_items` patch (existing
 * items are merged in place, new ones appended under their parent), then one `remove_items`, then the title.
 */
export function buildPatches(args: TodoArgs): Record<string, unknown>[] {
  const patches: Record<string, unknown>[] = [];
  let group: { parent: string | undefined; items: Record<string, unknown>[] } | undefined;
  for (const input of args.items ?? []) {
    if (group === undefined || group.parent !== input.parent) {
      group = { parent: input.parent, items: [] };
      const patch: Record<string, unknown> = { op: "upsert_items", block: TODO_BLOCK, items: group.items };
      if (input.parent !== undefined) patch.parent = input.parent;
      patches.push(patch);
    }
    group.items.push(itemFields(input));
  }
  if (args.remove !== undefined && args.remove.length > 0) {
    patches.push({ op: "remove_items", block: TODO_BLOCK, ids: [...args.remove] });
  }
  if (args.title !== undefined) patches.push({ op: "set", field: "title", value: args.title });
  return patches;
}
