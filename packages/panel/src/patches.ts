import { DEFAULT_TIMELINE_MAX } from "./limits.js";
import { fail } from "./panel-error.js";
import type { PanelDocument } from "./types.js";
import type { PanelPatch, RemoveItemsPatch, UpsertItemsPatch } from "./update.js";

type Node = Record<string, unknown>;

/** Where `upsert_items` finds items and by which key (`panels.md` §6.4). */
const UPSERT: Record<string, { container: string; key: string }> = {
  checklist: { container: "items", key: "id" },
  steps: { container: "items", key: "id" },
  table: { container: "rows", key: "id" },
  key_value: { container: "entries", key: "key" },
  files: { container: "entries", key: "path" },
};

/** Which selector `remove_items` takes per kind, where the items live and their key (`panels.md` §6.4). */
const REMOVE: Record<string, { selector: "ids" | "keys" | "paths"; container: string; key: string }> = {
  checklist: { selector: "ids", container: "items", key: "id" },
  steps: { selector: "ids", container: "items", key: "id" },
  table: { selector: "ids", container: "rows", key: "id" },
  timeline: { selector: "ids", container: "events", key: "id" },
  key_value: { selector: "keys", container: "entries", key: "key" },
  files: { selector: "paths", container: "entries", key: "path" },
};

