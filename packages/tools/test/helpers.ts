import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileObjectSchema } from "@raw/schema";
import type { HandlerResult, ToolHandlerContext, ToolInput } from "@raw/tool-api";
import { afterEach, expect } from "vitest";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory (its real path), removed after the test. */
export function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "raw-tools-")));
  made.push(dir);
  return dir;
}

/** A handler context for `cwd` with the default output budget. */
export function contextFor(cwd: string, extra: Partial<ToolHandlerContext> = {}): ToolHandlerContext {
  return { cwd, maxOutputBytes: 65_536, ...extra };
}

/** The rows of an indexed batch result. */
export function rowsOf(result: HandlerResult): Array<Record<string, unknown>> {
  const block = result.content[0] as { type: string; value: { results: Array<Record<string, unknown>> } };
  if (block?.type !== "json") throw new Error(`not a json result: ${JSON.stringify(result)}`);
  return block.value.results;
}

/** The text of a one-text-block result. */
export function textOf(result: HandlerResult): string {
  const block = result.content[0] as { type: string; text: string };
  return block.text;
}

/**
 * An abort signal whose `aborted` is decided per read: `decide(n)` gets the 1-based read count. Lets a test act
 * at a precise point of a handler (between preflight and application, between two changes).
 */
export function scriptedSignal(decide: (read: number) => boolean): AbortSignal {
  let reads = 0;
  return {
    get aborted() {
      reads++;
      return decide(reads);
    },
    addEventListener() {},
    removeEventListener() {},
  } as unknown as AbortSignal;
}

/**
 * The JSON Pointers of the issues `inputSchema` reports for `args` (empty when the schema accepts them): what
 * dispatch checks at step 3, before `validateArgs` or the handler ever see the arguments.
 */
export function schemaRejects(inputSchema: Record<string, unknown>, args: unknown): string[] {
  return compileObjectSchema(inputSchema, { name: "test" })
    .validate(args)
    .map((issue) => issue.path ?? "");
}

/**
 * `args` once `inputSchema` accepted them (the test fails otherwise), typed as a tool defined with that schema
 * receives them: what dispatch hands `validateArgs` after step 3.
 */
export function schemaChecked<const S extends Record<string, unknown>>(
  inputSchema: S,
  args: unknown,
): ToolInput<S> {
  expect(schemaRejects(inputSchema, args)).toEqual([]);
  return args as ToolInput<S>;
}
