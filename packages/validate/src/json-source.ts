import {
  type MemberNode,
  type ObjectNode,
  parse as parseJsonTree,
  type TokenType,
  tokenize,
  type ValueNode,
} from "@humanwhocodes/momoa";

/** A 1-based line and column in a JSON source text (columns count UTF-16 code units; CRLF is one line end). */
export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * The deepest nesting the source-position parser walks (arrays and objects inside each other). The value itself is
 * always `JSON.parse`'s; a deeper text gets its positions from a scan of its characters with an explicit stack (one
 * pass per question, nothing allocated per value), so a hostile file can never exhaust the call stack.
 */
export const MAX_JSON_SOURCE_DEPTH = 1000;

/** The hint of a JSON text that starts with a UTF-8 byte-order mark (JSON refuses U+FEFF at 1:1). */
export const BOM_HINT = "remove the UTF-8 byte-order mark (U+FEFF) at the start of the file";

/** The hint of a comma before a closing `}` or `]`. */
export const TRAILING_COMMA_HINT = "remove the trailing comma: JSON allows no comma before a closing } or ]";

/** A parsed JSON text: the value `JSON.parse` gives, and the source position of every JSON Pointer in it. */
export type JsonSource =
  | { ok: true; value: unknown; positionOf(pointer: string): SourcePosition }
  | { ok: false; message: string; position: SourcePosition; hint?: string };