/** A document, block or item as a working node: any object is read and copied by its own fields. */
function asNode(value: object): Node {
  return value as Node;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function lookup<T>(table: Record<string, T>, kind: unknown): T | undefined {
  return typeof kind === "string" && Object.hasOwn(table, kind) ? table[kind] : undefined;
}

/** Copies own enumerable properties onto `target` without invoking setters (`__proto__` stays ordinary data). */
function assignOwn(target: Node, source: object): Node {
  for (const key of Object.keys(source)) {
    Object.defineProperty(target, key, {
      value: (source as Node)[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return target;
}

/**
 * A working copy of a document under patching. Nothing reachable from the stored document or from the update is
 * ever written: every object is copied (shallowly) the first time it is about to change, and copies are tracked so
 * each is made once per update.
 */
class Working {
  private readonly owned = new Set<object>();
  readonly doc: Node;
  readonly blocks: Node[];

  constructor(current: PanelDocument) {
    this.doc = this.own(asNode(current));
    // A fresh array of the same blocks: owned, like the copy `ownArray` makes.
    this.blocks = current.blocks.map(asNode);
    this.owned.add(this.blocks);
    this.doc.blocks = this.blocks;
  }

  own(node: Node): Node {
    if (this.owned.has(node)) return node;
    const copy = assignOwn({}, node);
    this.owned.add(copy);
    return copy;
  }

  ownArray<T>(list: readonly T[]): T[] {
    if (this.owned.has(list)) return list as T[];
    const copy = list.slice();
    this.owned.add(copy);
    return copy;
  }

  /** A fresh owned object holding the own properties of `source`. */
  fresh(source: object): Node {
    const copy = assignOwn({}, source);
    this.owned.add(copy);
    return copy;
  }

  /** The index of the block with this id, or -1. */
  indexOf(id: unknown): number {
    return this.blocks.findIndex((block) => block.id === id);
  }

  /** The block with this id, owned (writable), or a failure at `pointer`. */
  ownBlock(id: unknown, pointer: string): Node {
    const index = this.indexOf(id);
    if (index < 0) fail(pointer, `unknown block "${String(id)}"`);
    const block = this.own(this.blocks[index] as Node);
    this.blocks[index] = block;
    return block;
  }

  /** The owned array `block[container]` (an empty one when it is missing). */
  ownList(block: Node, container: string): unknown[] {
    const value = block[container];
    const list = Array.isArray(value) ? this.ownArray(value) : this.ownArray([]);
    block[container] = list;
    return list;
  }

  /**
   * Makes the checklist path to an item writable: returns the owned array that holds the item and its index. `path`
   * is a list of indexes from the top-level items down to the item.
   */
  ownPath(items: unknown[], path: readonly number[]): { list: unknown[]; index: number } {
    let list = items;
    for (let depth = 0; depth < path.length - 1; depth++) {
      const index = path[depth] as number;
      const item = this.own(list[index] as Node);
      list[index] = item;
      list = this.ownList(item, "children");
    }
    return { list, index: path[path.length - 1] as number };
  }
}

/** The index path of the first item with this id, depth-first with parents before their children. */
function findInTree(items: readonly unknown[], id: string): number[] | undefined {
  const seen = new Set<object>();
  const walk = (list: readonly unknown[], prefix: number[]): number[] | undefined => {
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (!isNode(item) || seen.has(item)) continue;
      seen.add(item);
      if (item.id === id) return [...prefix, i];
      const children = item.children;
      if (Array.isArray(children) && !seen.has(children)) {
        seen.add(children);
        const found = walk(children, [...prefix, i]);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return walk(items, []);
}

function findFlat(list: readonly unknown[], key: string, value: string): number {
  return list.findIndex((entry) => isNode(entry) && entry[key] === value);
}

function upsertItems(work: Working, patch: UpsertItemsPatch, p: string): void {
  const index = work.indexOf(patch.block);
  if (index < 0) fail(`${p}/block`, `unknown block "${String(patch.block)}"`);
  const kind = (work.blocks[index] as Node).kind;
  const spec = lookup(UPSERT, kind);
  if (spec === undefined) {
    fail(`${p}/block`, `block "${String(patch.block)}" (${String(kind)}) does not support upsert_items`);
  }
  const checklist = kind === "checklist";
  if (patch.parent !== undefined && !checklist) fail(`${p}/parent`, "is only for checklist blocks");
  const block = work.ownBlock(patch.block, `${p}/block`);
  const list = work.ownList(block, spec.container);
  for (let j = 0; j < patch.items.length; j++) {
    const item = patch.items[j] as Node;
    const key = item[spec.key];
    if (typeof key !== "string") fail(`${p}/items/${j}/${spec.key}`, "is required");
    if (checklist) {
      const path = findInTree(list, key);
      if (path !== undefined) {
        const at = work.ownPath(list, path);
        at.list[at.index] = assignOwn(work.own(at.list[at.index] as Node), item);
      } else if (patch.parent === undefined) list.push(work.fresh(item));
      else appendChild(work, list, patch.parent, work.fresh(item), p);
    } else {
      const at = findFlat(list, spec.key, key);
      if (at >= 0) list[at] = assignOwn(work.own(list[at] as Node), item);
      else list.push(work.fresh(item));
    }
  }
}

function appendChild(work: Working, items: unknown[], parent: unknown, child: Node, p: string): void {
  const path = typeof parent === "string" ? findInTree(items, parent) : undefined;
  if (path === undefined) fail(`${p}/parent`, `unknown item "${String(parent)}"`);
  const at = work.ownPath(items, path);
  const owner = work.own(at.list[at.index] as Node);
  at.list[at.index] = owner;
  const children = owner.children;
  if (children !== undefined && !Array.isArray(children)) {
    fail(`${p}/parent`, `item "${String(parent)}" has malformed children`);
  }
  work.ownList(owner, "children").push(child);
}

function missingTarget(p: string, selector: string, target: string, block: unknown): never {
  fail(`${p}/${selector}`, `"${target}" does not exist in block "${String(block)}"`);
}

function removeItems(work: Working, patch: RemoveItemsPatch, p: string): void {
  const index = work.indexOf(patch.block);
  if (index < 0) fail(`${p}/block`, `unknown block "${String(patch.block)}"`);
  const kind = (work.blocks[index] as Node).kind;
  const spec = lookup(REMOVE, kind);
  if (spec === undefined) {
    fail(`${p}/block`, `block "${String(patch.block)}" (${String(kind)}) does not support remove_items`);
  }
  const given = patch.ids !== undefined ? "ids" : patch.keys !== undefined ? "keys" : "paths";
  if (given !== spec.selector) fail(`${p}/${given}`, `${String(kind)} blocks take ${spec.selector}`);
  const targets = patch[given] as readonly string[];
  const block = work.ownBlock(patch.block, `${p}/block`);
  const list = work.ownList(block, spec.container);
  for (const target of targets) {
    if (kind === "checklist") {
      const path = findInTree(list, target);
      if (path === undefined) missingTarget(p, given, target, patch.block);
      const at = work.ownPath(list, path);
      at.list.splice(at.index, 1);
    } else {
      const at = findFlat(list, spec.key, target);
      if (at < 0) missingTarget(p, given, target, patch.block);
      list.splice(at, 1);
    }
  }
}

/**
 * Applies patches in order to a private working copy of `current` (`panels.md` §6.4) and returns the resulting,
 * not yet validated document. Fails with a `PanelFailure` for a patch that cannot apply; may throw anything else on
 * malformed nested input (the caller maps that to `/patches: an item is malformed and could not be merged`).
 */
export function applyPatches(current: PanelDocument, patches: readonly PanelPatch[]): unknown {
  const work = new Working(current);
  for (let i = 0; i < patches.length; i++) {
    const patch = patches[i] as PanelPatch;
    const p = `/patches/${i}`;
    switch (patch.op) {
      case "set":
        if (patch.value === null) delete work.doc[patch.field];
        else work.doc[patch.field] = patch.value;
        break;
      case "set_block": {
        const at = work.indexOf(patch.block.id);
        if (at >= 0) work.blocks[at] = asNode(patch.block);
        else if (patch.before === undefined) work.blocks.push(asNode(patch.block));
        else {
          const before = work.indexOf(patch.before);
          if (before < 0) fail(`${p}/before`, `unknown block "${String(patch.before)}"`);
          work.blocks.splice(before, 0, asNode(patch.block));
        }
        break;
      }
      case "remove_block": {
        const at = work.indexOf(patch.id);
        if (at < 0) fail(`${p}/id`, `unknown block "${String(patch.id)}"`);
        work.blocks.splice(at, 1);
        break;
      }
      case "upsert_items":
        upsertItems(work, patch, p);
        break;
      case "remove_items":
        removeItems(work, patch, p);
        break;
      case "append_events": {
        const index = work.indexOf(patch.block);
        if (index < 0) fail(`${p}/block`, `unknown block "${String(patch.block)}"`);
        if ((work.blocks[index] as Node).kind !== "timeline") {
          fail(`${p}/block`, `block "${String(patch.block)}" is not a timeline`);
        }
        const block = work.ownBlock(patch.block, `${p}/block`);
        const max = typeof block.max === "number" && block.max >= 1 ? block.max : DEFAULT_TIMELINE_MAX;
        const events = [...(Array.isArray(block.events) ? block.events : []), ...patch.events];
        block.events = events.length > max ? events.slice(events.length - max) : events;
        break;
      }
    }
  }
  return work.doc;
}
