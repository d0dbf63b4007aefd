import { documentIssue, isObject } from "../shared/documents.js";
import { MAX_TODO_DEPTH, MAX_TODO_ITEMS, TODO_BLOCK } from "./constants.js";
import { itemFields, type TodoItemInput } from "./items.js";

const ROOT_KEYS = new Set(["mode", "title", "items", "remove"]);
const ITEM_KEYS = new Set(["id", "label", "status", "priority", "note", "parent"]);

/**
 * `validateArgs` of `todo`, first failure wins, messages `<argument pointer>: <reason>`: every item is checked
 * as a checklist item (`panels.md` §4.2; in `merge` a missing label is allowed, existing items keep theirs), ids
 * are unique, a `replace` item has a label and its `parent` is an earlier item at most 3 levels deep, and `remove`
 * is only for `merge`.
 */
export function validateArgs(args: unknown): string | undefined {
  if (!isObject(args)) return "arguments must be an object";
  for (const key of Object.keys(args)) {
    if (!ROOT_KEYS.has(key)) return `/${key}: unknown field`;
  }
  const mode = args.mode;
  if (mode !== "replace" && mode !== "merge") return "/mode: must be one of replace, merge";
  if (args.title !== undefined) {
    const issue = documentIssue({ title: args.title, blocks: [] }, "/title", "/title");
    if (issue !== undefined) return issue;
  }
  const items = args.items ?? [];
  if (!Array.isArray(items) || items.length > MAX_TODO_ITEMS) {
    return `/items: must be an array of at most ${MAX_TODO_ITEMS} items`;
  }
  const depth = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    const at = `/items/${i}`;
    if (!isObject(item)) return `${at}: must be an object`;
    for (const key of Object.keys(item)) {
      if (!ITEM_KEYS.has(key)) return `${at}/${key}: unknown field`;
    }
    if (mode === "replace" && item.label === undefined) return `${at}/label: is required`;
    const fields = itemFields(item as unknown as TodoItemInput);
    if (fields.label === undefined) fields.label = "x";
    const document = { blocks: [{ id: TODO_BLOCK, kind: "checklist", items: [fields] }] };
    const issue = documentIssue(document, "/blocks/0/items/0", at);
    if (issue !== undefined) return issue;
    const id = item.id as string;
    if (depth.has(id)) return `${at}/id: duplicate item id`;
    let level = 1;
    if (item.parent !== undefined) {
      if (typeof item.parent !== "string") return `${at}/parent: must be a string`;
      if (mode === "replace") {
        const parentLevel = depth.get(item.parent);
        if (parentLevel === undefined) return `${at}/parent: must name an earlier item`;
        level = parentLevel + 1;
        if (level > MAX_TODO_DEPTH) return `${at}/parent: nesting is at most ${MAX_TODO_DEPTH} levels`;
      }
    }
    depth.set(id, level);
  }
  const remove = args.remove;
  if (remove !== undefined) {
    if (mode !== "merge") return "/remove: is only for merge mode";
    if (!Array.isArray(remove) || remove.some((id) => typeof id !== "string")) {
      return "/remove: must be an array of item ids";
    }
  }
  if (
    mode === "merge" &&
    items.length === 0 &&
    (remove === undefined || remove.length === 0) &&
    args.title === undefined
  ) {
    return "/items: merge needs items, remove or title";
  }
  return undefined;
}
