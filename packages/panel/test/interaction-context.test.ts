import { isContractError } from "@raw/schema";
import { describe, expect, it } from "vitest";
import {
  bindInteractionContext,
  createInteractionService,
  createMemoryInteractionStore,
  createPanelHost,
  type InteractionRecord,
  type PanelFrame,
} from "../src/host-entry.js";
import type { PanelDeclaration } from "../src/types.js";
import { FakeClock } from "./fake-clock.js";

const OWNER = "tools/ask_user";

function questions(placement: "chat" | "sidebar" = "chat"): PanelDeclaration {
  return {
    id: "questions",
    title: "Questions",
    icon: "file-text",
    open: "never",
    context: "none",
    placement,
    acp_plan: false,
    actions: [
      {
        id: "submit",
        label: "Send answer",
        scope: "block",
        kind: "response",
        response: "submit",
        blocks: ["form"],
      },
      { id: "cancel", label: "Cancel", scope: "block", kind: "response", response: "cancel" },
    ],
  };
}

const DOCUMENT = {
  blocks: [
    {
      id: "form",
      kind: "form",
      fields: [{ id: "name", label: "Name", kind: "text", required: true }],
    },
  ],
};

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isContractError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("did not fail");
}

function setup(placement: "chat" | "sidebar" = "chat", options: { interactive?: boolean } = {}) {
  const clock = new FakeClock();
  const frames: PanelFrame[] = [];
  const host = createPanelHost({ clock, onFrame: (f) => frames.push(f) });
  const store = createMemoryInteractionStore();
  const service = createInteractionService({ interactive: options.interactive ?? true, clock, store });
  const published: InteractionRecord[] = [];
  const settled: InteractionRecord[] = [];
  service.subscribe((e) => {
    (e.type === "published" ? published : settled).push(e.request);
  });
  const call = host.beginCall({ owner: OWNER, declarations: [questions(placement)], toolCallId: "call-9" });
  return { clock, frames, host, store, service, published, settled, call };
}

