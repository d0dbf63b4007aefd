import { isPlainObject } from "./plain-object.js";

/** Escapes one JSON Pointer (RFC 6901) reference token: `~` becomes `~0`, `/` becomes `~1`. */
export function escapePointerToken(token: string | number): string {
  const text = String(token);
  // Most tokens need no escape: skip the two replacements (this runs once per key of a walked schema).
  if (!text.includes("~") && !text.includes("/")) return text;
  return text.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Decodes one JSON Pointer reference token: `~1` becomes `/`, then `~0` becomes `~`. */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Builds a JSON Pointer from reference tokens: `pointer("a", 0, "b/c")` is `/a/0/b~1c`; no tokens give `""`. */
export function pointer(...tokens: Array<string | number>): string {
  let out = "";
  for (const token of tokens) out += `/${escapePointerToken(token)}`;
  return out;
}

/** The value reached from `root` by decoded reference `tokens` (own properties of plain objects, array indexes). */
export function valueAtPointer(root: unknown, tokens: readonly string[]): unknown {
  let node = root;
  for (const token of tokens) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isPlainObject(node)) node = Object.hasOwn(node, token) ? node[token] : undefined;
    else return undefined;
  }
  return node;
}

/** Splits a JSON Pointer into decoded reference tokens (`""` gives `[]`); returns undefined for a malformed pointer. */
export function parsePointer(value: string): string[] | undefined {
  if (value === "") return [];
  if (!value.startsWith("/")) return undefined;
  return value.slice(1).split("/").map(unescapePointerToken);
}
