import { isContractError } from "@raw/schema";
import { afterEach, describe, expect, it } from "vitest";
import type { FormField } from "./forms.js";
import { prepareForm } from "./forms.js";
import type { Clock } from "./host-clock.js";
import { createInteractionService } from "./interaction.js";
import type { InteractionRecord, InteractionSettle, InteractionStore } from "./interaction-store.js";
import type { MaybePromise } from "./maybe-async.js";
import type { PanelDeclaration, PanelDocument } from "./types.js";

/** A store under test; `close` (when present) is called after each case. */
export type ConformanceStore = InteractionStore & { close?(): MaybePromise<void> };

/** What the suite hands a store factory for one case. */
export interface InteractionStoreContext {
  /**
   * The case's clock: real timers, and a wall clock (`now()`) that the clock-jump cases set forward and back. A store
   * that reads the current time (expiry sweeps, `settled_at`) should take it from `clock.now()` so those cases
   * exercise it; the suite's sweeping stores should sweep often (every 50 ms or so).
   */
  clock: Clock;
}

/** Opens a fresh, empty store for one case of the suite. */
export type InteractionStoreFactory = (context: InteractionStoreContext) => MaybePromise<ConformanceStore>;

/** A store that several processes share, each holding the leases of its own sessions (PostgreSQL). */
export type LeasingConformanceStore = ConformanceStore & {
  /** Takes the lease of a session for this store (its process). */
  claimLease(sessionId: string | undefined): MaybePromise<unknown>;
};

/** Options of `defineInteractionStoreConformance`. */
export interface InteractionStoreConformanceOptions {
  /**
   * For a store that processes share: opens two stores on one fresh, empty backing store, as two processes would
   * (two holders). With it the suite proves that recovery stays in its lane: `interruptPending` ends only requests
   * of sessions this store holds or that no live holder holds.
   */
  openPeers?(
    context: InteractionStoreContext,
  ): MaybePromise<[LeasingConformanceStore, LeasingConformanceStore]>;
}

/** A wall clock that can be set forward or back while timers keep measuring real elapsed time. */
class JumpingClock implements Clock {
  offset = 0;
  now = (): number => Date.now() + this.offset;
  setTimeout = (callback: () => void, ms: number): unknown => globalThis.setTimeout(callback, ms);
  clearTimeout = (handle: unknown): void =>
    globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>);
  /** Sets the wall clock `ms` milliseconds forward (negative: back), as an administrator or NTP step would. */
  jump(ms: number): void {
    this.offset += ms;
  }
}

const TWO_HOURS_MS = 7_200_000;

/** `MAX_STORE_ID_BYTES` and `MAX_STORE_IDEMPOTENCY_KEY_CHARS`, spelled out so the suite also judges older stores. */
const MAX_ID_BYTES = 256;
const MAX_KEY_CHARS = 128;

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

const FIELDS: FormField[] = [
  { id: "notes", label: "Notes — ünïcödé 😀", kind: "text" },
  { id: "__proto__", label: "Proto", kind: "text" },
];

const DOCUMENT: PanelDocument = {
  title: "Deploy",
  blocks: [{ id: "form", kind: "form", fields: FIELDS }],
} as PanelDocument;

/**
 * A pending record as the interaction service would create it (a sidebar form with a `notes` text field), for a
 * store's own tests; `createdAt` defaults to now and `deadline` to one hour later.
 */
export function sampleInteractionRecord(
  overrides: {
    sessionId?: string;
    owner?: string;
    createdAt?: number;
    deadline?: number;
    requestId?: string;
  } = {},
): InteractionRecord {
  return pendingRecord(overrides);
}