/** The line and column of a UTF-16 offset in `text` (LF, CRLF and a lone CR each end a line, as in the parser). */
export function positionAt(text: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  const end = Math.max(0, Math.min(offset, text.length));
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * `JSON.parse`'s message on one line: V8 quotes the text around the error (`Unexpected token 'o', "<text>" is not
 * valid JSON`) and adds its offset (`in JSON at position 8`); the line and column say where it is instead.
 */
export function parserMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, "")
    .replace(/ in JSON at position \d+(?: \(line \d+ column \d+\))?$/, "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/** The UTF-16 offset `JSON.parse` names in its message (`... in JSON at position 8`), when it names one. */
function v8Offset(error: unknown): number | undefined {
  const match = /at position (\d+)/.exec(error instanceof Error ? error.message : "");
  return match === null ? undefined : Number(match[1]);
}

/** The deepest nesting of `text`, counted outside strings; stops counting once past `limit`. */
function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** A syntax error as the tree parser reports it: where the text stops being JSON. */
interface TreeSyntaxError {
  offset: number;
  line: number;
  column: number;
}

function treeSyntaxError(error: unknown): TreeSyntaxError | undefined {
  const e = error as { offset?: unknown; line?: unknown; column?: unknown } | null;
  if (typeof e?.offset !== "number" || typeof e.line !== "number" || typeof e.column !== "number") {
    return undefined;
  }
  return { offset: e.offset, line: e.line, column: e.column };
}

const SCALAR_TOKENS: ReadonlySet<TokenType> = new Set(["String", "Number", "Boolean", "Null"]);

/**
 * Where the token sequence of a text stops being JSON, for texts too deep for the tree parser: the tokenizer's own
 * error, else the first token out of place (an explicit stack, no recursion), else the end of an unfinished text.
 */
function tokenSyntaxError(text: string): TreeSyntaxError | undefined {
  let tokens: ReturnType<typeof tokenize>;
  try {
    tokens = tokenize(text, { mode: "json" });
  } catch (error) {
    return treeSyntaxError(error);
  }
  const open: Array<"{" | "["> = [];
  type Expect = "value" | "value-or-close" | "key" | "key-or-close" | "colon" | "comma-or-close" | "end";
  let expect: Expect = "value";
  const after = (): Expect => (open.length === 0 ? "end" : "comma-or-close");
  for (const token of tokens) {
    const type = token.type;
    const top = open.at(-1);
    let next: Expect | undefined;
    if (
      (expect === "value-or-close" && type === "RBracket") ||
      (expect === "key-or-close" && type === "RBrace")
    ) {
      open.pop();
      next = after();
    } else if (expect === "value" || expect === "value-or-close") {
      if (type === "LBrace") {
        open.push("{");
        next = "key-or-close";
      } else if (type === "LBracket") {
        open.push("[");
        next = "value-or-close";
      } else if (SCALAR_TOKENS.has(type)) next = after();
    } else if ((expect === "key" || expect === "key-or-close") && type === "String") next = "colon";
    else if (expect === "colon" && type === "Colon") next = "value";
    else if (expect === "comma-or-close" && type === "Comma") next = top === "{" ? "key" : "value";
    else if (expect === "comma-or-close" && type === (top === "{" ? "RBrace" : "RBracket")) {
      open.pop();
      next = after();
    }
    if (next === undefined) {
      const { offset, line, column } = token.loc.start;
      return { offset, line, column };
    }
    expect = next;
  }
  if (expect !== "end") return { offset: text.length, ...positionAt(text, text.length) };
  return undefined;
}

/** The offset of a comma just before `offset` (whitespace between), when the token at `offset` closes a container. */
function trailingComma(text: string, offset: number): number | undefined {
  const closing = text[offset];
  if (closing !== "}" && closing !== "]") return undefined;
  let i = offset - 1;
  while (i >= 0 && /[ \t\n\r]/.test(text[i] as string)) i--;
  return text[i] === "," ? i : undefined;
}

/** The syntax failure of a text `JSON.parse` refused: its message, its position at the offending token, a hint. */
function syntaxFailure(text: string, error: unknown, deep: boolean): Extract<JsonSource, { ok: false }> {
  if (text.charCodeAt(0) === 0xfeff) {
    return {
      ok: false,
      message: "JSON text must not start with a UTF-8 byte-order mark (U+FEFF)",
      position: { line: 1, column: 1 },
      hint: BOM_HINT,
    };
  }
  const message = parserMessage(error);
  let found: TreeSyntaxError | undefined;
  if (deep) found = tokenSyntaxError(text);
  else {
    try {
      parseJsonTree(text, { mode: "json" });
    } catch (treeError) {
      found = treeSyntaxError(treeError);
    }
  }
  if (found !== undefined) {
    const comma = trailingComma(text, found.offset);
    if (comma !== undefined) {
      return { ok: false, message, position: positionAt(text, comma), hint: TRAILING_COMMA_HINT };
    }
    return { ok: false, message, position: { line: found.line, column: found.column } };
  }
  // The parser accepted what JSON.parse refused (a raw control character in a string): JSON.parse's own offset.
  const offset = v8Offset(error);
  return {
    ok: false,
    message,
    position: offset === undefined ? { line: 1, column: 1 } : positionAt(text, offset),
  };
}

/** The unescaped reference tokens of a JSON Pointer (`/a~1b/0` → `["a/b", "0"]`). */
function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/**
 * Finds pointers in a parsed tree by following their tokens from the root (no table of every pointer is built, so a
 * wide and deep document costs no memory beyond its tree). A member is placed at its key, an element at its value;
 * a repeated key resolves to its last occurrence, the one `JSON.parse` keeps. A pointer that leaves the tree gives
 * the position of the deepest node it reached.
 */
class TreePositions {
  private readonly keys = new WeakMap<ObjectNode, Map<string, MemberNode>>();

  constructor(private readonly root: ValueNode) {}

  positionOf(pointer: string): SourcePosition {
    let node: ValueNode = this.root;
    let at = this.root.loc.start;
    for (const token of pointerTokens(pointer)) {
      if (node.type === "Object") {
        const member = this.membersOf(node).get(token);
        if (member === undefined) break;
        at = member.loc.start;
        node = member.value;
      } else if (node.type === "Array") {
        const element = /^(0|[1-9][0-9]*)$/.test(token) ? node.elements[Number(token)] : undefined;
        if (element === undefined) break;
        at = element.loc.start;
        node = element.value;
      } else break;
    }
    return { line: at.line, column: at.column };
  }

  private membersOf(node: ObjectNode): Map<string, MemberNode> {
    let map = this.keys.get(node);
    if (map === undefined) {
      map = new Map();
      for (const member of node.members) {
        map.set(member.name.type === "String" ? member.name.value : member.name.name, member);
      }
      this.keys.set(node, map);
    }
    return map;
  }
}

/** True for the four whitespace characters of JSON. */
function isJsonSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * Finds one pointer of a text too deep for the tree parser by a single pass over its characters with an explicit
 * stack (valid JSON: `JSON.parse` accepted it), allocating nothing per value: a key is read only in a container on
 * the pointer's path. `matched[k]` is the offset of the node at the pointer's first `k` tokens, last occurrence
 * first: a repeated key found later resets what was matched below the earlier one, as `JSON.parse` keeps the later
 * value. Returns the position of the deepest offset matched.
 */
function scanPosition(text: string, pointer: string): SourcePosition {
  const target = pointerTokens(pointer);
  // One frame per open container: its depth, whether its path is the pointer's prefix, the next index, the key.
  const open: Array<{
    array: boolean;
    onPath: boolean;
    depth: number;
    index: number;
    key: string | undefined;
  }> = [];
  const matched: number[] = [];
  let expectKey = false;
  let memberOffset = -1;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isJsonSpace(c) || c === 58 /* : */) {
      i++;
      continue;
    }
    if (c === 125 /* } */ || c === 93 /* ] */) {
      open.pop();
      i++;
      continue;
    }
    const top = open.at(-1);
    if (c === 44 /* , */) {
      if (top !== undefined && !top.array) expectKey = true;
      i++;
      continue;
    }
    const start = i;
    if (c === 34 /* " */) {
      i++;
      for (;;) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      if (top !== undefined && !top.array && expectKey) {
        top.key =
          top.onPath && top.depth < target.length ? (JSON.parse(text.slice(start, i)) as string) : undefined;
        memberOffset = start;
        expectKey = false;
        continue;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      i++;
    } else {
      // A number or a literal: up to the next delimiter.
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === 44 || d === 125 || d === 93 || isJsonSpace(d)) break;
        i++;
      }
    }
    // A value: where it is, and whether it lies on the pointer's path.
    let onPath: boolean;
    let depth: number;
    if (top === undefined) {
      onPath = true;
      depth = 0;
      matched.length = 0;
      matched.push(start);
    } else {
      depth = top.depth + 1;
      const segment = top.array ? String(top.index++) : top.key;
      onPath = top.onPath && depth <= target.length && target[depth - 1] === segment;
      if (onPath) {
        matched.length = depth;
        matched.push(top.array ? start : memberOffset);
      }
    }
    if (c === 123 || c === 91) {
      open.push({ array: c === 91, onPath, depth, index: 0, key: undefined });
      expectKey = c === 123;
    }
  }
  return positionAt(text, matched.at(-1) ?? 0);
}

/**
 * Parses `text` as JSON (the value is exactly `JSON.parse`'s: duplicate keys keep the last value) and maps JSON
 * Pointers to source positions with the momoa tree parser, built only when a position is asked for. A syntax error
 * is reported with `JSON.parse`'s message (without its excerpt of the text) at the offending token: a trailing comma
 * at the comma itself, a byte-order mark at 1:1 with its own message and hint. Never throws; nesting deeper than
 * `MAX_JSON_SOURCE_DEPTH` is never given to the tree parser (its tokens are walked instead).
 */
export function parseJsonSource(text: string): JsonSource {
  let value: unknown;
  const deep = nestingExceeds(text, MAX_JSON_SOURCE_DEPTH);
  try {
    value = JSON.parse(text);
  } catch (error) {
    return syntaxFailure(text, error, deep);
  }
  let tree: TreePositions | null | undefined;
  return {
    ok: true,
    value,
    positionOf(pointer: string): SourcePosition {
      if (tree === undefined) {
        tree = null;
        if (!deep) {
          try {
            tree = new TreePositions(parseJsonTree(text, { mode: "json" }).body);
          } catch {
            // A text JSON.parse accepted and the tree parser did not: no positions (every pointer at 1:1).
          }
        }
      }
      if (tree !== null) return tree.positionOf(pointer);
      if (!deep) return { line: 1, column: 1 };
      return scanPosition(text, pointer);
    },
  };
}
