import { ContractError, type Issue, isPlainObject, unescapePointerToken } from "@raw/schema";
import type { Predicate } from "./compile-predicate.js";
import { MAX_BIND_DEPTH, PREDICATE_UNBOUND } from "./limits.js";
import type { PathSegment } from "./path.js";
import type { PredicateSource } from "./predicate-schema.js";

/** The condition sources a tool has when it declares none (predicate.md §1). */
export const DEFAULT_CONDITION_SOURCES: readonly PredicateSource[] = Object.freeze(["arguments"]);

/** What `bindPredicate` needs to know about a tool. */
export interface BindPredicateOptions {
  /** The tool's model-facing name, used in messages. */
  toolName: string;
  /** The tool's condition sources; default `["arguments"]`. */
  conditionSources?: readonly string[] | undefined;
  /** The tool's schemas: `arguments` is the input schema, `effects` the effects schema. */
  schemas: { arguments?: unknown; effects?: unknown };
}

/** Result of `safeBindPredicate`: `issues` holds the one failing check. */
export type PredicateBindResult = { ok: true } | { ok: false; issues: Issue[] };

type Schema = Record<string, unknown>;

function own(node: Schema, key: string): unknown {
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

/** `allows(node, t)`: `node.type` is `t`, or an array containing `t`. */
function allows(node: Schema, t: string): boolean {
  const type = own(node, "type");
  return type === t || (Array.isArray(type) && type.includes(t));
}

/** `isStringField(node)`: a string type, or no type and at least one `enum`/`const` value, every one a string. */
function isStringField(node: Schema): boolean {
  if (allows(node, "string")) return true;
  if (own(node, "type") !== undefined) return false;
  let count = 0;
  const values = own(node, "enum");
  if (values !== undefined) {
    if (!Array.isArray(values)) return false;
    for (const value of values) {
      if (typeof value !== "string") return false;
      count++;
    }
  }
  if (Object.hasOwn(node, "const")) {
    if (typeof node.const !== "string") return false;
    count++;
  }
  return count > 0;
}

/** Resolves a local `#/...` reference against the root, decoding `~1` and `~0`, following own properties only. */
function resolveRef(root: Schema, ref: string): unknown {
  let node: unknown = root;
  for (const token of ref.slice(2).split("/")) {
    if (typeof node !== "object" || node === null) return undefined;
    const key = unescapePointerToken(token);
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Schema)[key];
  }
  return node;
}

/**
 * Decides `reach(root, 0, false)` of predicate.md §6.1. The recursive walk (with its per-branch cycle guard and its
 * depth limit) succeeds exactly when some chain of at most `MAX_BIND_DEPTH` steps leads from the root state to a
 * string field, and a shortest such chain never repeats a state; so a breadth-first search over the states
 * `(node, i, expectArray)`, each visited once at its smallest depth, gives the same answer in polynomial time even
 * for schemas whose references fan out and join again.
 */
function reachesString(root: Schema, segments: readonly PathSegment[]): boolean {
  const end = segments.length;
  const seen = new Map<Schema, Set<number>>();
  let queue: Array<[Schema, number, boolean]> = [];
  const visit = (node: unknown, i: number, expectArray: boolean): void => {
    if (!isPlainObject(node)) return;
    const state = i * 2 + (expectArray ? 1 : 0);
    let states = seen.get(node);
    if (!states) {
      states = new Set();
      seen.set(node, states);
    }
    if (states.has(state)) return;
    states.add(state);
    queue.push([node, i, expectArray]);
  };
  visit(root, 0, false);
  for (let depth = 0; queue.length > 0; depth++) {
    const level = queue;
    queue = [];
    const canStep = depth < MAX_BIND_DEPTH;
    for (const [node, i, expectArray] of level) {
      if (!expectArray && i === end && isStringField(node)) return true;
      if (!canStep) continue;
      const ref = own(node, "$ref");
      if (typeof ref === "string" && ref.startsWith("#/")) visit(resolveRef(root, ref), i, expectArray);
      for (const combinator of ["allOf", "anyOf", "oneOf"]) {
        const branches = own(node, combinator);
        if (Array.isArray(branches)) for (const branch of branches) visit(branch, i, expectArray);
      }
      const untyped = own(node, "type") === undefined;
      if (expectArray) {
        const items = own(node, "items");
        const prefixItems = own(node, "prefixItems");
        if (allows(node, "array") || (untyped && (items !== undefined || prefixItems !== undefined))) {
          if (isPlainObject(items)) visit(items, i, false);
          if (Array.isArray(prefixItems)) for (const item of prefixItems) visit(item, i, false);
        }
      } else if (i < end) {
        if (allows(node, "object") || (untyped && own(node, "properties") !== undefined)) {
          const segment = segments[i] as PathSegment;
          const properties = own(node, "properties");
          let child: unknown;
          if (isPlainObject(properties) && Object.hasOwn(properties, segment.key)) {
            child = properties[segment.key];
          } else {
            const additional = own(node, "additionalProperties");
            child = isPlainObject(additional) ? additional : undefined;
          }
          visit(child, i + 1, segment.star);
        }
      }
    }
  }
  return false;
}

function unbound(message: string): PredicateBindResult {
  return { ok: false, issues: [{ code: PREDICATE_UNBOUND, message }] };
}

/**
 * Binds a compiled predicate to a tool (predicate.md §6) and reports the first failing check with code
 * `predicate_unbound`. Never throws.
 */
export function safeBindPredicate(predicate: Predicate, options: BindPredicateOptions): PredicateBindResult {
  const { toolName } = options;
  const source = predicate.source;
  const sources = options.conditionSources ?? DEFAULT_CONDITION_SOURCES;
  if (!sources.includes(source)) return unbound(`when.source ${source} is unavailable in ${toolName}`);
  const schema = source === "effects" ? options.schemas.effects : options.schemas.arguments;
  if (!isPlainObject(schema)) return unbound(`when.source ${source} has no schema in ${toolName}`);
  let reached = false;
  try {
    reached = reachesString(schema, predicate.segments);
  } catch {
    // A schema whose properties cannot be read (a throwing getter or proxy) proves nothing.
  }
  return reached ? { ok: true } : unbound(`when.any path does not resolve to a string in ${toolName} schema`);
}

/**
 * Binds a compiled predicate to a tool's condition sources and schemas (predicate.md §6). Throws a `ContractError`
 * with code `predicate_unbound` and the message of the first failing check.
 */
export function bindPredicate(predicate: Predicate, options: BindPredicateOptions): void {
  const result = safeBindPredicate(predicate, options);
  if (!result.ok) throw ContractError.fromIssues(result.issues, PREDICATE_UNBOUND);
}
