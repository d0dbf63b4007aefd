import type { Issue } from "./issue.js";
import { isPlainObject } from "./plain-object.js";
import { parsePointer } from "./pointer.js";

/**
 * Sorts issues by where their pointers lead in `root` (the schema at pointer `at`): by key order, then array index,
 * an ancestor before its descendants; a pointer that leaves the document sorts after its last existing ancestor.
 * The sort is stable.
 */
export function sortByDocumentOrder(issues: Issue[], root: unknown, at: string): Issue[] {
  const keyOf = (path: string | undefined): number[] => {
    const tokens = path?.startsWith(at) ? (parsePointer(path.slice(at.length)) ?? []) : [];
    const key: number[] = [];
    let node = root;
    for (const token of tokens) {
      if (Array.isArray(node)) {
        key.push(Number(token));
        node = node[Number(token)];
      } else if (isPlainObject(node)) {
        const index = Object.keys(node).indexOf(token);
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
