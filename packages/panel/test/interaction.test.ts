import { isContractError } from "@raw/schema";
import { describe, expect, it, vi } from "vitest";
import {
  createInteractionService,
  createMemoryInteractionStore,
  type InteractionAdapter,
  type InteractionRecord,
  type InteractionRequestInput,
  type InteractionService,
  type InteractionServiceOptions,
} from "../src/host-entry.js";
import type { PanelAction, PanelDeclaration } from "../src/types.js";
import { FakeClock } from "./fake-clock.js";

const SUBMIT: PanelAction = {
  id: "submit",
  label: "Send answer",
  scope: "block",
  kind: "response",
  response: "submit",
  blocks: ["form"],
};
const CANCEL: PanelAction = {
  id: "cancel",
  label: "Cancel",
  scope: "block",
  kind: "response",
  response: "cancel",
};

function declaration(
  actions: PanelAction[] = [SUBMIT, CANCEL],
  placement: "chat" | "sidebar" = "chat",
): PanelDeclaration {
  return {
    id: "questions",
    title: "Questions",
    icon: "file-text",
    open: "never",
    context: "none",
    placement,
    acp_plan: false,
    actions,
  };
}

const FORM = {
  id: "form",
  kind: "form",
  fields: [
    {
      id: "env",
      label: "Which environment?",
      kind: "single_select",
      required: true,
      options: [
        { id: "staging", label: "Staging" },
        { id: "prod", label: "Production" },
      ],
    },
    { id: "notes", label: "Notes", kind: "text", max_bytes: 10 },
  ],
};

const DOCUMENT = { title: "Deploy", blocks: [FORM] };