describe("context.interactions bound to a panel call", () => {
  it("shows the request as a fresh chat view of the call and resolves with the answer", async () => {
    const { service, published, call, frames, host } = setup();
    const interactions = bindInteractionContext(service, call, { maxOutputBytes: 65_536 });
    const promise = interactions.request({ panel: "questions", document: DOCUMENT });
    const record = published[0];
    expect(record?.identity).toMatchObject({ owner: OWNER, panelId: "questions", toolCallId: "call-9" });
    const view = record?.identity.viewInstanceId;
    expect(frames[0]).toMatchObject({ type: "update", panel: "questions", view, revision: 1, live: true });
    expect(call.context.get("questions")).toMatchObject({ revision: 1, document: DOCUMENT });
    service.submit({
      requestId: record?.identity.requestId,
      expectedRevision: 1,
      idempotencyKey: "k",
      response: "submit",
      answers: { name: "Ada" },
    });
    await expect(promise).resolves.toEqual({ status: "answered", answers: { name: "Ada" } });
    const { receipts } = call.settle({ hasOtherContent: true });
    expect(receipts).toEqual([
      {
        panel: "questions",
        owner: OWNER,
        title: "Questions",
        revision: 1,
        summary: "Questions",
        status: "active",
        op: "replace",
        toolCallId: "call-9",
        source: "tool",
        view,
      },
    ]);
    expect(host.getView(view ?? "")?.document).toEqual(DOCUMENT);
  });

  it("accepts the full id of its own panel and refuses another owner's", async () => {
    const { service, call } = setup("sidebar");
    const interactions = bindInteractionContext(service, call, { maxOutputBytes: 65_536 });
    void interactions.request({ panel: `${OWNER}#questions`, document: DOCUMENT });
    expect(call.context.get("questions")?.revision).toBe(1);
    expect(await failure(interactions.request({ panel: "tools/x#questions", document: DOCUMENT }))).toEqual({
      code: "panel_not_owned",
      message: 'panel "tools/x#questions" belongs to another owner',
    });
  });

  it("refuses an undeclared view", async () => {
    const { service, call } = setup();
    const interactions = bindInteractionContext(service, call, { maxOutputBytes: 65_536 });
    expect(await failure(interactions.request({ panel: "other", document: DOCUMENT }))).toEqual({
      code: "panel_undeclared",
      message: "interaction requires a declared view",
    });
  });

  it("refuses a request after the handler settled", async () => {
    const { service, call } = setup();
    const interactions = bindInteractionContext(service, call, { maxOutputBytes: 65_536 });
    call.settle({ hasOtherContent: true });
    expect(await failure(interactions.request({ panel: "questions", document: DOCUMENT }))).toEqual({
      code: "panel_closed_context",
      message: "interaction requested after the handler settled",
    });
  });

  it("reports interaction_unavailable before the call checks", async () => {
    const { service, call } = setup("chat", { interactive: false });
    const interactions = bindInteractionContext(service, call, { maxOutputBytes: 65_536 });
    call.settle({ hasOtherContent: true });
    expect((await failure(interactions.request({ panel: "questions", document: DOCUMENT }))).code).toBe(
      "interaction_unavailable",
    );
  });

  it("fits the form to the call's output budget", async () => {
    const { service, call } = setup();
    const interactions = bindInteractionContext(service, call, { maxOutputBytes: 30 });
    expect((await failure(interactions.request({ panel: "questions", document: DOCUMENT }))).code).toBe(
      "interaction_budget_too_small",
    );
  });

  it("cancels with the call's signal and when the call ends without awaiting", async () => {
    const { service, call } = setup();
    const controller = new AbortController();
    const interactions = bindInteractionContext(service, call, {
      maxOutputBytes: 65_536,
      signal: controller.signal,
    });
    const first = interactions.request({ panel: "questions", document: DOCUMENT });
    controller.abort();
    await expect(first).resolves.toEqual({ status: "cancelled" });

    const other = setup();
    const bound = bindInteractionContext(other.service, other.call, { maxOutputBytes: 65_536 });
    const second = bound.request({ panel: "questions", document: DOCUMENT });
    bound.cancelPending();
    await expect(second).resolves.toEqual({ status: "cancelled" });
  });

  it.each(["closeContext", "settle", "abandon"] as const)(
    "cancels a request the handler did not await when the call's handler settles (%s)",
    async (end) => {
      const { service, call } = setup();
      const interactions = bindInteractionContext(service, call, { maxOutputBytes: 65_536 });
      const pending = interactions.request({ panel: "questions", document: DOCUMENT });
      call[end]();
      await expect(pending).resolves.toEqual({ status: "cancelled" });
    },
  );

  it("interrupts the request and rethrows when the view cannot be published", async () => {
    const { service, call, host, store, published, settled } = setup("sidebar");
    call.settle({ hasOtherContent: true });
    const filler = host.beginCall({ owner: "mcp/s/t", declarations: [], implicitPanels: true });
    for (let i = 0; i < 16; i++) {
      await filler.context.update(`p${i}`, { op: "replace", document: { blocks: [] } });
    }
    filler.settle({ hasOtherContent: true });
    const asking = host.beginCall({ owner: OWNER, declarations: [questions("sidebar")] });
    const interactions = bindInteractionContext(service, asking, { maxOutputBytes: 65_536 });
    expect(await failure(interactions.request({ panel: "questions", document: DOCUMENT }))).toEqual({
      code: "panel_limit",
      message: "this session already has 16 panels and none is closed",
    });
    expect(published).toHaveLength(1);
    const id = settled[0]?.identity.requestId ?? "";
    expect(id).toBe(published[0]?.identity.requestId);
    expect(store.get(undefined, id)).toMatchObject({
      state: "interrupted",
      canonicalResult: '{"status":"interrupted"}',
    });
  });
});
