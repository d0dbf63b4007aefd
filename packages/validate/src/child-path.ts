import { createRequire } from "node:module";

/** The global key of the child script a bundle that inlines this package set (`useChildScript`). */
const SCRIPT = Symbol.for("@raw/validate.child-script");
const state = globalThis as unknown as Record<typeof SCRIPT, string | undefined>;

/**
 * Sets the child script to use in this process: a bundle that inlines `@raw/validate` (the `raw` binary) ships its
 * own copy of `dist/child.cjs` and names it here, so the package need not be installed beside it.
 */
export function useChildScript(path: string): void {
  state[SCRIPT] = path;
}

/**
 * The child script that imports tool entries: the one `useChildScript` set, else `dist/child.cjs` of
 * `@raw/validate` (a small CommonJS script of its own, no `@raw/*` code, loaded synchronously so that it listens
 * before the first message is read), resolved through the package's own name.
 */
export function childScriptPath(): string {
  const set = state[SCRIPT];
  if (set !== undefined) return set;
  const from = typeof __filename === "string" ? __filename : import.meta.url;
  const resolved = createRequire(from).resolve("@raw/validate/child");
  state[SCRIPT] = resolved;
  return resolved;
}
