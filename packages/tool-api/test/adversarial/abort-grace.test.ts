/**
 * Issue 11, surface 5 — amendment A5: the abort grace is the setting `handlerAbortGraceMs` (registry default 1500,
 * per-call override, `0` returns at once). A handler that ignores its signal holds the call for the grace only; one
 * that settles within it keeps its own result. Timers are faked, so the grace is measured exactly, not by a clock.
 */

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createToolRegistry,
  type DispatchContext,
  HANDLER_ABORT_GRACE_MS,
  type ToolHandler,
  type ToolRegistryOptions,
  type ToolResult,
} from "../../src/index.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const ABORTED = { isError: true, code: "aborted", content: [{ type: "text", text: "tool call aborted" }] };

const never: ToolHandler = () => new Promise<never>(() => {});

/** Starts a call of a handler, aborts it once the handler runs, and reports whether the call has resolved. */
async function startAborted(
  handler: ToolHandler,
  options: ToolRegistryOptions = {},
  context: Partial<DispatchContext> = {},
) {
  const registry = createToolRegistry(options);
  let invoked = false;
  registry.register({
    name: "stubborn",
    description: "Ignores its signal.",
    inputSchema: { type: "object" },
    handler: (args, ctx) => {
      invoked = true;
      return handler(args, ctx);
    },
  });
  const controller = new AbortController();
  let settled: ToolResult | undefined;
  const pending = registry
    .dispatch({ name: "stubborn", arguments: {} }, { cwd: "/", signal: controller.signal, ...context })
    .then((result) => {
      settled = result;
      return result;
    });
  await vi.advanceTimersByTimeAsync(0);
  expect(invoked).toBe(true);
  controller.abort();
  await vi.advanceTimersByTimeAsync(0);
  return { pending, settled: () => settled };
}

describe("A5: handlerAbortGraceMs", () => {
  it("defaults to HANDLER_ABORT_GRACE_MS (1500 ms)", async () => {
    expect(HANDLER_ABORT_GRACE_MS).toBe(1500);
    const call = await startAborted(never);
    await vi.advanceTimersByTimeAsync(1499);
    expect(call.settled()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await call.pending).toEqual(ABORTED);
  });

  it("is a registry setting", async () => {
    const call = await startAborted(never, { handlerAbortGraceMs: 200 });
    await vi.advanceTimersByTimeAsync(199);
    expect(call.settled()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await call.pending).toEqual(ABORTED);
  });

  it("a call's context overrides the registry setting (longer and shorter)", async () => {
    const shorter = await startAborted(never, { handlerAbortGraceMs: 5000 }, { handlerAbortGraceMs: 30 });
    await vi.advanceTimersByTimeAsync(30);
    expect(shorter.settled()).toEqual(ABORTED);

    const longer = await startAborted(never, { handlerAbortGraceMs: 10 }, { handlerAbortGraceMs: 3000 });
    await vi.advanceTimersByTimeAsync(2999);
    expect(longer.settled()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await longer.pending).toEqual(ABORTED);
  });

  it("0 returns at once: no timer has to fire", async () => {
    const fromRegistry = await startAborted(never, { handlerAbortGraceMs: 0 });
    expect(fromRegistry.settled()).toEqual(ABORTED);
    const fromCall = await startAborted(never, {}, { handlerAbortGraceMs: 0 });
    expect(fromCall.settled()).toEqual(ABORTED);
  });

  it("a handler that settles within the grace keeps its own result", async () => {
    const polite: ToolHandler = (_args, context) =>
      new Promise((resolve) => {
        context.signal?.addEventListener("abort", () =>
          setTimeout(() => resolve({ isError: true, code: "cancelled", content: [] }), 90),
        );
      });
    const call = await startAborted(polite, { handlerAbortGraceMs: 100 });
    await vi.advanceTimersByTimeAsync(90);
    expect(await call.pending).toEqual({ isError: true, code: "cancelled", content: [] });
  });

  it("an invalid setting (negative, NaN, a string) falls back to the default", async () => {
    for (const bad of [-1, Number.NaN, "0"]) {
      const call = await startAborted(never, {}, { handlerAbortGraceMs: bad as number });
      await vi.advanceTimersByTimeAsync(1499);
      expect(call.settled()).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(await call.pending).toEqual(ABORTED);
    }
  });
});
