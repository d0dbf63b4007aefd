import type { ValidateFunction } from "ajv";

/** How many compiled object schemas are kept for reuse (by their text), least recently used first out. */
export const MAX_COMPILED_SCHEMAS = 256;

/** How many characters of schema text are worth a cache key (a larger schema is compiled every time). */
export const MAX_CACHED_SCHEMA_CHARS = 64 * 1024;

const compiled = new Map<string, ValidateFunction>();

function isDataObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The canonical text of a schema made only of JSON data (plain objects and arrays of data properties, strings,
 * finite numbers, booleans, null), or undefined for anything else (a class instance, a function, a symbol key, an
 * accessor, `undefined`, a non-finite number, a cycle, a text past `MAX_CACHED_SCHEMA_CHARS`): only then do two
 * schemas with the same text compile to the same validator. Reads own data properties only: no getter runs.
 */
export function schemaCacheText(schema: unknown): string | undefined {
  const parts: string[] = [];
  let length = 0;
  const stack = new Set<object>();
  const push = (text: string): boolean => {
    parts.push(text);
    length += text.length;
    return length <= MAX_CACHED_SCHEMA_CHARS;
  };
  const visit = (value: unknown): boolean => {
    if (value === null) return push("null");
    switch (typeof value) {
      case "string":
        return push(JSON.stringify(value));
      case "boolean":
        return push(value ? "true" : "false");
      case "number":
        return Number.isFinite(value) && push(JSON.stringify(value));
      case "object":
        break;
      default:
        return false;
    }
    const node = value as object;
    if (stack.has(node)) return false;
    const array = Array.isArray(node);
    if (!array && !isDataObject(node)) return false;
    if (Object.getOwnPropertySymbols(node).length > 0) return false;
    stack.add(node);
    const names = Object.getOwnPropertyNames(node);
    if (!push(array ? "[" : "{")) return false;
    let first = true;
    for (const name of names) {
      if (array && name === "length") continue;
      const descriptor = Object.getOwnPropertyDescriptor(node, name);
      if (descriptor === undefined || !("value" in descriptor) || !descriptor.enumerable) return false;
      if (!first && !push(",")) return false;
      first = false;
      if (!array && !push(`${JSON.stringify(name)}:`)) return false;
      if (!visit(descriptor.value)) return false;
    }
    stack.delete(node);
    return push(array ? "]" : "}");
  };
  try {
    return visit(schema) ? parts.join("") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The validator compiled for `key` (engine settings and schema text), compiling it with `compile` the first time.
 * Kept for the `MAX_COMPILED_SCHEMAS` most recently used keys; a compile that throws is not kept.
 */
export function cachedCompile(key: string, compile: () => ValidateFunction): ValidateFunction {
  const hit = compiled.get(key);
  if (hit !== undefined) {
    compiled.delete(key);
    compiled.set(key, hit);
    return hit;
  }
  const fn = compile();
  compiled.set(key, fn);
  if (compiled.size > MAX_COMPILED_SCHEMAS) {
    const oldest = compiled.keys().next().value;
    if (oldest !== undefined) compiled.delete(oldest);
  }
  return fn;
}
