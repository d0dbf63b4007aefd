import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { parseJsonRpcMessage } from "./jsonrpc-message.js";
import { MCP_STDIO_MAX_BUFFER_BYTES } from "./limits.js";

const NEWLINE = 0x0a;

/** One line of input as the SDK's stdio transport decodes it: JSON, then a JSON-RPC message (or a throw). */
function decode(line: string): JSONRPCMessage {
  const value: unknown = JSON.parse(line);
  const checked = parseJsonRpcMessage(value);
  // Not a message: the SDK's own parse throws its own error.
  return checked.ok ? checked.message : JSONRPCMessageSchema.parse(value);
}

/**
 * The server side of MCP over stdio (this process's stdin and stdout by default), for the SDK `Server`: the SDK's
 * `StdioServerTransport`, line for line (newline-delimited JSON, a trailing `\r` dropped, at most
 * `MCP_STDIO_MAX_BUFFER_BYTES` unread; a line that is not a JSON-RPC message is reported to `onerror` with the
 * SDK's error and skipped; overflow reports and closes), except that each message is checked with
 * `parseJsonRpcMessage` (the SDK's outcome, with a plain request taking no schema run) instead of the whole union.
 */
export class ServerStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #max: number;
  #buffer: Buffer | undefined;
  #started = false;

  constructor(
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
    options: { maxBufferBytes?: number | undefined } = {},
  ) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#max = options.maxBufferBytes ?? MCP_STDIO_MAX_BUFFER_BYTES;
  }

  readonly #ondata = (chunk: Buffer): void => {
    const size = (this.#buffer?.length ?? 0) + chunk.length;
    if (size > this.#max) {
      this.#buffer = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${this.#max} bytes`));
      this.close().catch(() => undefined);
      return;
    }
    this.#buffer = this.#buffer === undefined ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const buffer: Buffer | undefined = this.#buffer;
      const nl = buffer === undefined ? -1 : buffer.indexOf(NEWLINE);
      if (buffer === undefined || nl === -1) return;
      const line = buffer.toString("utf8", 0, nl).replace(/\r$/, "");
      this.#buffer = buffer.subarray(nl + 1);
      let message: JSONRPCMessage;
      try {
        message = decode(line);
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      try {
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  };

  readonly #onerror = (error: Error): void => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    if (this.#started) throw new Error("ServerStdioTransport already started");
    this.#started = true;
    this.#stdin.on("data", this.#ondata);
    this.#stdin.on("error", this.#onerror);
  }

  async close(): Promise<void> {
    this.#stdin.off("data", this.#ondata);
    this.#stdin.off("error", this.#onerror);
    // Pause stdin only when nothing else reads it.
    if (this.#stdin.listenerCount("data") === 0) this.#stdin.pause();
    this.#buffer = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once("drain", () => resolve());
    });
  }
}
