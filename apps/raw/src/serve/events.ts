import type { ServerResponse } from "node:http";

import type { WebState, WireEvent } from "./wire.js";

/** One event of the page's stream: a type and its JSON data, as `wire.ts` declares them. */
export type PageEvent = WireEvent;

/** Longest an event stream stays silent before a comment keeps it open. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * The Server-Sent Events fan-out of `raw serve`: each open stream gets every event in order with an increasing
 * id. A stream whose client went away is dropped; a slow client never blocks the others (the socket buffers).
 */
export class EventHub {
  private readonly streams = new Set<ServerResponse>();
  private sequence = 0;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => {
      for (const stream of this.streams) stream.write(": keep-alive\n\n");
    }, KEEP_ALIVE_MS);
    this.timer.unref();
  }

  /** Opens a stream on a response: headers, then a `hello` event with the state the page starts from. */
  open(res: ServerResponse, headers: Record<string, string>, hello: WebState): void {
    res.writeHead(200, {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      connection: "keep-alive",
    });
    res.write("retry: 1000\n\n");
    this.streams.add(res);
    res.on("close", () => this.streams.delete(res));
    this.write(res, { type: "hello", data: hello });
  }

  /** Sends an event to every open stream. */
  send(event: PageEvent): void {
    for (const stream of this.streams) this.write(stream, event);
  }

  /** How many streams are open. */
  get size(): number {
    return this.streams.size;
  }

  private write(stream: ServerResponse, event: PageEvent): void {
    this.sequence += 1;
    // JSON never holds a raw line break, so one data line carries the whole event.
    stream.write(`id: ${this.sequence}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
  }

  /** Ends every stream. */
  close(): void {
    clearInterval(this.timer);
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }
}
