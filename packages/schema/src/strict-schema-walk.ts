import type { Dialect } from "./ajv.js";
import { nearestName } from "./nearest-name.js";
import { isPlainObject } from "./plain-object.js";
import { escapePointerToken, parsePointer } from "./pointer.js";
import { JSON_SCHEMA_TYPES, knownFormats, schemaKeywords } from "./schema-vocabulary.js";

/** At most this many schema values (objects, arrays and keys) are visited by one walk; the rest is left to Ajv. */
export const MAX_SCHEMA_WALK_NODES = 100_000;
/** At most this many findings are collected by one walk. */
export const MAX_SCHEMA_FINDINGS = 100;

/**
 * One strict-mode violation found by `walkStrictSchema`: the validator's own wording (`message`, as Ajv's strict
 * mode words it), the JSON Pointer of the offending keyword (`path`, prefixed with the walk's base pointer) and a
 * `hint` saying what to write instead.
 */
export interface StrictFinding {
  message: string;
  path: string;
  hint: string;
}

/** What one walk found: every finding, the unknown `format` names, every `$ref` seen, and whether it was cut short. */
export interface StrictWalk {
  findings: StrictFinding[];
  unknownFormats: string[];
  refs: Array<{ value: string; path: string }>;
  truncated: boolean;
}

/** Keywords whose value is one subschema. */
const SINGLE = [
  "not",
  "if",
  "then",
  "else",
  "additionalProperties",
  "propertyNames",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
];
/** Keywords whose value is an array of subschemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "patternProperties", "dependentSchemas", "dependencies"];
/** Longest `patternProperties` pattern the walk tests against declared property names (Ajv tests them all). */
const MAX_PATTERN_LENGTH = 1024;

/**
 * A schema value to visit. Its pointer relative to the root (`rel`) is spelled only when a finding or a `$ref` needs
 * it: from the frame it was reached from (`up`) and one or two tokens (`key`, `index`), then kept.
 */
type Frame = {
  node: unknown;
  up: Frame | undefined;
  key: string;
  index: string | number | undefined;
  rel: string | undefined;
};

/**
 * The subschemas under one keyword whose value is a list or a map, handed out one at a time (`next` is the next
 * position), so that the walk holds one entry per keyword rather than one frame per subschema.
 */
type Group = {
  owner: Frame;
  key: string;
  list: readonly unknown[] | undefined;
  map: Record<string, unknown> | undefined;
  names: readonly string[];
  next: number;
};

type Entry = Frame | Group;

/** The next subschema of `group` as a frame, or undefined when all were handed out. */
function nextOf(group: Group): Frame | undefined {
  const i = group.next;
  if (group.list !== undefined) {
    if (i >= group.list.length) return undefined;
    group.next = i + 1;
    return { node: group.list[i], up: group.owner, key: group.key, index: i, rel: undefined };
  }
  if (i >= group.names.length) return undefined;
  group.next = i + 1;
  const name = group.names[i] as string;
  return { node: group.map?.[name], up: group.owner, key: group.key, index: name, rel: undefined };
}

/** The pointer of `frame` relative to the root, spelled once per frame (iteratively: chains can be long). */
function relOf(frame: Frame): string {
  if (frame.rel !== undefined) return frame.rel;
  const pending: Frame[] = [];
  let top: Frame | undefined = frame;
  while (top !== undefined && top.rel === undefined) {
    pending.push(top);
    top = top.up;
  }
  let rel = top?.rel ?? "";
  for (let i = pending.length - 1; i >= 0; i--) {
    const f = pending[i] as Frame;
    rel += `/${escapePointerToken(f.key)}`;
    if (f.index !== undefined) rel += `/${escapePointerToken(f.index)}`;
    f.rel = rel;
  }
  return rel;
}

/** Options of `walkStrictSchema`. */
export interface StrictWalkOptions {
  /** Follow local `$ref`s to their targets (default true), as Ajv's compile does. */
  followRefs?: boolean;
  /**
   * End the walk as soon as `MAX_SCHEMA_FINDINGS` findings are collected (default false). The findings are the
   * same either way (the first ones in walk order); `refs` and `unknownFormats` then cover only the part walked
   * (and `truncated` is true when the walk ended that way). For callers that report the findings only, so that the
   * rest of a huge schema costs nothing.
   */
  stopWhenFull?: boolean;
}

