import type { Issue } from "./issue.js";
import { isPlainObject } from "./plain-object.js";
import { parsePointer } from "./pointer.js";

/**
 * Sorts issues by where their pointers lead in `root` (the schema at pointer `at`): by key order, then array index,
 * an ancestor before its descendants; a pointer that leaves the document sorts after its last existing ancestor.
 * The sort is stable. The keys of each object on the issues' paths are read once per call, whatever the number of
 * issues under it (an object of n keys with m issues under it costs n + m, not n · m).
 */
export function sortByDocumentOrder(issues: Issue[], root: unknown, at: string): Issue[] {
  // Every position the keys below ask for is collected first (the descent needs presence only, not the position),
  // then filled in by one pass over each object's keys.
  const positions = new Map<Record<string, unknown>, Map<string, number>>();
  for (const issue of issues) collectWanted(issue.path, root, at, positions);
  for (const [node, tokens] of positions) fillPositions(node, tokens);
  const positionOf = (node: Record<string, unknown>, token: string): number => {
    const index = positions.get(node)?.get(token);
    // Not collected only if the object answered differently the second time (a proxy): read it as before.
    return index ?? Object.keys(node).indexOf(token);
  };
  const keyOf = (path: string | undefined): number[] => {
    const tokens = path?.startsWith(at) ? (parsePointer(path.slice(at.length)) ?? []) : [];
    const key: number[] = [];
    let node = root;
    for (const token of tokens) {
      if (Array.isArray(node)) {
        key.push(Number(token));
        node = node[Number(token)];
      } else if (isPlainObject(node)) {
        const index = positionOf(node, token);
        key.push(index < 0 ? Number.MAX_SAFE_INTEGER : index);
        node = index < 0 ? undefined : node[token];
      } else {
        key.push(Number.MAX_SAFE_INTEGER);
        node = undefined;
      }
    }
    return key;
  };
  const keyed = issues.map((issue, order) => ({ issue, order, key: keyOf(issue.path) }));
  keyed.sort((a, b) => {
    const n = Math.min(a.key.length, b.key.length);
    for (let i = 0; i < n; i++) {
      const d = (a.key[i] as number) - (b.key[i] as number);
      if (d !== 0) return d;
    }
    return a.key.length - b.key.length || a.order - b.order;
  });
  return keyed.map((k) => k.issue);
}

/** Records, per object on `path`'s way through `root`, the tokens whose key position the sort needs. */
function collectWanted(
  path: string | undefined,
  root: unknown,
  at: string,
  wanted: Map<Record<string, unknown>, Map<string, number>>,
): void {
  const tokens = path?.startsWith(at) ? (parsePointer(path.slice(at.length)) ?? []) : [];
  let node = root;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      node = node[Number(token)];
    } else if (isPlainObject(node)) {
      let set = wanted.get(node);
      if (set === undefined) {
        set = new Map();
        wanted.set(node, set);
      }
      set.set(token, -1);
      // Present exactly when `Object.keys(node)` lists it: an own enumerable string key.
      node = Object.prototype.propertyIsEnumerable.call(node, token) ? node[token] : undefined;
    } else {
      node = undefined;
    }
  }
}

/** Sets each of `tokens` to its first position among `Object.keys(node)` (-1 stays when absent), in one pass. */
function fillPositions(node: Record<string, unknown>, tokens: Map<string, number>): void {
  const names = Object.keys(node);
  let left = tokens.size;
  for (let i = 0; i < names.length && left > 0; i++) {
    const name = names[i] as string;
    if (tokens.get(name) === -1) {
      tokens.set(name, i);
      left--;
    }
  }
}
