import { createMemoryInteractionStore, type InteractionStore } from "../src/host-entry.js";
import { defineInteractionStoreConformance } from "../src/testing.js";

defineInteractionStoreConformance("memory", () => createMemoryInteractionStore());

defineInteractionStoreConformance("memory behind promises", () => {
  const inner = createMemoryInteractionStore();
  const store: InteractionStore = {
    create: async (record) => inner.create(record),
    get: async (sessionId, requestId) => inner.get(sessionId, requestId),
    settle: async (sessionId, requestId, settle) => inner.settle(sessionId, requestId, settle),
    interruptPending: async (owner) => inner.interruptPending(owner),
    watch: async (sessionId, requestId, listener) => inner.watch(sessionId, requestId, listener),
  };
  return store;
});
