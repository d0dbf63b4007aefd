import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import {
  createInteractionService,
  createMemoryInteractionStore,
  type InteractionAdapter,
  type InteractionEvent,
  type InteractionRecord,
  type InteractionRequestInput,
  type InteractionStore,
} from "../src/host-entry.js";
import type { PanelDeclaration } from "../src/types.js";
import { FakeClock } from "./fake-clock.js";

const DECLARATION: PanelDeclaration = {
  id: "questions",
  title: "Questions",
  icon: "file-text",
  open: "never",
  context: "none",
  placement: "sidebar",
  acp_plan: false,
  actions: [
    { id: "submit", label: "Send", scope: "block", kind: "response", response: "submit", blocks: ["form"] },
    { id: "cancel", label: "Cancel", scope: "block", kind: "response", response: "cancel" },
  ],
};

const DOCUMENT = {
  title: "Deploy",
  blocks: [
    {
      id: "form",
      kind: "form",
      fields: [{ id: "notes", label: "Notes", kind: "text" }],
    },
  ],
};

function input(overrides: Partial<InteractionRequestInput> = {}): InteractionRequestInput {
  return {
    owner: "tools/ask",
    declaration: DECLARATION,
    panel: "questions",
    document: DOCUMENT,
    maxOutputBytes: 65_536,
    ...overrides,
  };
}

/** The memory store behind real promises: every method answers one macrotask later, like a database driver. */
function asyncStore(): InteractionStore {
  const inner = createMemoryInteractionStore();
  const later = <T>(run: () => T) =>
    new Promise<T>((resolve, reject) =>
      setTimeout(() => {
        try {
          resolve(run());
        } catch (error) {
          reject(error);
        }
      }, 1),
    );
  return {
    create: (record) => later(() => inner.create(record)),
    get: (sessionId, requestId) => later(() => inner.get(sessionId, requestId)),
    settle: (sessionId, requestId, settle) => later(() => inner.settle(sessionId, requestId, settle)),
    interruptPending: (owner) => later(() => inner.interruptPending(owner)),
    watch: (sessionId, requestId, listener) => later(() => inner.watch(sessionId, requestId, listener)),
  };
}

const NEVER = new Promise<never>(() => {});

/** Resolves to the outcome of `promise`, or to `"hung"` after `ms` of real time. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | { error: string } | "hung"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => {
    timer = setTimeout(() => resolve("hung"), ms);
  });
  try {
    return await Promise.race([
      promise.catch((error: unknown) => ({ error: isContractError(error) ? error.code : String(error) })),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Tracks whether `promise` has settled (either way) without handling its outcome for the caller. */
function settledFlag(promise: Promise<unknown>): { settled: boolean } {
  const flag = { settled: false };
  promise.then(
    () => {
      flag.settled = true;
    },
    () => {
      flag.settled = true;
    },
  );
  return flag;
}

/** The last request `service` published. */
function watched(service: { subscribe(observer: (event: InteractionEvent) => void): () => void }): {
  published: InteractionRecord | undefined;
} {
  const seen: { published: InteractionRecord | undefined } = { published: undefined };
  service.subscribe((event) => {
    if (event.type === "published") seen.published = event.request;
  });
  return seen;
}