/**
 * Walks a schema of `dialect` the way Ajv's strict compile reaches its subschemas (applicators and local `$ref`
 * targets; not unreferenced `$defs`, not annotation values) and collects, in document order, every strict-mode
 * violation that does not depend on the enclosing schema: unknown keywords, union types, unknown formats, tuples
 * without matching bounds, `if`/`then`/`else` and `contains` companions, `additionalItems` without a tuple,
 * `nullable` without `type`, and properties matching a `patternProperties` pattern. Context-dependent checks
 * (strictTypes, strictRequired) are Ajv's. The walk is iterative and bounded (`MAX_SCHEMA_WALK_NODES`,
 * `MAX_SCHEMA_FINDINGS`), visits each object once (cycles end), reads own properties only and never throws for
 * any JSON value; an exotic value (a throwing getter or proxy) may throw, which the caller catches. A hint is
 * worded only for a finding that is kept.
 */
export function walkStrictSchema(
  root: unknown,
  dialect: Dialect,
  base = "",
  options: StrictWalkOptions = {},
): StrictWalk {
  const followRefs = options.followRefs ?? true;
  const stopWhenFull = options.stopWhenFull ?? false;
  const vocabulary = schemaKeywords(dialect);
  const formats = knownFormats();
  const findings: StrictFinding[] = [];
  const unknownFormats: string[] = [];
  const refs: Array<{ value: string; path: string }> = [];
  const seen = new Set<object>();
  const stack: Entry[] = [{ node: root, up: undefined, key: "", index: undefined, rel: "" }];
  let budget = MAX_SCHEMA_WALK_NODES;
  let truncated = false;

  const add: Add = (message, rel, hint) => {
    if (findings.length < MAX_SCHEMA_FINDINGS) {
      findings.push({ message, path: base + rel, hint: typeof hint === "string" ? hint : hint() });
    } else truncated = true;
  };
  const done = (): boolean => stopWhenFull && findings.length >= MAX_SCHEMA_FINDINGS;

  while (stack.length > 0) {
    if (done()) {
      truncated = true;
      break;
    }
    const entry = stack.pop() as Entry;
    let frame: Frame;
    if ("owner" in entry) {
      // A group hands out its next subschema and stays below it on the stack until it has no more.
      const next = nextOf(entry);
      if (next === undefined) continue;
      stack.push(entry);
      frame = next;
    } else frame = entry;
    const node = frame.node;
    if (!isPlainObject(node) || seen.has(node)) continue;
    seen.add(node);
    const keys = Object.keys(node);
    budget -= keys.length + 1;
    if (budget < 0) {
      truncated = true;
      break;
    }
    const rel = () => relOf(frame);
    const keyRel = (key: string) => `${rel()}/${escapePointerToken(key)}`;
    const children: Entry[] = [];
    const child = (value: unknown, key: string): void => {
      children.push({ node: value, up: frame, key, index: undefined, rel: undefined });
    };
    const group = (key: string, list: unknown[] | undefined, map?: Record<string, unknown>): void => {
      const names = map === undefined ? [] : Object.keys(map);
      budget -= list === undefined ? names.length : list.length;
      children.push({ owner: frame, key, list, map, names, next: 0 });
    };

    for (const key of keys) {
      if (done()) break;
      const value = node[key];
      if (!vocabulary.has(key)) {
        add(`strict mode: unknown keyword: "${key}"`, keyRel(key), () =>
          unknownKeywordHint(key, vocabulary, dialect),
        );
        continue;
      }
      if (SINGLE.includes(key)) child(value, key);
      else if (LIST.includes(key) || (key === "items" && Array.isArray(value))) {
        if (Array.isArray(value)) group(key, value);
      } else if (key === "items") child(value, key);
      else if (MAP.includes(key) && isPlainObject(value)) group(key, undefined, value);
      else if (key === "$ref" && typeof value === "string") {
        refs.push({ value, path: base + keyRel(key) });
        if (followRefs) {
          const target = resolveLocalRef(root, value);
          if (target !== undefined) {
            children.push({ node: target.node, up: undefined, key: "", index: undefined, rel: target.rel });
          }
        }
      } else if (key === "format" && typeof value === "string" && !formats.includes(value)) {
        if (!unknownFormats.includes(value)) unknownFormats.push(value);
        add(`unknown format "${value}" ignored in schema at path "#${fragment(rel())}"`, keyRel(key), () =>
          unknownFormatHint(value, formats),
        );
      }
    }
    checkTypes(node, rel, add);
    checkTuples(node, rel, dialect, add);
    checkCompanions(node, rel, dialect, add);
    checkMatchingProperties(node, rel, add, done);
    // Children are pushed in reverse so that they are visited in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Entry);
  }
  return { findings, unknownFormats, refs, truncated };
}