function pendingRecord(
  overrides: {
    sessionId?: string;
    owner?: string;
    createdAt?: number;
    deadline?: number;
    requestId?: string;
  } = {},
): InteractionRecord {
  // Now, so a store's own expiry sweep never ends a case's request early.
  const createdAt = overrides.createdAt ?? Date.now();
  return {
    identity: {
      ...(overrides.sessionId !== undefined ? { sessionId: overrides.sessionId } : {}),
      runId: "run-1",
      toolCallId: "call-1",
      owner: overrides.owner ?? "tools/ask",
      panelId: "questions",
      requestId: overrides.requestId ?? crypto.randomUUID(),
    },
    declaration: DECLARATION,
    document: DOCUMENT,
    formBlockId: "form",
    form: prepareForm(FIELDS, 65_536),
    revision: 1,
    state: "pending",
    createdAt,
    deadline: overrides.deadline ?? createdAt + 3_600_000,
  };
}

const ANSWER = '{"status":"answered","answers":{"notes":"ok"}}';

function answered(key = "k1", fingerprint = "f1"): InteractionSettle {
  return {
    expectedRevision: 1,
    state: "answered",
    canonicalResult: ANSWER,
    idempotencyKey: key,
    fingerprint,
  };
}

async function codeOf(run: () => MaybePromise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return isContractError(error) ? error.code : `not a ContractError: ${String(error)}`;
  }
  return "no error";
}