/** Real macrotask turns, enough for the asynchronous store (one macrotask per operation) to answer a few times. */
async function realTurns(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Resolves once `check` holds, polling on real timers (bounded by the test's own timeout). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 2));
}

function answer(record: InteractionRecord, key = "k1") {
  return {
    requestId: record.identity.requestId,
    expectedRevision: 1,
    idempotencyKey: key,
    response: "submit" as const,
    answers: { notes: "ok" },
  };
}

describe("an asynchronous store", () => {
  it("answers through the adapter once, never calling it again in a microtask loop", async () => {
    let calls = 0;
    const adapter: InteractionAdapter = (record) => {
      calls++;
      // Bounded so the old endless loop ends and the test can report it instead of hanging the runner.
      if (calls > 50) return NEVER;
      return answer(record);
    };
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    try {
      const service = createInteractionService({ adapter, store: asyncStore() });
      const outcome = await within(service.request(input({ timeout_ms: 1_000 })), 3_000);
      expect(outcome).toEqual({ status: "answered", answers: { notes: "ok" } });
      expect(calls).toBe(1);
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(ticker);
    }
  });

  it("expires at the deadline while other timers of the host keep running", async () => {
    // The deadline runs on the service's clock (a fake one here); the store and the host's ticker on real timers.
    const clock = new FakeClock();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      const service = createInteractionService({ interactive: true, store: asyncStore(), clock });
      const watch = watched(service);
      const outcome = service.request(input({ timeout_ms: 150 }));
      const ended = settledFlag(outcome);
      await until(() => watch.published !== undefined && ticks > 3);
      expect(ended.settled).toBe(false);
      clock.advance(149);
      await realTurns();
      expect(ended.settled).toBe(false);
      clock.advance(1);
      expect(await within(outcome, 3_000)).toEqual({ status: "expired" });
    } finally {
      clearInterval(ticker);
    }
  });

  it("settles a submission through the async submit and get, and replays it idempotently", async () => {
    const store = asyncStore();
    const service = createInteractionService({ interactive: true, store, sessionId: "s1" });
    let published: InteractionRecord | undefined;
    service.subscribe((event) => {
      if (event.type === "published") published = event.request;
    });
    const pending = service.request(input({ timeout_ms: 5_000 }));
    while (published === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
    const ack = await service.submit(answer(published));
    expect(ack).toMatchObject({ state: "answered", revision: 2 });
    expect(await service.submit(answer(published))).toEqual(ack);
    await expect(pending).resolves.toEqual({ status: "answered", answers: { notes: "ok" } });
    expect((await service.get(published.identity.requestId))?.state).toBe("answered");
    await expect(service.submit({ ...answer(published), requestId: "nope" })).rejects.toMatchObject({
      code: "interaction_not_found",
    });
  });
});

describe("a failing store ends the request with a coded error", () => {
  it("a store whose create hangs: interaction_store_timeout at the deadline", async () => {
    const clock = new FakeClock();
    const store: InteractionStore = { ...asyncStore(), create: () => NEVER };
    const service = createInteractionService({ interactive: true, store, storeTimeoutMs: 60_000, clock });
    const outcome = service.request(input({ timeout_ms: 200 }));
    const ended = settledFlag(outcome);
    clock.advance(199);
    await realTurns();
    expect(ended.settled).toBe(false);
    clock.advance(1);
    expect(await within(outcome, 3_000)).toEqual({ error: "interaction_store_timeout" });
  });

  it("a store whose settle hangs: interaction_store_timeout one store timeout after the deadline", async () => {
    const clock = new FakeClock();
    const store: InteractionStore = { ...asyncStore(), settle: () => NEVER };
    const service = createInteractionService({ interactive: true, store, storeTimeoutMs: 200, clock });
    const watch = watched(service);
    const outcome = service.request(input({ timeout_ms: 100 }));
    const ended = settledFlag(outcome);
    await until(() => watch.published !== undefined);
    clock.advance(100); // the deadline: the service settles the request as expired, and the store never answers
    await realTurns();
    expect(ended.settled).toBe(false);
    clock.advance(199);
    await realTurns();
    expect(ended.settled).toBe(false);
    clock.advance(1);
    expect(await within(outcome, 3_000)).toEqual({ error: "interaction_store_timeout" });
  });

  it("a store that throws: interaction_store_error without the store's own text", async () => {
    const store: InteractionStore = {
      ...asyncStore(),
      create: async () => {
        throw new Error("SQLITE_FULL: /secret/path");
      },
    };
    const service = createInteractionService({ interactive: true, store });
    const request = service.request(input({ timeout_ms: 1_000 }));
    await expect(request).rejects.toMatchObject({
      code: "interaction_store_error",
      message: "interaction_store_error: store create failed",
    });
    await expect(request).rejects.not.toMatchObject({ message: expect.stringContaining("secret") });
  });

  it("a store whose settle rejects while the adapter answers: the adapter is not called again", async () => {
    let calls = 0;
    const store: InteractionStore = {
      ...asyncStore(),
      settle: async () => {
        throw new Error("connection reset");
      },
    };
    const service = createInteractionService({
      adapter: (record) => {
        calls++;
        return calls > 50 ? NEVER : answer(record);
      },
      store,
    });
    const outcome = await within(service.request(input({ timeout_ms: 1_000 })), 3_000);
    expect(outcome).toEqual({ error: "interaction_store_error" });
    expect(calls).toBe(1);
  });

  it("an adapter that keeps returning invalid answers never starves the event loop", async () => {
    let calls = 0;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    try {
      const service = createInteractionService({
        adapter: (record) => {
          calls++;
          return { ...answer(record, `k${calls}`), answers: { unknown: "x" } };
        },
      });
      const outcome = await within(service.request(input({ timeout_ms: 200 })), 3_000);
      expect(outcome).toEqual({ status: "expired" });
      expect(ticks).toBeGreaterThan(3);
      expect(calls).toBeGreaterThan(1);
    } finally {
      clearInterval(ticker);
    }
  });
});
