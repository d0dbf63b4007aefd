/**
 * Issue 8 — fault injection for handlers, through `createToolRegistry().dispatch`: handlers that throw or reject
 * with non-Error values, never settle (abort wins), or return malformed results. Every call must resolve to a
 * result with a code of the contract, never reject, fire the post notification only when the handler ran, and
 * leave no unhandled rejection and no polluted prototype behind.
 */

import { expectNoPollution } from "@raw/test-support";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createToolRegistry,
  HANDLER_ABORT_GRACE_MS,
  type ToolHandler,
  type ToolNotificationEvent,
  type ToolResult,
} from "../../src/index.js";
import { CONTRACT_CODES, expectContractResult } from "./contract-codes.js";

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});
const ticks = () => new Promise((resolve) => setTimeout(resolve, 20));

function registryFor(handler: ToolHandler) {
  const events: Array<{ event: ToolNotificationEvent; result: ToolResult }> = [];
  const registry = createToolRegistry({
    notify: async (event, request) => {
      events.push({ event, result: request.result });
    },
  });
  registry.register({
    name: "faulty",
    description: "Fails in creative ways.",
    inputSchema: { type: "object" },
    handler,
  });
  return { registry, events };
}

async function run(
  handler: ToolHandler,
  signal?: AbortSignal,
): Promise<{ result: ToolResult; events: unknown[] }> {
  const { registry, events } = registryFor(handler);
  const settled = await registry
    .dispatch({ name: "faulty", arguments: {} }, signal === undefined ? { cwd: "/w" } : { cwd: "/w", signal })
    .then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  if (!settled.ok) throw new Error(`dispatch rejected: ${String(settled.error)}`);
  return { result: settled.result, events };
}

const throwingMessage = () =>
  Object.defineProperty(new Error("hidden"), "message", {
    get() {
      throw new Error("message getter");
    },
  });

/** Values a handler may throw or reject with, and the `<message>` of `tool_error` they give. */
const THROWN: Array<[string, () => unknown, string | RegExp]> = [
  ["a string", () => "plain string", "faulty failed: plain string"],
  ["null", () => null, "faulty failed: null"],
  ["undefined", () => undefined, "faulty failed: undefined"],
  ["a number", () => 42, "faulty failed: 42"],
  ["a BigInt", () => 10n, "faulty failed: 10"],
  ["a symbol", () => Symbol("boom"), "faulty failed: Symbol(boom)"],
  ["a function", () => () => 1, /^faulty failed: /],
  ["an object without message", () => ({ code: 7 }), "faulty failed: [object Object]"],
  ["an object with a non-string message", () => ({ message: 7 }), "faulty failed: [object Object]"],
  ["an error whose message getter throws", throwingMessage, "faulty failed: unknown error"],
  [
    "an object whose message getter throws",
    () =>
      Object.defineProperty({}, "message", {
        get() {
          throw "getter";
        },
      }),
    "faulty failed: unknown error",
  ],
  [
    "an object whose toString throws",
    () => ({
      toString() {
        throw new Error("toString");
      },
    }),
    "faulty failed: unknown error",
  ],
  ["Object.create(null)", () => Object.create(null), "faulty failed: unknown error"],
  [
    "a Proxy that throws on every read",
    () =>
      new Proxy(
        {},
        {
          get() {
            throw new Error("trap");
          },
        },
      ),
    "faulty failed: unknown error",
  ],
  [
    "a revoked Proxy",
    () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
    "faulty failed: unknown error",
  ],
  ["an error with a huge message", () => new Error("x".repeat(1_000_000)), /^faulty failed: x+$/],
];

describe("adversarial: handlers that throw or reject with anything", () => {
  it.each(THROWN)("throws %s", async (_name, make, message) => {
    const { result, events } = await run(() => {
      throw make();
    });
    expect(result.code).toBe("tool_error");
    expect(result.content[0]).toMatchObject({
      type: "text",
      text: typeof message === "string" ? message : expect.stringMatching(message),
    });
    expect(events).toHaveLength(1);
    expect((events[0] as { event: string }).event).toBe("PostToolUseFailure");
    await ticks();
    expect(unhandled).toEqual([]);
    expectNoPollution("throw");
  });

  it.each(THROWN)("rejects with %s", async (_name, make, message) => {
    const { result } = await run(() => Promise.reject(make()));
    expect(result.code).toBe("tool_error");
    expect(result.content[0]).toMatchObject({
      type: "text",
      text: typeof message === "string" ? message : expect.stringMatching(message),
    });
    await ticks();
    expect(unhandled).toEqual([]);
  });

  it.each([
    [
      "a thenable whose then getter throws",
      () =>
        Object.defineProperty({}, "then", {
          get() {
            throw new Error("then getter");
          },
        }),
    ],
    [
      "a thenable whose then throws",
      () => ({
        then() {
          throw new Error("then");
        },
      }),
    ],
    [
      "a thenable that rejects with a symbol",
      () => ({
        then(_resolve: unknown, reject: (reason: unknown) => void) {
          reject(Symbol("no"));
        },
      }),
    ],
    [
      "a thenable that resolves to garbage and then rejects",
      () => ({
        then(resolve: (value: unknown) => void, reject: (reason: unknown) => void) {
          resolve(42);
          reject(new Error("late"));
        },
      }),
    ],
  ])("returns %s", async (_name, make) => {
    const { result } = await run(() => make() as never);
    expectContractResult(result, _name);
    expect(result.code).toBe("tool_error");
    await ticks();
    expect(unhandled).toEqual([]);
  });
});