/** Resolves once `check` holds, polling every 5 ms for at most `ms` (a store's watch may be asynchronous). */
async function eventually(check: () => boolean, ms = 2_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Registers the interaction store conformance cases of raw.panel/2 (`panels.md` §13.3–§13.5) with vitest: records
 * kept exactly and per session, duplicate ids refused, the compare-and-swap and replay rules of `settle`,
 * `interaction_not_found`, owner interruption, watchers (at once when terminal, after a settle, unsubscribed), one
 * winner among concurrent settles, a full request → submit → settle round trip through the service, and wall-clock
 * jumps (set forward: a live request stays answerable, answered once; set back: it still expires at its
 * `timeout_ms`; a request no one waits for is judged by its persisted deadline), inputs refused at the door by the
 * same rules in every store (ids over `MAX_STORE_ID_BYTES`, control characters, lone surrogates; idempotency keys
 * kept exactly or refused with `interaction_invalid`; ids at the bound settle, wake and interrupt), and, with
 * `options.openPeers`, recovery that stays in its lane. `factory` opens a fresh, empty store for each case with the
 * case's clock; a store's `close` is called after it.
 */
export function defineInteractionStoreConformance(
  name: string,
  factory: InteractionStoreFactory,
  options: InteractionStoreConformanceOptions = {},
): void {
  describe(`interaction store conformance: ${name}`, () => {
    const opened: ConformanceStore[] = [];
    let clock = new JumpingClock();
    const open = async () => {
      clock = new JumpingClock();
      const store = await factory({ clock });
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close?.();
    });

    it("keeps a created record exactly and only in its session", async () => {
      const store = await open();
      const record = pendingRecord({ sessionId: "s1" });
      await store.create(record);
      expect(await store.get("s1", record.identity.requestId)).toEqual(record);
      expect(await store.get("s2", record.identity.requestId)).toBeUndefined();
      expect(await store.get(undefined, record.identity.requestId)).toBeUndefined();
      const loose = pendingRecord();
      await store.create(loose);
      expect(await store.get(undefined, loose.identity.requestId)).toEqual(loose);
      expect(await store.get("s1", loose.identity.requestId)).toBeUndefined();
      expect(await store.get("s1", crypto.randomUUID())).toBeUndefined();
    });

    it("refuses a second record with the same id: interaction_invalid, the first unchanged", async () => {
      const store = await open();
      const record = pendingRecord({ sessionId: "s1" });
      await store.create(record);
      const twin = { ...record, deadline: record.deadline + 1 };
      expect(await codeOf(() => store.create(twin))).toBe("interaction_invalid");
      expect(await store.get("s1", record.identity.requestId)).toEqual(record);
    });

    it("settles by compare-and-swap and stores state, result, key and fingerprint together", async () => {
      const store = await open();
      const record = pendingRecord({ sessionId: "s1" });
      await store.create(record);
      const ack = await store.settle("s1", record.identity.requestId, answered());
      expect(ack).toEqual({
        requestId: record.identity.requestId,
        revision: 2,
        state: "answered",
        canonicalResult: ANSWER,
      });
      expect(await store.get("s1", record.identity.requestId)).toEqual({
        ...record,
        revision: 2,
        state: "answered",
        canonicalResult: ANSWER,
        idempotencyKey: "k1",
        fingerprint: "f1",
      });
    });

    it("replays the same key and fingerprint; conflicts on every other late settle", async () => {
      const store = await open();
      const record = pendingRecord({ sessionId: "s1" });
      const id = record.identity.requestId;
      await store.create(record);
      const ack = await store.settle("s1", id, answered());
      expect(await store.settle("s1", id, answered())).toEqual(ack);
      expect(await codeOf(() => store.settle("s1", id, answered("k1", "f2")))).toBe("interaction_conflict");
      expect(await codeOf(() => store.settle("s1", id, answered("k2")))).toBe("interaction_conflict");
      expect(
        await codeOf(() =>
          store.settle("s1", id, {
            expectedRevision: 1,
            state: "expired",
            canonicalResult: '{"status":"expired"}',
          }),
        ),
      ).toBe("interaction_conflict");
      expect((await store.get("s1", id))?.canonicalResult).toBe(ANSWER);
    });

    it("conflicts on another revision or a submission at or after the deadline; stays pending", async () => {
      const store = await open();
      const record = pendingRecord({ sessionId: "s1" });
      const id = record.identity.requestId;
      await store.create(record);
      expect(await codeOf(() => store.settle("s1", id, { ...answered(), expectedRevision: 2 }))).toBe(
        "interaction_conflict",
      );
      expect(
        await codeOf(() => store.settle("s1", id, { ...answered(), beforeDeadline: record.deadline })),
      ).toBe("interaction_conflict");
      expect((await store.get("s1", id))?.state).toBe("pending");
      const ack = await store.settle("s1", id, { ...answered(), beforeDeadline: record.deadline - 1 });
      expect(ack.state).toBe("answered");
    });

    it("settling an unknown request or one of another session: interaction_not_found", async () => {
      const store = await open();
      const record = pendingRecord({ sessionId: "s1" });
      await store.create(record);
      expect(await codeOf(() => store.settle("s1", crypto.randomUUID(), answered()))).toBe(
        "interaction_not_found",
      );
      expect(await codeOf(() => store.settle("s2", record.identity.requestId, answered()))).toBe(
        "interaction_not_found",
      );
      expect((await store.get("s1", record.identity.requestId))?.state).toBe("pending");
    });

    it("interrupts only the pending requests of one owner", async () => {
      const store = await open();
      const mine = pendingRecord({ sessionId: "s1", owner: "tools/a" });
      const done = pendingRecord({ sessionId: "s1", owner: "tools/a" });
      const other = pendingRecord({ sessionId: "s2", owner: "tools/b" });
      for (const record of [mine, done, other]) await store.create(record);
      await store.settle("s1", done.identity.requestId, answered());
      expect(await store.interruptPending("tools/a")).toBe(1);
      expect(await store.get("s1", mine.identity.requestId)).toMatchObject({
        state: "interrupted",
        revision: 2,
        canonicalResult: '{"status":"interrupted"}',
      });
      expect((await store.get("s1", done.identity.requestId))?.state).toBe("answered");
      expect((await store.get("s2", other.identity.requestId))?.state).toBe("pending");
      expect(await store.interruptPending("tools/a")).toBe(0);
    });

    it("refuses at the door ids no store could keep: interaction_invalid on create, unknown to every lookup", async () => {
      const store = await open();
      const bad = [
        "",
        "s".repeat(MAX_ID_BYTES + 1),
        "é".repeat(MAX_ID_BYTES / 2 + 1),
        "x".repeat(8_192),
        "\u0001".repeat(1_400),
        "a\u0000b",
        "a\nb",
        "a\u0085b",
        "lone \ud800",
        "\udc00 lone",
      ];
      for (const id of bad) {
        expect(await codeOf(() => store.create(pendingRecord({ sessionId: id })))).toBe(
          "interaction_invalid",
        );
        expect(await codeOf(() => store.create(pendingRecord({ sessionId: "s1", owner: id })))).toBe(
          "interaction_invalid",
        );
        expect(await codeOf(() => store.create(pendingRecord({ sessionId: "s1", requestId: id })))).toBe(
          "interaction_invalid",
        );
        // A lookup with an id that can never be stored finds nothing, whatever the database makes of the text.
        expect(await store.get(id, crypto.randomUUID())).toBeUndefined();
        expect(await store.get("s1", id)).toBeUndefined();
        expect(await codeOf(() => store.settle(id, crypto.randomUUID(), answered()))).toBe(
          "interaction_not_found",
        );
        expect(await codeOf(() => store.settle("s1", id, answered()))).toBe("interaction_not_found");
        expect(await store.interruptPending(id)).toBe(0);
        const stop = await store.watch(id, id, () => {});
        stop();
      }
      // Nothing of the refused records was kept: the store still works and holds only what it accepted.
      const record = pendingRecord({ sessionId: "s1" });
      await store.create(record);
      expect(await store.interruptPending("tools/ask")).toBe(1);
    });

    it("settles, wakes and interrupts a request whose ids sit at the bound", async () => {
      const store = await open();
      const sessionId = "é".repeat(MAX_ID_BYTES / 2);
      const odd = `'"\\$1;--${"ü".repeat(20)}😀`;
      const sessions = [sessionId, "s".repeat(MAX_ID_BYTES), odd];
      for (const session of sessions) {
        const record = pendingRecord({
          sessionId: session,
          owner: "o".repeat(MAX_ID_BYTES),
          requestId: "r".repeat(MAX_ID_BYTES),
        });
        await store.create(record);
        expect(await store.get(session, record.identity.requestId)).toEqual(record);
        const seen: InteractionRecord[] = [];
        await store.watch(session, record.identity.requestId, (r) => seen.push(r));
        const ack = await store.settle(session, record.identity.requestId, answered());
        expect(ack).toMatchObject({ state: "answered", revision: 2 });
        await eventually(() => seen.length > 0);
        expect(seen[0]?.identity.sessionId).toBe(session);
      }
      const left = pendingRecord({ sessionId, owner: "o".repeat(MAX_ID_BYTES) });
      await store.create(left);
      expect(await store.interruptPending("o".repeat(MAX_ID_BYTES))).toBe(1);
      expect((await store.get(sessionId, left.identity.requestId))?.state).toBe("interrupted");
    });

    it("keeps every idempotency key exactly, and refuses lone surrogates, NUL and overlong keys with interaction_invalid", async () => {
      const store = await open();
      const kept = ["\uFFFD", "😀".repeat(MAX_KEY_CHARS), "k".repeat(MAX_KEY_CHARS), "a\u0001b\tc", "ü'\"\\"];
      for (const key of kept) {
        const record = pendingRecord({ sessionId: "s1" });
        await store.create(record);
        const ack = await store.settle("s1", record.identity.requestId, answered(key));
        expect((await store.get("s1", record.identity.requestId))?.idempotencyKey).toBe(key);
        expect(await store.settle("s1", record.identity.requestId, answered(key))).toEqual(ack);
      }
      const refused = ["\ud800", "a\udc00", "\udbff\ud800", "a\u0000b", "", "k".repeat(MAX_KEY_CHARS + 1)];
      for (const key of refused) {
        const record = pendingRecord({ sessionId: "s1" });
        await store.create(record);
        expect(await codeOf(() => store.settle("s1", record.identity.requestId, answered(key)))).toBe(
          "interaction_invalid",
        );
        expect(await store.get("s1", record.identity.requestId)).toEqual(record);
        expect((await store.settle("s1", record.identity.requestId, answered("ok"))).state).toBe("answered");
      }
      // A key that a UTF-8 database would have turned into U+FFFD never meets the one stored as U+FFFD.
      const replaced = pendingRecord({ sessionId: "s1" });
      await store.create(replaced);
      await store.settle("s1", replaced.identity.requestId, answered("\uFFFD"));
      expect(await codeOf(() => store.settle("s1", replaced.identity.requestId, answered("\ud800")))).toBe(
        "interaction_invalid",
      );
    });

    const openPeers = options.openPeers;
    if (openPeers !== undefined) {
      it("recovery stays in its lane: interruptPending never ends a session another live holder holds", async () => {
        clock = new JumpingClock();
        const [a, b] = await openPeers({ clock });
        opened.push(a, b);
        await a.claimLease("tenant-a");
        await b.claimLease("tenant-b");
        const mine = pendingRecord({ sessionId: "tenant-a" });
        const theirs = pendingRecord({ sessionId: "tenant-b" });
        const orphan = pendingRecord({ sessionId: "tenant-c" });
        await a.create(mine);
        await b.create(theirs);
        await b.create(orphan);
        // tenant-a is a's, tenant-c has no lease at all; tenant-b is held by b, which is alive.
        expect(await a.interruptPending("tools/ask")).toBe(2);
        expect((await a.get("tenant-a", mine.identity.requestId))?.state).toBe("interrupted");
        expect((await a.get("tenant-c", orphan.identity.requestId))?.state).toBe("interrupted");
        expect((await a.get("tenant-b", theirs.identity.requestId))?.state).toBe("pending");
        expect((await b.settle("tenant-b", theirs.identity.requestId, answered())).state).toBe("answered");
        // Once b is gone, no live holder holds tenant-b: its leftovers are a's to recover.
        const left = pendingRecord({ sessionId: "tenant-b" });
        await b.create(left);
        await b.close?.();
        expect(await a.interruptPending("tools/ask")).toBe(1);
        expect((await a.get("tenant-b", left.identity.requestId))?.state).toBe("interrupted");
      });
    }

    it("tells a watcher once the request is terminal, at once when it already is, never after unsubscribing", async () => {
      const store = await open();
      const record = pendingRecord({ sessionId: "s1" });
      const quiet = pendingRecord({ sessionId: "s1" });
      await store.create(record);
      await store.create(quiet);
      const seen: InteractionRecord[] = [];
      const unheard: InteractionRecord[] = [];
      await store.watch("s1", record.identity.requestId, (r) => seen.push(r));
      const stop = await store.watch("s1", quiet.identity.requestId, (r) => unheard.push(r));
      stop();
      await store.settle("s1", record.identity.requestId, answered());
      await store.settle("s1", quiet.identity.requestId, answered());
      await eventually(() => seen.length > 0);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ state: "answered", revision: 2, canonicalResult: ANSWER });
      const late: InteractionRecord[] = [];
      await store.watch("s1", record.identity.requestId, (r) => late.push(r));
      await eventually(() => late.length > 0);
      expect(late[0]?.state).toBe("answered");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unheard).toEqual([]);
      expect(seen).toHaveLength(1);
    });

    it("lets exactly one of many concurrent settles win", async () => {
      const store = await open();
      const record = pendingRecord({ sessionId: "s1" });
      await store.create(record);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          Promise.resolve().then(() =>
            store.settle("s1", record.identity.requestId, answered(`k${i}`, `f${i}`)),
          ),
        ),
      );
      const won = outcomes.filter((o) => o.status === "fulfilled");
      expect(won).toHaveLength(1);
      for (const lost of outcomes.filter((o) => o.status === "rejected")) {
        expect(isContractError(lost.reason) && lost.reason.code).toBe("interaction_conflict");
      }
      expect((await store.get("s1", record.identity.requestId))?.revision).toBe(2);
    });

    it("serves the interaction service: request, submit, replay, answered", async () => {
      const store = await open();
      const service = createInteractionService({ interactive: true, store, sessionId: "s1" });
      let published: InteractionRecord | undefined;
      service.subscribe((event) => {
        if (event.type === "published") published = event.request;
      });
      const pending = service.request({
        owner: "tools/ask",
        declaration: DECLARATION,
        panel: "questions",
        document: DOCUMENT,
        timeout_ms: 10_000,
        maxOutputBytes: 65_536,
      });
      await eventually(() => published !== undefined);
      const record = published as InteractionRecord;
      const submission = {
        requestId: record.identity.requestId,
        expectedRevision: 1,
        idempotencyKey: "key-1",
        response: "submit",
        answers: { notes: "ok" },
      };
      const ack = await service.submit(submission);
      expect(ack).toMatchObject({ state: "answered", revision: 2 });
      expect(await service.submit(submission)).toEqual(ack);
      await expect(pending).resolves.toEqual({ status: "answered", answers: { notes: "ok" } });
    });

    /** Starts a request through the service over `store` and resolves once it is published. */
    const ask = async (store: ConformanceStore, timeoutMs: number) => {
      const service = createInteractionService({ interactive: true, store, clock, sessionId: "s1" });
      let published: InteractionRecord | undefined;
      service.subscribe((event) => {
        if (event.type === "published") published = event.request;
      });
      const started = Date.now();
      const result = service.request({
        owner: "tools/ask",
        declaration: DECLARATION,
        panel: "questions",
        document: DOCUMENT,
        timeout_ms: timeoutMs,
        maxOutputBytes: 65_536,
      });
      result.catch(() => {});
      await eventually(() => published !== undefined);
      const record = published as InteractionRecord;
      const submit = (key: string) =>
        service.submit({
          requestId: record.identity.requestId,
          expectedRevision: 1,
          idempotencyKey: key,
          response: "submit",
          answers: { notes: key },
        });
      return { service, record, result, started, submit };
    };

    it("a wall clock set forward never ends a live request early: it stays pending and its answer is taken once", async () => {
      const store = await open();
      const { record, result, submit } = await ask(store, 60_000);
      clock.jump(TWO_HOURS_MS);
      // Long enough for a store's expiry sweep to run several times on the jumped clock.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await store.get("s1", record.identity.requestId))?.state).toBe("pending");
      const ack = await submit("forward");
      expect(ack).toMatchObject({ state: "answered", revision: 2 });
      clock.jump(-TWO_HOURS_MS);
      expect(await submit("forward")).toEqual(ack);
      expect(await codeOf(() => submit("other"))).toBe("interaction_conflict");
      await expect(result).resolves.toEqual({ status: "answered", answers: { notes: "forward" } });
      expect(await store.get("s1", record.identity.requestId)).toMatchObject({
        state: "answered",
        revision: 2,
        idempotencyKey: "forward",
      });
    });

    it("a wall clock set back never keeps a request past its timeout_ms: it expires on time and refuses a late answer", async () => {
      const store = await open();
      const { record, result, started, submit } = await ask(store, 400);
      clock.jump(-TWO_HOURS_MS);
      await expect(result).resolves.toEqual({ status: "expired" });
      // Expired by its own timer (a duration), not two hours later by the wall clock; the store timeout bounds the rest.
      expect(Date.now() - started).toBeLessThan(400 + 4_000);
      expect(await codeOf(() => submit("late"))).toBe("interaction_conflict");
      expect(await store.get("s1", record.identity.requestId)).toMatchObject({
        state: "expired",
        revision: 2,
        canonicalResult: '{"status":"expired"}',
      });
    });

    it("a request no one waits for is judged by its persisted wall-clock deadline", async () => {
      const store = await open();
      const record = pendingRecord({ sessionId: "s1", createdAt: clock.now() });
      await store.create(record);
      const service = createInteractionService({ interactive: true, store, clock, sessionId: "s1" });
      const submission = {
        requestId: record.identity.requestId,
        expectedRevision: 1,
        idempotencyKey: "k-late",
        response: "submit",
        answers: { notes: "late" },
      };
      clock.jump(TWO_HOURS_MS);
      expect(await codeOf(() => service.submit(submission))).toBe("interaction_conflict");
      clock.jump(-TWO_HOURS_MS);
      const current = await store.get("s1", record.identity.requestId);
      // A store with an expiry sweep may have ended it while the clock was ahead; never answered, never doubled.
      expect(current?.state === "pending" || current?.state === "expired").toBe(true);
      if (current?.state === "pending") {
        expect(await service.submit(submission)).toMatchObject({ state: "answered", revision: 2 });
      } else {
        expect(current).toMatchObject({ revision: 2, canonicalResult: '{"status":"expired"}' });
      }
    });
  });
}