function input(overrides: Partial<InteractionRequestInput> = {}): InteractionRequestInput {
  return {
    owner: "tools/ask",
    declaration: declaration(),
    panel: "questions",
    document: DOCUMENT,
    toolCallId: "call-1",
    maxOutputBytes: 65_536,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isContractError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("did not fail");
}

function thrown(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isContractError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("did not throw");
}

/** An interactive service with a fake clock; `started()` gives the latest published request. */
function setup(options: InteractionServiceOptions = {}) {
  const clock = new FakeClock();
  const service = createInteractionService({ interactive: true, clock, ...options });
  const published: InteractionRecord[] = [];
  service.subscribe((event) => {
    if (event.type === "published") published.push(event.request);
  });
  const started = () => {
    const last = published.at(-1);
    if (!last) throw new Error("nothing published");
    return last;
  };
  return { clock, service, started };
}

function answer(record: InteractionRecord, answers: unknown, key = "k1") {
  return {
    requestId: record.identity.requestId,
    expectedRevision: 1,
    idempotencyKey: key,
    response: "submit" as const,
    answers: answers as Record<string, unknown>,
  };
}

describe("request: checks before anything is stored, first failure wins", () => {
  it("fails at once with interaction_unavailable without an adapter or an interactive surface", async () => {
    const service = createInteractionService();
    expect(await failure(service.request(input()))).toEqual({
      code: "interaction_unavailable",
      message: "interaction_unavailable: this host has no response adapter",
    });
  });

  it("is unavailable once closed", async () => {
    const { service } = setup();
    service.close();
    expect((await failure(service.request(input()))).code).toBe("interaction_unavailable");
  });

  it("returns cancelled for an already aborted signal, before any other check", async () => {
    const { service } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(
      service.request(input({ timeout_ms: -1, document: {} }), { signal: controller.signal }),
    ).resolves.toEqual({ status: "cancelled" });
  });

  it.each([0, -1, 1.5, "10", 86_400_001, Number.NaN, null, 2 ** 60])(
    "rejects timeout_ms %s",
    async (timeout) => {
      const { service } = setup();
      expect(await failure(service.request(input({ timeout_ms: timeout, document: {} })))).toEqual({
        code: "interaction_invalid",
        message: "interaction_invalid: timeout_ms must be positive and at most 24 hours",
      });
    },
  );

  it("accepts 24 hours and defaults to 30 minutes", () => {
    const { service, started } = setup();
    void service.request(input({ timeout_ms: 86_400_000 }));
    expect(started().deadline - started().createdAt).toBe(86_400_000);
    void service.request(input());
    expect(started().deadline - started().createdAt).toBe(1_800_000);
  });

  it("reports document errors as panel errors", async () => {
    const { service } = setup();
    expect(await failure(service.request(input({ document: { blocks: [], oops: 1 } })))).toEqual({
      code: "panel_invalid",
      message: "/oops: unknown field",
    });
  });

  it.each([
    ["no form block", { blocks: [{ id: "m", kind: "markdown", text: "hi" }] }],
    ["two form blocks", { blocks: [FORM, { ...FORM, id: "form2" }] }],
  ])("requires exactly one form block (%s)", async (_name, document) => {
    const { service } = setup();
    expect(await failure(service.request(input({ document })))).toEqual({
      code: "interaction_invalid",
      message: "interaction_invalid: a request must contain exactly one form block",
    });
  });

  it("requires a declared view", async () => {
    const { service } = setup();
    expect(await failure(service.request(input({ declaration: undefined })))).toEqual({
      code: "panel_undeclared",
      message: "interaction requires a declared view",
    });
  });

  it.each<[string, PanelAction[], string]>([
    ["no submit action", [CANCEL], "interaction_invalid: the declared form needs a submit response action"],
    ["no cancel action", [SUBMIT], "interaction_invalid: the declared form needs a cancel response action"],
    [
      "a submit action for another block",
      [{ ...SUBMIT, blocks: ["other"] }, CANCEL],
      "interaction_invalid: the declared form needs a submit response action",
    ],
    [
      "a cancel action of another kind",
      [SUBMIT, { id: "cancel", label: "Cancel", scope: "block", kind: "prompt", text: "x" }],
      "interaction_invalid: the declared form needs a cancel response action",
    ],
  ])("requires response actions (%s)", async (_name, actions, message) => {
    const { service } = setup();
    expect(await failure(service.request(input({ declaration: declaration(actions) })))).toEqual({
      code: "interaction_invalid",
      message,
    });
  });

  it("fails with interaction_budget_too_small before publishing", async () => {
    const { service } = setup();
    const publish = vi.fn();
    expect(await failure(service.request(input({ maxOutputBytes: 20, publish })))).toEqual({
      code: "interaction_budget_too_small",
      message: "interaction_budget_too_small: the minimum answer and result envelope cannot fit",
    });
    expect(publish).not.toHaveBeenCalled();
  });
});

describe("request lifecycle", () => {
  it("stores the request before publishing it, then resolves with the parsed canonical result", async () => {
    const store = createMemoryInteractionStore();
    const { service, started } = setup({ store, sessionId: "s1" });
    const seen: string[] = [];
    const promise = service.request(
      input({
        publish: (record) => {
          seen.push(store.get("s1", record.identity.requestId)?.state ?? "missing");
        },
      }),
    );
    const record = started();
    expect(seen).toEqual(["pending"]);
    expect(record).toMatchObject({
      identity: { sessionId: "s1", toolCallId: "call-1", owner: "tools/ask", panelId: "questions" },
      formBlockId: "form",
      revision: 1,
      state: "pending",
      form: { maxResultBytes: 65_536 },
    });
    expect(record.identity.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.identity.viewInstanceId).toMatch(/^[0-9a-f-]{36}$/);
    const ack = service.submit(answer(record, { notes: "ok", env: "prod" }));
    expect(ack).toEqual({
      requestId: record.identity.requestId,
      revision: 2,
      state: "answered",
      canonicalResult: '{"status":"answered","answers":{"env":"prod","notes":"ok"}}',
    });
    await expect(promise).resolves.toEqual({ status: "answered", answers: { env: "prod", notes: "ok" } });
    expect(service.get(record.identity.requestId)).toMatchObject({ state: "answered", revision: 2 });
  });

  it("gives a sidebar view no view instance", () => {
    const { service, started } = setup();
    void service.request(input({ declaration: declaration([SUBMIT, CANCEL], "sidebar") }));
    expect(started().identity.viewInstanceId).toBeUndefined();
  });

  it("cancels with a cancel response; the acknowledgement has no canonical result", async () => {
    const { service, started } = setup();
    const promise = service.request(input());
    const record = started();
    expect(
      service.submit({
        requestId: record.identity.requestId,
        expectedRevision: 1,
        idempotencyKey: "c",
        response: "cancel",
      }),
    ).toEqual({ requestId: record.identity.requestId, revision: 2, state: "cancelled" });
    await expect(promise).resolves.toEqual({ status: "cancelled" });
  });

  it("keeps the request pending after invalid answers or answers over the budget", async () => {
    const { service, started } = setup();
    const promise = service.request(input({ maxOutputBytes: 70 }));
    const record = started();
    const id = record.identity.requestId;
    expect(thrown(() => service.submit(answer(record, { env: "dev" })))).toEqual({
      code: "interaction_invalid",
      message: "interaction_invalid: env has an unknown option",
    });
    expect(service.get(id)?.state).toBe("pending");
    // 70 − |{"status":"answered","answers":{"env":"prod","notes":""}}| = 13 available → 6 bytes; six line feeds
    // fit that limit but encode as 12 bytes, so the whole answer no longer fits the 70-byte result.
    expect(record.form.fields[1]?.max_bytes).toBe(6);
    expect(
      thrown(() => service.submit(answer(record, { env: "staging", notes: "\n".repeat(6) }, "k2"))),
    ).toEqual({
      code: "interaction_budget_exceeded",
      message: "interaction_budget_exceeded: the complete encoded answer exceeds the result budget",
    });
    expect(service.get(id)?.state).toBe("pending");
    expect(service.submit(answer(record, { env: "prod" }, "k3")).state).toBe("answered");
    await expect(promise).resolves.toEqual({ status: "answered", answers: { env: "prod" } });
  });

  it("expires at the deadline; a later submission conflicts", async () => {
    const { service, started, clock } = setup();
    const promise = service.request(input({ timeout_ms: 1000 }));
    const record = started();
    clock.advance(999);
    expect(service.get(record.identity.requestId)?.state).toBe("pending");
    clock.advance(1);
    await expect(promise).resolves.toEqual({ status: "expired" });
    expect(service.get(record.identity.requestId)).toMatchObject({ state: "expired", revision: 2 });
    expect(thrown(() => service.submit(answer(record, { env: "prod" })))).toEqual({
      code: "interaction_conflict",
      message: "interaction_conflict: request already settled or revision changed",
    });
  });

  it("answers just before the deadline", async () => {
    const { service, started, clock } = setup();
    const promise = service.request(input({ timeout_ms: 1000 }));
    clock.advance(999);
    service.submit(answer(started(), { env: "prod" }));
    clock.advance(10);
    await expect(promise).resolves.toEqual({ status: "answered", answers: { env: "prod" } });
    expect(clock.pending).toBe(0);
  });

  it("cancels when the call's signal aborts; a late answer conflicts", async () => {
    const { service, started } = setup();
    const controller = new AbortController();
    const promise = service.request(input(), { signal: controller.signal });
    controller.abort();
    await expect(promise).resolves.toEqual({ status: "cancelled" });
    expect(thrown(() => service.submit(answer(started(), { env: "prod" }))).code).toBe(
      "interaction_conflict",
    );
  });

  it("interrupts pending requests when the service closes", async () => {
    const { service } = setup();
    const promise = service.request(input());
    service.close();
    await expect(promise).resolves.toEqual({ status: "interrupted" });
  });

  it("interrupts an owner's pending requests on owner loss", async () => {
    const store = createMemoryInteractionStore();
    const { service, started } = setup({ store });
    const promise = service.request(input());
    const record = started();
    expect(store.interruptPending("tools/other")).toBe(0);
    expect(store.interruptPending("tools/ask")).toBe(1);
    await expect(promise).resolves.toEqual({ status: "interrupted" });
    expect(thrown(() => service.submit(answer(record, { env: "prod" }))).code).toBe("interaction_conflict");
  });

  it("interrupts the request and rethrows when publishing throws", async () => {
    const store = createMemoryInteractionStore();
    const { service } = setup({ store });
    const boom = new Error("no view");
    let id = "";
    const promise = service.request(
      input({
        publish: (record) => {
          id = record.identity.requestId;
          throw boom;
        },
      }),
    );
    await expect(promise).rejects.toBe(boom);
    expect(store.get(undefined, id)?.state).toBe("interrupted");
  });

  it("ignores a throwing observer", async () => {
    const { service, started } = setup();
    service.subscribe(() => {
      throw new Error("observer");
    });
    const promise = service.request(input());
    service.submit(answer(started(), { env: "prod" }));
    await expect(promise).resolves.toMatchObject({ status: "answered" });
  });
});

describe("submit", () => {
  it("replays the acknowledgement for the same key and body, also after the request is terminal", async () => {
    const { service, started } = setup();
    const promise = service.request(input());
    const submission = answer(started(), { env: "prod" });
    const ack = service.submit(submission);
    await promise;
    expect(service.submit({ ...submission, answers: { env: "prod" } })).toEqual(ack);
    // Key order does not change the fingerprint.
    const reordered = {
      answers: { env: "prod" },
      response: "submit",
      idempotencyKey: "k1",
      expectedRevision: 1,
      requestId: submission.requestId,
    };
    expect(service.submit(reordered)).toEqual(ack);
  });

  it.each([
    ["the same key with another body", { answers: { env: "staging" } }],
    ["another key", { idempotencyKey: "k2" }],
    ["another key, cancelling", { idempotencyKey: "k2", response: "cancel", answers: undefined }],
  ])("conflicts on %s after settlement", async (_name, change) => {
    const { service, started } = setup();
    const promise = service.request(input());
    const submission = answer(started(), { env: "prod" });
    service.submit(submission);
    await promise;
    const next: Record<string, unknown> = { ...submission, ...change };
    if (next.answers === undefined) delete next.answers;
    expect(thrown(() => service.submit(next))).toEqual({
      code: "interaction_conflict",
      message: "interaction_conflict: request already settled or revision changed",
    });
  });

  it("conflicts on a revision that is not the stored one; the request stays pending", () => {
    const { service, started } = setup();
    void service.request(input());
    const record = started();
    expect(
      thrown(() => service.submit({ ...answer(record, { env: "prod" }), expectedRevision: 2 })).code,
    ).toBe("interaction_conflict");
    expect(service.get(record.identity.requestId)?.state).toBe("pending");
  });

  it("settles exactly one of two submissions with different keys", () => {
    const { service, started } = setup();
    void service.request(input());
    const record = started();
    expect(service.submit(answer(record, { env: "prod" }, "a")).state).toBe("answered");
    expect(thrown(() => service.submit(answer(record, { env: "staging" }, "b"))).code).toBe(
      "interaction_conflict",
    );
  });

  it.each<[string, unknown]>([
    ["an array", []],
    ["null", null],
    ["a string", "submit"],
  ])("rejects %s before the lookup", (_name, submission) => {
    const { service } = setup();
    expect(thrown(() => service.submit(submission))).toEqual({
      code: "interaction_invalid",
      message: "interaction_invalid: response must be an object",
    });
  });

  it("does not find a request of another session, or an unknown one", () => {
    const store = createMemoryInteractionStore();
    const { service, started, clock } = setup({ store, sessionId: "s1" });
    void service.request(input());
    const record = started();
    const other = createInteractionService({ interactive: true, store, clock, sessionId: "s2" });
    const none = createInteractionService({ interactive: true, store, clock });
    const notFound = {
      code: "interaction_not_found",
      message: "interaction_not_found: request does not exist in this session",
    };
    expect(thrown(() => other.submit(answer(record, { env: "prod" })))).toEqual(notFound);
    expect(thrown(() => none.submit(answer(record, { env: "prod" })))).toEqual(notFound);
    expect(thrown(() => service.submit({ ...answer(record, {}), requestId: "nope" }))).toEqual(notFound);
    expect(thrown(() => service.submit({ ...answer(record, {}), requestId: 5 }))).toEqual(notFound);
    expect(other.get(record.identity.requestId)).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>]>([
    ["an extra key", { extra: 1 }],
    ["answers on a cancel", { response: "cancel" }],
    ["a revision of 0", { expectedRevision: 0 }],
    ["a fractional revision", { expectedRevision: 1.5 }],
    ["a string revision", { expectedRevision: "1" }],
    ["an empty key", { idempotencyKey: "" }],
    ["a key of 129 characters", { idempotencyKey: "😀".repeat(129) }],
    ["a non-string key", { idempotencyKey: 1 }],
    ["another response", { response: "maybe" }],
    ["a missing response", { response: undefined }],
  ])("rejects %s as an invalid identity, revision or response", (_name, change) => {
    const { service, started } = setup();
    void service.request(input());
    const submission: Record<string, unknown> = { ...answer(started(), { env: "prod" }), ...change };
    for (const key of Object.keys(submission)) if (submission[key] === undefined) delete submission[key];
    expect(thrown(() => service.submit(submission))).toEqual({
      code: "interaction_invalid",
      message: "interaction_invalid: invalid request identity, revision or response",
    });
  });

  it("accepts a key of 128 characters", () => {
    const { service, started } = setup();
    void service.request(input());
    expect(service.submit(answer(started(), { env: "prod" }, "😀".repeat(128))).state).toBe("answered");
  });
});

describe("adapters", () => {
  it("calls the adapter again with the validation error while the request stays pending", async () => {
    const states: Array<string | undefined> = [];
    let service: InteractionService | undefined;
    const adapter = vi.fn<InteractionAdapter>(async (request, _signal, retry) => {
      states.push(service?.get(request.identity.requestId)?.state);
      const base = {
        requestId: request.identity.requestId,
        expectedRevision: 1,
        response: "submit" as const,
      };
      return retry === undefined
        ? { ...base, idempotencyKey: "a", answers: { env: "dev" } }
        : { ...base, idempotencyKey: "b", answers: { env: "prod" } };
    });
    service = createInteractionService({ adapter, clock: new FakeClock() });
    await expect(service.request(input())).resolves.toEqual({ status: "answered", answers: { env: "prod" } });
    expect(adapter).toHaveBeenCalledTimes(2);
    expect(adapter.mock.calls[0]).toHaveLength(2);
    expect(adapter.mock.calls[1]?.[2]).toEqual({
      error: { code: "interaction_invalid", message: "interaction_invalid: env has an unknown option" },
    });
    expect(states).toEqual(["pending", "pending"]);
  });

  it("cancels the request when the adapter throws", async () => {
    const service = createInteractionService({
      adapter: async () => {
        throw new Error("closed terminal");
      },
      clock: new FakeClock(),
    });
    await expect(service.request(input())).resolves.toEqual({ status: "cancelled" });
  });

  it("aborts the adapter's signal once the request is terminal", async () => {
    const clock = new FakeClock();
    let adapterSignal: AbortSignal | undefined;
    const service = createInteractionService({
      adapter: (_request, signal) => {
        adapterSignal = signal;
        return new Promise(() => {});
      },
      clock,
    });
    const promise = service.request(input({ timeout_ms: 10 }));
    expect(adapterSignal?.aborted).toBe(false);
    clock.advance(10);
    await expect(promise).resolves.toEqual({ status: "expired" });
    expect(adapterSignal?.aborted).toBe(true);
  });
});
