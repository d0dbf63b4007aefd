// TypeBox is imported for its types only: `defineTool` is the identity at run time, and `typebox` is not loaded.
import type { Static, TSchema } from "typebox";
import type { ToolRegistration } from "./types.js";

/**
 * What `defineTool` takes: a registration whose `inputSchema` is a TypeBox schema (a `Type.Object(...)`, or a plain
 * JSON Schema written `as const`, which TypeBox's `Static` reads too). `handler`, `validateArgs` and
 * `describeEffects` receive `ToolInput<S>` (`Static<S>`, read-only); `name` and `description` may come later (a
 * folder tool takes them from its `tool.json`).
 */
export type DefineToolOptions<S extends TSchema> = Omit<
  ToolRegistration<ToolInput<S>>,
  "inputSchema" | "name" | "description"
> & {
  /** Object schema of the arguments (tool-api.md §3); the type the handler receives is inferred from it. */
  readonly inputSchema: S;
  /** Model-facing name; required by `register`, absent for a folder tool (its `tool.json` names it). */
  readonly name?: string | undefined;
  /** Sent to the model; required by `register`, absent for a folder tool. */
  readonly description?: string | undefined;
};

/**
 * What `defineTool` returns: the same registration, typed over the inferred arguments. It is a
 * `ToolRegistration<Args>` once it has a `name` and a `description` (spread it: `register({ ...tool, name,
 * description })`), and its `handler`, `validateArgs` and `describeEffects` are what a folder tool's entry exports.
 */
export type DefinedTool<Args> = Omit<ToolRegistration<Args>, "name" | "description"> & {
  readonly name?: string | undefined;
  readonly description?: string | undefined;
};

/**
 * The argument type an input schema guarantees: `Static<S>` of TypeBox (for a `Type.Object(...)` or a plain JSON
 * Schema written `as const`). What `defineTool` infers, for helpers written before the tool is defined.
 */
export type ToolInput<S extends TSchema> = FrozenJson<Static<S>>;

/**
 * A JSON value as handlers receive it: dispatch hands them a deep-frozen snapshot (tool-api.md §7.2 step 5), so
 * every array and object of the inferred type is read-only.
 */
export type FrozenJson<T> = T extends readonly (infer Item)[]
  ? readonly FrozenJson<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: FrozenJson<T[K]> }
    : T;

/** The argument type a tool defined with `defineTool` receives. */
export type ToolArgs<T> = T extends DefinedTool<infer Args> ? Args : never;

/**
 * Typed tool authoring (tool-api.md §4): infers the argument type of `handler`, `validateArgs` and
 * `describeEffects` from `inputSchema` (`Static<typeof inputSchema>`), so they need not re-check what the schema
 * guarantees: dispatch runs the schema first (§7.2 step 3) and hands them the frozen snapshot that passed it.
 * `validateArgs` keeps only the checks a JSON Schema cannot express. The result keeps the definition's own type
 * (a `validateArgs` that was given is not optional) and is a `ToolRegistration` when `name` and `description` were
 * given. Returns the definition itself (no copy, no check: `register` validates a registration, `loadToolFolder` a
 * folder's exports).
 */
export function defineTool<const S extends TSchema, D extends DefineToolOptions<S>>(
  definition: D & DefineToolOptions<S>,
): D & DefinedTool<ToolInput<S>> {
  // A TypeBox schema is a plain JSON Schema object at run time; only its static type differs.
  return definition as D & DefinedTool<ToolInput<S>>;
}
