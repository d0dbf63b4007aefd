import { connect, createServer, type Server, type Socket } from "node:net";
import { createInteractionService, type InteractionRecord } from "@raw/panel/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresInteractionStore, type PostgresInteractionStore } from "../src/index.js";
import { startCluster, type TestCluster } from "./pg-harness.js";

/**
 * A TCP relay on 127.0.0.1 in front of the cluster. `freezeListeners()` makes it stop forwarding, in both
 * directions, on every connection whose startup message names a listening connection (`raw-listen-`), without
 * closing anything: what a NAT or a firewall that forgot the connection does. New connections are forwarded.
 */
async function startRelay(target: number) {
  const frozen = new Set<Socket>();
  const listeners = new Set<Socket>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(target, "127.0.0.1");
    sockets.add(inbound);
    sockets.add(outbound);
    for (const socket of [inbound, outbound]) socket.on("error", () => {});
    inbound.on("data", (chunk) => {
      if (chunk.includes("raw-listen-")) listeners.add(inbound);
      if (!frozen.has(inbound)) outbound.write(chunk);
    });
    outbound.on("data", (chunk) => {
      if (!frozen.has(inbound)) inbound.write(chunk);
    });
    inbound.on("close", () => outbound.destroy());
    outbound.on("close", () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    freezeListeners() {
      for (const socket of listeners) frozen.add(socket);
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

let cluster: TestCluster;
let relay: Awaited<ReturnType<typeof startRelay>>;
const stores: PostgresInteractionStore[] = [];
beforeAll(async () => {
  cluster = await startCluster();
  relay = await startRelay(cluster.port);
}, 60_000);
afterAll(async () => {
  for (const store of stores) await store.close();
  relay?.close();
  cluster?.stop();
});

describe("LISTEN liveness", () => {
  it("a silently dropped listening connection is detected and replaced: an answer wakes its waiter within 5 s", async () => {
    const schema = "live_0";
    const waiter = await openPostgresInteractionStore({
      connectionString: `postgres://postgres@127.0.0.1:${relay.port}/postgres`,
      schema,
      sweepIntervalMs: 0,
    });
    const answerer = await openPostgresInteractionStore({
      connectionString: cluster.url,
      schema,
      sweepIntervalMs: 0,
    });
    stores.push(waiter, answerer);
    expect(waiter.listening).toBe(true);
    const service = createInteractionService({ interactive: true, store: waiter, sessionId: "s1" });
    let published: InteractionRecord | undefined;
    service.subscribe((event) => {
      if (event.type === "published") published = event.request;
    });
    const result = service.request({
      owner: "tools/ask",
      declaration: {
        id: "q",
        title: "Q",
        icon: "file-text",
        open: "never",
        context: "none",
        placement: "sidebar",
        acp_plan: false,
        actions: [
          {
            id: "submit",
            label: "Send",
            scope: "block",
            kind: "response",
            response: "submit",
            blocks: ["form"],
          },
          { id: "cancel", label: "Cancel", scope: "block", kind: "response", response: "cancel" },
        ],
      },
      panel: "q",
      document: {
        title: "Q",
        blocks: [{ id: "form", kind: "form", fields: [{ id: "notes", label: "N", kind: "text" }] }],
      },
      timeout_ms: 30_000,
      maxOutputBytes: 65_536,
    });
    result.catch(() => {});
    while (published === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    const requestId = (published as InteractionRecord).identity.requestId;
    const states: boolean[] = [];
    const watch = setInterval(() => states.push(waiter.listening), 20);
    relay.freezeListeners();
    const frozenAt = performance.now();
    const other = createInteractionService({ interactive: true, store: answerer, sessionId: "s1" });
    const ack = await other.submit({
      requestId,
      expectedRevision: 1,
      idempotencyKey: "k",
      response: "submit",
      answers: { notes: "after the drop" },
    });
    const storedAt = performance.now();
    expect(ack).toMatchObject({ state: "answered" });
    const outcome = await Promise.race([
      result.then((value) => ({ value, ms: performance.now() - storedAt })),
      new Promise((resolve) => setTimeout(() => resolve("not woken within 10 s"), 10_000)),
    ]);
    clearInterval(watch);
    console.log(
      `woken ${JSON.stringify(outcome)} after the answer was stored (frozen ${Math.round(storedAt - frozenAt)} ms before)`,
    );
    expect(outcome).toMatchObject({ value: { status: "answered", answers: { notes: "after the drop" } } });
    expect((outcome as { ms: number }).ms).toBeLessThan(5_000);
    // It said so while it was not listening, and listens again.
    expect(states).toContain(false);
    const until = Date.now() + 5_000;
    while (!waiter.listening && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(waiter.listening).toBe(true);
  }, 30_000);
});