/** Adds a finding; a hint given as a function is worded only when the finding is kept. */
type Add = (message: string, rel: string, hint: string | (() => string)) => void;
/** The pointer of the schema being checked, relative to the root (spelled on first use). */
type Rel = () => string;

function checkTypes(node: Record<string, unknown>, at: Rel, add: Add): void {
  const declared = node.type;
  const types: string[] = Array.isArray(declared)
    ? declared.filter((t): t is string => typeof t === "string")
    : typeof declared === "string"
      ? [declared]
      : [];
  if (types.length !== (Array.isArray(declared) ? declared.length : declared === undefined ? 0 : 1)) return;
  if (!types.every((t) => JSON_SCHEMA_TYPES.includes(t))) return;
  const hasNull = types.includes("null");
  if (hasNull && node.nullable === false) {
    add(
      "type: null contradicts nullable: false",
      `${at()}/nullable`,
      'remove "nullable": false, or "null" from "type"',
    );
    return;
  }
  if (!hasNull && types.length === 0 && node.nullable !== undefined) {
    add(
      '"nullable" cannot be used without "type"',
      `${at()}/nullable`,
      'remove "nullable", or add a "type" beside it (write ["string", "null"] to allow null)',
    );
    return;
  }
  if (!hasNull && node.nullable === true) types.push("null");
  if (types.length > 1 && !(types.length === 2 && types.includes("null"))) {
    add(
      `strict mode: use allowUnionTypes to allow union type keyword at "#${fragment(at())}" (strictTypes)`,
      `${at()}/type`,
      unionTypeHint(types),
    );
  }
}

function checkTuples(node: Record<string, unknown>, at: Rel, dialect: Dialect, add: Add): void {
  const [keyword, extra] = dialect === "2020-12" ? ["prefixItems", "items"] : ["items", "additionalItems"];
  const tuple = node[keyword];
  if (!Array.isArray(tuple)) return;
  const l = tuple.length;
  const full = l === node.minItems && (l === node.maxItems || node[extra] === false);
  if (full) return;
  add(
    `strict mode: "${keyword}" is ${l}-tuple, but minItems or maxItems/${extra} are not specified or different at path "#${fragment(at())}"`,
    `${at()}/${keyword}`,
    `a tuple of ${l} item${l === 1 ? "" : "s"} needs "minItems": ${l} and either "maxItems": ${l} or "${extra}": false beside "${keyword}"; for a list of any length write "items": <one schema> instead`,
  );
}

function checkCompanions(node: Record<string, unknown>, at: Rel, dialect: Dialect, add: Add): void {
  if (Object.hasOwn(node, "if") && node.then === undefined && node.else === undefined) {
    add(
      'strict mode: "if" without "then" and "else" is ignored',
      `${at()}/if`,
      'add "then" and/or "else" beside "if", or remove "if"',
    );
  }
  for (const keyword of ["then", "else"]) {
    if (Object.hasOwn(node, keyword) && node.if === undefined) {
      add(
        `strict mode: "${keyword}" without "if" is ignored`,
        `${at()}/${keyword}`,
        `add the "if" that "${keyword}" belongs to, or remove "${keyword}"`,
      );
    }
  }
  if (dialect !== "2020-12" && Object.hasOwn(node, "additionalItems") && !Array.isArray(node.items)) {
    add(
      'strict mode: "additionalItems" is ignored when "items" is not an array of schemas',
      `${at()}/additionalItems`,
      'remove "additionalItems"; it applies only after a tuple ("items": [<schema>, ...])',
    );
  }
  if (dialect === "draft-07") return;
  for (const keyword of ["maxContains", "minContains"]) {
    if (Object.hasOwn(node, keyword) && node.contains === undefined) {
      add(
        `strict mode: "${keyword}" without "contains" is ignored`,
        `${at()}/${keyword}`,
        `add the "contains" schema that "${keyword}" counts, or remove "${keyword}"`,
      );
    }
  }
  if (node.contains === undefined) return;
  const min = node.minContains === undefined ? 1 : node.minContains;
  const max = node.maxContains;
  if (max === undefined && min === 0) {
    add(
      'strict mode: "minContains" == 0 without "maxContains": "contains" keyword ignored',
      `${at()}/minContains`,
      'with "minContains": 0 "contains" accepts every array: add "maxContains" or remove "contains"',
    );
  } else if (typeof max === "number" && typeof min === "number" && min > max) {
    add(
      'strict mode: "minContains" > "maxContains" is always invalid',
      `${at()}/minContains`,
      '"minContains" must not exceed "maxContains"',
    );
  }
}