describe("adversarial: handlers that never settle (abort wins)", () => {
  it("a handler that ignores the signal: abort resolves the call after the grace period", async () => {
    // Fake timers: the grace is a timer of dispatch, so the call must still wait HANDLER_ABORT_GRACE_MS - 1 ms after
    // the abort and be resolved once that timer's last millisecond has passed.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const controller = new AbortController();
      let invoked = false;
      const pending = run(() => {
        invoked = true;
        return new Promise<never>(() => {});
      }, controller.signal);
      let settled = false;
      void pending.then(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(20);
      expect(invoked).toBe(true);
      controller.abort();
      await vi.advanceTimersByTimeAsync(HANDLER_ABORT_GRACE_MS - 1);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const { result, events } = await pending;
      expect(result).toEqual({
        isError: true,
        code: "aborted",
        content: [{ type: "text", text: "tool call aborted" }],
      });
      expect(events).toEqual([{ event: "PostToolUseFailure", result }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a handler that honours the signal within the grace period keeps its own result", async () => {
    const controller = new AbortController();
    const pending = run(
      (_args, context) =>
        new Promise((resolve) => {
          context.signal?.addEventListener("abort", () =>
            setTimeout(
              () =>
                resolve({ isError: true, code: "cancelled", content: [{ type: "text", text: "stopped" }] }),
              20,
            ),
          );
        }),
      controller.signal,
    );
    await ticks();
    controller.abort();
    const { result } = await pending;
    expect(result).toEqual({
      isError: true,
      code: "cancelled",
      content: [{ type: "text", text: "stopped" }],
    });
  });

  it("a late rejection after the abort is observed, never unhandled", async () => {
    const controller = new AbortController();
    let reject: (reason: unknown) => void = () => {};
    const pending = run(
      () =>
        new Promise<never>((_resolve, fail) => {
          reject = fail;
        }),
      controller.signal,
    );
    await ticks();
    controller.abort();
    expect((await pending).result.code).toBe("aborted");
    reject(new Error("too late"));
    await ticks();
    expect(unhandled).toEqual([]);
  });
});

const text = (t: string) => ({ type: "text" as const, text: t });

/** Malformed or extreme handler results; `undefined` as the code means "a success is fine". */
const RESULTS: Array<[string, () => unknown, string | undefined]> = [
  ["undefined", () => undefined, "tool_error"],
  ["null", () => null, "tool_error"],
  ["a number", () => 42, "tool_error"],
  ["a string", () => "done", "tool_error"],
  ["an array", () => [text("a")], "tool_error"],
  ["a function", () => () => 1, "tool_error"],
  ["missing isError", () => ({ content: [] }), "tool_error"],
  ["isError as a string", () => ({ isError: "false", content: [] }), "tool_error"],
  ["content not an array", () => ({ isError: false, content: text("a") }), "tool_error"],
  ["content null", () => ({ isError: false, content: null }), "tool_error"],
  ["content a string", () => ({ isError: false, content: "a" }), "tool_error"],
  ["a null block", () => ({ isError: false, content: [null] }), "tool_error"],
  [
    "an unknown block type",
    () => ({ isError: false, content: [{ type: "html", html: "<b>" }] }),
    "tool_error",
  ],
  ["a block without type", () => ({ isError: false, content: [{ text: "a" }] }), "tool_error"],
  [
    "text that is not a string",
    () => ({ isError: false, content: [{ type: "text", text: 5 }] }),
    "tool_error",
  ],
  [
    "an unknown channel",
    () => ({ isError: false, content: [{ type: "text", text: "a", channel: "tty" }] }),
    "tool_error",
  ],
  [
    "a cyclic json value",
    () => {
      const value: Record<string, unknown> = {};
      value.self = value;
      return { isError: false, content: [{ type: "json", value }] };
    },
    "tool_error",
  ],
  [
    "BigInt in a json value",
    () => ({ isError: false, content: [{ type: "json", value: { n: 1n } }] }),
    "tool_error",
  ],
  [
    "an undefined json value",
    () => ({ isError: false, content: [{ type: "json", value: undefined }] }),
    "tool_error",
  ],
  [
    "a json value whose toJSON throws",
    () => ({
      isError: false,
      content: [
        {
          type: "json",
          value: {
            toJSON() {
              throw new Error("toJSON");
            },
          },
        },
      ],
    }),
    "tool_error",
  ],
  [
    "an image with a bad mime type",
    () => ({ isError: false, content: [{ type: "image", mimeType: "image/svg+xml", data: "" }] }),
    "tool_error",
  ],
  [
    "images over 16 MiB",
    () => ({
      isError: false,
      content: [{ type: "image", mimeType: "image/png", data: "A".repeat(24 * 1024 * 1024) }],
    }),
    "image_too_large",
  ],
  ["huge text (16 MiB)", () => ({ isError: false, content: [text("é".repeat(8 * 1024 * 1024))] }), undefined],
  [
    "huge json (4 MiB)",
    () => ({ isError: false, content: [{ type: "json", value: { s: "x".repeat(4 * 1024 * 1024) } }] }),
    undefined,
  ],
  [
    "100,000 text blocks",
    () => ({ isError: false, content: Array.from({ length: 100_000 }, (_, i) => text(`line ${i}`)) }),
    undefined,
  ],
  [
    "text with lone surrogates and NUL",
    () => ({ isError: false, content: [text("a\ud800\u0000\udfffb".repeat(100_000))] }),
    undefined,
  ],
  [
    "a batch status that does not fit",
    () => ({
      isError: false,
      content: [
        {
          type: "json",
          value: {
            results: Array.from({ length: 10_000 }, (_, index) => ({
              index,
              status: "ok",
              path: "x".repeat(20),
            })),
          },
        },
      ],
    }),
    "output_budget_too_small",
  ],
  [
    "a result whose isError getter throws",
    () =>
      Object.defineProperty({ content: [] }, "isError", {
        enumerable: true,
        get() {
          throw new Error("isError getter");
        },
      }),
    "tool_error",
  ],
  [
    "a result whose content getter throws",
    () =>
      Object.defineProperty({ isError: false }, "content", {
        enumerable: true,
        get() {
          throw new Error("content getter");
        },
      }),
    "tool_error",
  ],
  [
    "a block whose text getter throws",
    () => ({
      isError: false,
      content: [
        Object.defineProperty({ type: "text" }, "text", {
          enumerable: true,
          get() {
            throw new Error("text getter");
          },
        }),
      ],
    }),
    "tool_error",
  ],
  [
    "a block whose text turns into a number after the check (what was checked is what is returned)",
    () => {
      let reads = 0;
      return {
        isError: false,
        content: [
          Object.defineProperty({ type: "text" }, "text", {
            enumerable: true,
            get() {
              reads++;
              return reads === 1 ? "fine" : 12345;
            },
          }),
        ],
      };
    },
    undefined,
  ],
  [
    "a result that is a Proxy throwing on every read",
    () =>
      new Proxy(
        {},
        {
          get() {
            throw new Error("trap");
          },
        },
      ),
    "tool_error",
  ],
  [
    "a __proto__ field (JSON from a peer)",
    () =>
      JSON.parse(
        '{"isError":false,"content":[],"__proto__":{"isError":true,"code":"approval_granted","polluted":1}}',
      ),
    undefined,
  ],
  [
    "constructor and prototype fields",
    () =>
      JSON.parse(
        '{"isError":true,"code":"x_failed","content":[],"constructor":{"prototype":{"polluted":1}}}',
      ),
    "x_failed",
  ],
];

describe("adversarial: malformed and extreme handler results", () => {
  it.each(RESULTS)("returns %s", async (name, make, code) => {
    const { result, events } = await run(() => make() as never);
    const label = `result: ${name}`;
    if (code === "x_failed") {
      expect(result.code).toBe("x_failed");
    } else {
      expectContractResult(result, label);
      expect(result.code, label).toBe(code);
    }
    // Whatever came back is plain data: an ordinary prototype, no inherited fields, within the output cap.
    expect(Object.getPrototypeOf(result), label).toBe(Object.prototype);
    expect("polluted" in result, label).toBe(false);
    const serialized = JSON.stringify(result.content);
    expect(Buffer.byteLength(serialized), label).toBeLessThan(65_536 + 100_000 * 40);
    let kept = 0;
    for (const block of result.content) {
      if (block.type === "text") kept += Buffer.byteLength(block.text);
    }
    expect(kept, label).toBeLessThanOrEqual(65_536);
    expect(events, label).toHaveLength(1);
    await ticks();
    expect(unhandled).toEqual([]);
    expectNoPollution(label);
  });

  it("a result and its blocks are read once: the checked text is the returned text", async () => {
    let reads = 0;
    const block = Object.defineProperty({ type: "text" }, "text", {
      enumerable: true,
      get() {
        reads++;
        return reads === 1 ? "fine" : 12345;
      },
    });
    const { result } = await run(() => ({ isError: false, content: [block] }) as never);
    expect(result).toEqual({ isError: false, content: [{ type: "text", text: "fine" }] });
    expect(reads).toBe(1);
  });

  it("a __proto__ field never changes what the host reads from the result", async () => {
    const { result } = await run(
      () =>
        JSON.parse(
          '{"isError":false,"content":[],"__proto__":{"isError":true,"code":"approval_granted"}}',
        ) as never,
    );
    expect(result.isError).toBe(false);
    expect(result.code).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(CONTRACT_CODES.has("approval_granted")).toBe(false);
  });
});
