import { documentIssue } from "../shared/documents.js";
import { MAX_TODO_DEPTH, TODO_BLOCK } from "./constants.js";
import { itemFields, type TodoArgs } from "./items.js";

/**
 * `validateArgs` of `todo`, first failure wins, messages `<argument pointer>: <reason>`. Only what the input schema
 * cannot express (it runs first: known fields, `mode`, item ids, statuses, lengths, at most 200 items): every item
 * is checked as a checklist item (`panels.md` §4.2, control characters; in `merge` a missing label is allowed,
 * existing items keep theirs), ids are unique, a `replace` item has a label and its `parent` is an earlier item at
 * most 3 levels deep, `remove` is only for `merge`, and a `merge` changes something.
 */
export function validateArgs(args: TodoArgs): string | undefined {
  const mode = args.mode;
  if (args.title !== undefined) {
    const issue = documentIssue({ title: args.title, blocks: [] }, "/title", "/title");
    if (issue !== undefined) return issue;
  }
  const items = args.items ?? [];
  const depth = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const at = `/items/${i}`;
    if (mode === "replace" && item.label === undefined) return `${at}/label: is required`;
    const fields = itemFields(item);
    if (fields.label === undefined) fields.label = "x";
    const document = { blocks: [{ id: TODO_BLOCK, kind: "checklist", items: [fields] }] };
    const issue = documentIssue(document, "/blocks/0/items/0", at);
    if (issue !== undefined) return issue;
    if (depth.has(item.id)) return `${at}/id: duplicate item id`;
    let level = 1;
    if (item.parent !== undefined && mode === "replace") {
      const parentLevel = depth.get(item.parent);
      if (parentLevel === undefined) return `${at}/parent: must name an earlier item`;
      level = parentLevel + 1;
      if (level > MAX_TODO_DEPTH) return `${at}/parent: nesting is at most ${MAX_TODO_DEPTH} levels`;
    }
    depth.set(item.id, level);
  }
  const remove = args.remove;
  if (remove !== undefined && mode !== "merge") return "/remove: is only for merge mode";
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
