import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { thrownMessage } from "@raw/schema";

/** Default time one foreign schema may take to compile in the checking worker (ms). */
export const SCHEMA_COMPILE_BUDGET_MS = 250;

/** Code of a schema that did not compile within its budget (or could not be checked). */
export const SCHEMA_BUDGET_EXCEEDED = "schema_budget_exceeded";

/** Options of `createSchemaBudgetChecker`. */
export interface SchemaBudgetOptions {
  /** The code a schema past its budget gets (default `schema_budget_exceeded`; `@raw/mcp` passes its own). */
  readonly code?: string | undefined;
}

/** What a schema check found: it compiles within the budget, or the issue that makes its tool unavailable. */
export type SchemaCheck = { ok: true } | { ok: false; code: string; message: string };

/** Checks foreign schemas off the event loop, each under a time budget. */
export interface SchemaBudgetChecker {
  /** Compiles `schema` (foreign profile) in a worker thread; `budget` exceeded or a worker failure is `ok: false`. */
  check(schema: unknown, name: string): Promise<SchemaCheck>;
  /** Ends the worker. Idempotent. */
  close(): Promise<void>;
}

/** How long a worker may take to start and load `@raw/schema` (ms); this is not part of any schema's budget. */
export const SCHEMA_WORKER_START_TIMEOUT_MS = 15_000;

/** Heap of one checking worker (MiB): a compile that needs more fails its tool instead of growing the host. */
export const SCHEMA_WORKER_HEAP_MB = 256;

/** The worker: loads `@raw/schema` (CommonJS) from the path it is given and compiles what it is sent. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { safeCompileObjectSchema } = require(workerData.schemaModule);
parentPort.on("message", (message) => {
  const result = safeCompileObjectSchema(message.schema, { name: message.name, profile: "foreign" });
  const issue = result.ok ? undefined : result.issues[0];
  parentPort.postMessage(result.ok ? { ok: true } : { ok: false, code: String(issue && issue.code), message: String(issue && issue.message) });
});
// Warm up outside any budget: the dialects' meta-schema validators and Ajv's own code are built on first use.
for (const $schema of [undefined, "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"]) {
  const warm = { type: "object", properties: { a: { type: "string", format: "uri", pattern: "^a" }, b: { type: ["integer", "null"], minimum: 0 } }, required: ["a"] };
  safeCompileObjectSchema($schema === undefined ? warm : { $schema, ...warm }, { name: "warm-up", profile: "foreign" });
}
parentPort.postMessage({ ready: true });
`;

let schemaModule: string | undefined;

/** The file `require("@raw/schema")` loads, resolved from this module (the same install the registry uses). */
function schemaModulePath(): string {
  schemaModule ??= createRequire(import.meta.url).resolve("@raw/schema");
  return schemaModule;
}

interface Running {
  worker: Worker;
  ready: Promise<void>;
  pending: ((answer: SchemaCheck | { ready: true }) => void) | undefined;
}

/**
 * A checker that compiles each schema (foreign profile) in a worker thread and waits at most `budgetMs` for it
 * (`SCHEMA_COMPILE_BUDGET_MS` by default): what every surface uses for schemas a peer sends (amendment A10, schema
 * compile time bounded). A compile past the budget terminates the worker (the next check starts a fresh one) and
 * answers `options.code` (`schema_budget_exceeded`); a schema that does not compile answers the issue
 * `@raw/schema` reports (`schema_remote_ref`, `schema_unsupported`, ...). Checks run one at a time.
 */
export function createSchemaBudgetChecker(
  budgetMs = SCHEMA_COMPILE_BUDGET_MS,
  options: SchemaBudgetOptions = {},
): SchemaBudgetChecker {
  const exceeded = options.code ?? SCHEMA_BUDGET_EXCEEDED;
  let running: Running | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const stop = async (): Promise<void> => {
    const current = running;
    running = undefined;
    if (current !== undefined) await current.worker.terminate().catch(() => undefined);
  };

  const start = (): Running => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { schemaModule: schemaModulePath() },
      resourceLimits: { maxOldGenerationSizeMb: SCHEMA_WORKER_HEAP_MB },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    const current: Running = { worker, ready: Promise.resolve(), pending: undefined };
    const fail = (message: string) => {
      const pending = current.pending;
      current.pending = undefined;
      pending?.({ ok: false, code: exceeded, message });
      if (running === current) running = undefined;
    };
    worker.on("message", (answer: SchemaCheck | { ready: true }) => {
      const pending = current.pending;
      current.pending = undefined;
      pending?.(answer);
    });
    worker.on("error", (error) => fail(`the schema check failed: ${thrownMessage(error)}`));
    worker.on("exit", () => fail("the schema check ended early"));
    current.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("the schema check did not start")),
        SCHEMA_WORKER_START_TIMEOUT_MS,
      );
      current.pending = (answer) => {
        clearTimeout(timer);
        if ("ready" in answer) resolve();
        else reject(new Error(answer.ok ? "unexpected answer" : answer.message));
      };
    });
    return current;
  };

  const checkNow = async (schema: unknown, name: string): Promise<SchemaCheck> => {
    let current: Running;
    try {
      running ??= start();
      current = running;
      await current.ready;
    } catch (error) {
      await stop();
      return {
        ok: false,
        code: exceeded,
        message: `${name} could not be checked: ${thrownMessage(error)}`,
      };
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answer = await new Promise<SchemaCheck>((resolve) => {
      current.pending = (got) => resolve("ready" in got ? { ok: true } : got);
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            code: exceeded,
            message: `${name} did not compile within ${budgetMs} ms`,
          }),
        budgetMs,
      );
      try {
        current.worker.postMessage({ schema, name });
      } catch (error) {
        resolve({
          ok: false,
          code: exceeded,
          message: `${name} could not be checked: ${thrownMessage(error)}`,
        });
      }
    });
    clearTimeout(timer);
    if (current.pending !== undefined) {
      // Still compiling past its budget (or the worker is gone): end it; the next check starts a fresh one.
      current.pending = undefined;
      if (running === current) await stop();
    }
    return answer;
  };

  return {
    check(schema, name) {
      const next = queue.then(() => checkNow(schema, name));
      queue = next.catch(() => undefined);
      return next;
    },
    close: stop,
  };
}