function checkMatchingProperties(
  node: Record<string, unknown>,
  at: Rel,
  add: Add,
  done: () => boolean,
): void {
  const patterns = node.patternProperties;
  const properties = node.properties;
  if (!isPlainObject(patterns) || !isPlainObject(properties)) return;
  const names = Object.keys(properties);
  for (const pattern of Object.keys(patterns)) {
    if (done()) return;
    if (pattern.length > MAX_PATTERN_LENGTH) continue;
    let re: RegExp;
    try {
      re = new RegExp(pattern);
    } catch {
      continue;
    }
    for (const name of names) {
      if (done()) return;
      if (!re.test(name)) continue;
      add(
        `strict mode: property ${name} matches pattern ${pattern} (use allowMatchingProperties)`,
        `${at()}/patternProperties/${escapePointerToken(pattern)}`,
        `"${name}" is declared in "properties" and also matches this pattern; narrow the pattern so that it excludes "${name}", or fold the property's schema into the pattern's`,
      );
    }
  }
}

/** How far a "did you mean" suggestion may be from a name: 1 edit for names of up to 4 characters, else 2. */
function suggestionDistance(name: string): number {
  return name.length <= 4 ? 1 : 2;
}

/** The hint of an unknown keyword: the nearest keyword of the dialect, or what strict schemas accept. */
export function unknownKeywordHint(key: string, vocabulary: ReadonlySet<string>, dialect: Dialect): string {
  const near = nearestName(key, vocabulary, suggestionDistance(key));
  if (near !== undefined) return `did you mean "${near}"?`;
  return `"${key}" is not a JSON Schema ${dialect} keyword; remove it, or keep the note in "description" or "$comment" (annotations title, description, default, examples, $comment are accepted)`;
}

/** The hint of a union `type`: the accepted spelling (`anyOf` of single-type schemas, or one type with `"null"`). */
export function unionTypeHint(types: readonly string[]): string {
  const branches = types.map((t) => `{ "type": "${t}" }`).join(", ");
  return `write "anyOf": [${branches}] instead; a "type" list is accepted only as one type paired with "null", such as ["string", "null"]`;
}

/** The hint of an unknown `format`: the nearest known format, and the known ones. */
export function unknownFormatHint(name: string, formats: readonly string[]): string {
  const near = nearestName(name, formats, suggestionDistance(name));
  const known = `known formats: ${formats.join(", ")}`;
  return near !== undefined
    ? `did you mean "${near}"? ${known}`
    : `${known}; or remove "format" and describe the expected text in "description"`;
}

/** The type names of a `type` value that are not JSON Schema types, with the nearest valid name for the first. */
export function typeNameHint(value: unknown): string {
  const list = `JSON Schema types are ${JSON_SCHEMA_TYPES.map((t) => `"${t}"`).join(", ")}`;
  if (typeof value === "string") {
    const near = nearestName(value, JSON_SCHEMA_TYPES, 3);
    return near === undefined ? list : `did you mean "${near}"? ${list}`;
  }
  return `${list}: write one of them, or a list such as ["string", "null"]`;
}

/** The URI fragment Ajv prints for a schema path (each token percent-encoded). */
function fragment(rel: string): string {
  const tokens = parsePointer(rel) ?? [];
  return tokens.map((t) => `/${encodeURIComponent(escapePointerToken(t))}`).join("");
}

/** Resolves a local `#/...` reference against `root`, or undefined when it does not point at a schema. */
export function resolveLocalRef(root: unknown, ref: string): { node: unknown; rel: string } | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let tokens: string[] | undefined;
  try {
    tokens = parsePointer(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
  if (tokens === undefined) return undefined;
  let node: unknown = root;
  let rel = "";
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= node.length) return undefined;
      node = node[Number(token)];
    } else if (isPlainObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else return undefined;
    rel += `/${escapePointerToken(token)}`;
  }
  return { node, rel };
}
