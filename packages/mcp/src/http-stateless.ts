import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Most 2026-07-28 requests over HTTP answered at once (each holds one HTTP exchange); past it, 503. */
export const MAX_MCP_HTTP_STATELESS_REQUESTS = 256;

/** A 2026-07-28 message as admitted (`readSessionlessRequest`): one object with a method, an `id` for a request. */
export interface StatelessMessage {
  readonly id?: string | number | undefined;
  readonly method: string;
  readonly [key: string]: unknown;
}

/**
 * The one transport behind every 2026-07-28 request over HTTP (amendment A11: no session, the envelope in each
 * request's `_meta`). Each request gets an id of this channel's own (clients' ids may collide) and its response is
 * handed back under the client's id; a request whose HTTP exchange ends first is cancelled
 * (`notifications/cancelled`, so the call's signal aborts). Server-initiated requests and notifications have no
 * stream to go to in this revision and are dropped; nothing is kept for an answered or abandoned request.
 */
export class StatelessChannel implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  readonly #pending = new Map<number, (message: JSONRPCMessage | undefined) => void>();
  #next = 0;
  #closed = false;

  /** Requests waiting for their response. */
  get inFlight(): number {
    return this.#pending.size;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!("id" in message) || "method" in message) return;
    const id = Number(message.id);
    const done = this.#pending.get(id);
    if (done === undefined) return;
    this.#pending.delete(id);
    done(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const done of this.#pending.values()) done(undefined);
    this.#pending.clear();
    this.onclose?.();
  }

  /**
   * Delivers `message` to the server. A request resolves to its response under the client's id, or `undefined`
   * when `signal` aborted first or the channel closed; a notification resolves at once to `undefined`.
   */
  exchange(message: StatelessMessage, signal: AbortSignal): Promise<JSONRPCMessage | undefined> {
    if (this.#closed || signal.aborted) return Promise.resolve(undefined);
    if (message.id === undefined) {
      // A notification of this revision (for example `notifications/cancelled` of a request on another exchange:
      // the ids are this channel's own, so it cannot name one) has nothing to answer.
      return Promise.resolve(undefined);
    }
    const clientId = message.id;
    const id = ++this.#next;
    const answer = new Promise<JSONRPCMessage | undefined>((resolve) => this.#pending.set(id, resolve));
    const abandon = () => {
      const done = this.#pending.get(id);
      if (done === undefined) return;
      this.#pending.delete(id);
      done(undefined);
      this.onmessage?.({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id, reason: "the HTTP request ended" },
      });
    };
    signal.addEventListener("abort", abandon, { once: true });
    this.onmessage?.({ ...message, jsonrpc: "2.0", id } as JSONRPCMessage);
    return answer.then((response) => {
      signal.removeEventListener("abort", abandon);
      return response === undefined ? undefined : ({ ...response, id: clientId } as JSONRPCMessage);
    });
  }
}
