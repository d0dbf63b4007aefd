import { type ChildProcess, spawn } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MCP_CODES } from "./codes.js";
import { parseJsonRpcMessage } from "./jsonrpc-message.js";
import { signalSession } from "./kill-session.js";
import { MCP_CLOSE_GRACE_MS, MCP_MAX_MESSAGE_BYTES } from "./limits.js";

/** How a stdio MCP server is started. */
export interface ProcessTransportOptions {
  /** The executable (no shell). */
  command: string;
  /** Its arguments. */
  args?: readonly string[] | undefined;
  /** The environment (default: this process's environment). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Working directory (default: this process's). */
  cwd?: string | undefined;
  /** The server's stderr: inherited (default), ignored, or handed to a callback line by line. */
  stderr?: "inherit" | "ignore" | ((text: string) => void) | undefined;
  /** Largest message read (default `MCP_MAX_MESSAGE_BYTES`). */
  maxMessageBytes?: number | undefined;
  /** How long close waits for a voluntary exit before signals (default `MCP_CLOSE_GRACE_MS`). */
  closeGraceMs?: number | undefined;
  /** Observer of every message sent and received (tracing, tests); exceptions are ignored. */
  observe?: ((direction: "send" | "receive", message: JSONRPCMessage) => void) | undefined;
}

const NEWLINE = 0x0a;

/**
 * The `data` objects of the errors this transport made itself (an oversized or malformed message): only these carry
 * a Raw code to the mount. A server's own error `data` is parsed JSON, never one of these objects.
 */
const ownFailures = new WeakSet<object>();

/** The Raw code of a JSON-RPC error this transport made itself (`data` of its error), else undefined. */
export function transportFailureCode(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null || !ownFailures.has(data)) return undefined;
  const code = (data as { rawCode?: unknown }).rawCode;
  return typeof code === "string" ? code : undefined;
}
/** Bytes kept from each end of an oversized or malformed line, to find its request id. */
const EDGE_BYTES = 512;
const ID_PATTERN = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/;

function findId(text: string): string | number | undefined {
  const match = ID_PATTERN.exec(text);
  if (match === null) return undefined;
  try {
    return JSON.parse(match[1] as string) as string | number;
  } catch {
    return undefined;
  }
}

/**
 * A stdio transport for the MCP SDK client that starts the server as the leader of a new session, bounds every
 * message, and on `close()` (or when the server exits) kills every process left in that session, so no child
 * outlives the mount. An oversized or malformed response is turned into a JSON-RPC error for its request id (so
 * that call fails at once with `mcp_message_too_large` / `mcp_invalid_result`); the connection stays usable.
 */
export class ProcessTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  readonly #options: ProcessTransportOptions;
  readonly #max: number;
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #chunks: Buffer[] = [];
  #size = 0;
  #skipping = false;
  #skipHead = "";
  #skipTail: Buffer = Buffer.alloc(0);
  #closed = false;

  constructor(options: ProcessTransportOptions) {
    this.#options = options;
    this.#max = options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES;
  }

  /** The server's pid while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#child !== undefined) return Promise.reject(new Error("ProcessTransport already started"));
    const { command, args = [], env, cwd, stderr } = this.#options;
    return new Promise<void>((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: (env ?? process.env) as NodeJS.ProcessEnv,
        cwd,
        stdio: [
          "pipe",
          "pipe",
          stderr === "ignore" ? "ignore" : typeof stderr === "function" ? "pipe" : "inherit",
        ],
        // A new session: close() finds and kills every process the server started.
        detached: true,
        shell: false,
        windowsHide: true,
      });
      this.#child = child;
      this.#exited = new Promise<void>((done) => child.once("close", () => done()));
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => resolve());
      // The server is gone: nothing it started may outlive it (a grandchild holding stdout open included).
      child.once("exit", () => {
        if (child.pid !== undefined) signalSession(child.pid, "SIGKILL");
      });
      child.once("close", () => {
        this.#child = undefined;
        this.onclose?.();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => this.#read(chunk));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      if (typeof stderr === "function" && child.stderr) {
        child.stderr.setEncoding("utf8");
        child.stderr.on("data", (text: string) => {
          try {
            stderr(text);
          } catch {
            // An observer's failure is not the server's.
          }
        });
      }
    });
  }

  #read(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (this.#skipping) {
        this.#skipTail = Buffer.concat([this.#skipTail, piece]).subarray(-EDGE_BYTES);
      } else if (this.#size + piece.length > this.#max) {
        const head = Buffer.concat([...this.#chunks, piece.subarray(0, EDGE_BYTES)]).subarray(0, EDGE_BYTES);
        this.#skipHead = head.toString("utf8");
        this.#skipTail = piece.subarray(-EDGE_BYTES);
        this.#chunks = [];
        this.#size = 0;
        this.#skipping = true;
      } else if (piece.length > 0) {
        this.#chunks.push(piece);
        this.#size += piece.length;
      }
      if (nl === -1) break;
      if (this.#skipping) {
        this.#skipping = false;
        const id = findId(this.#skipHead) ?? findId(this.#skipTail.toString("utf8"));
        this.#fail(id, MCP_CODES.messageTooLarge, `message from the server exceeds ${this.#max} bytes`);
      } else {
        const line = Buffer.concat(this.#chunks).toString("utf8");
        this.#chunks = [];
        this.#size = 0;
        this.#deliver(line);
      }
      start = nl + 1;
    }
  }

  #deliver(line: string): void {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.#fail(findId(text.slice(0, EDGE_BYTES)), MCP_CODES.invalidResult, "malformed JSON-RPC message");
      return;
    }
    const checked = parseJsonRpcMessage(parsed);
    if (!checked.ok) {
      const id = typeof parsed === "object" && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
      this.#fail(
        typeof id === "string" || typeof id === "number" ? id : undefined,
        MCP_CODES.invalidResult,
        "invalid JSON-RPC message",
      );
      return;
    }
    this.#observe("receive", checked.message);
    this.onmessage?.(checked.message);
  }

  /** Fails the request `id` (when known) with a JSON-RPC error carrying `code`; reports the problem either way. */
  #fail(id: string | number | undefined, code: string, message: string): void {
    this.onerror?.(Object.assign(new Error(`${code}: ${message}`), { code }));
    if (id === undefined) return;
    const data = { rawCode: code };
    ownFailures.add(data);
    const response: JSONRPCMessage = {
      jsonrpc: "2.0",
      id,
      error: { code: -32603, message: `${code}: ${message}`, data },
    };
    this.onmessage?.(response);
  }

  #observe(direction: "send" | "receive", message: JSONRPCMessage): void {
    try {
      this.#options.observe?.(direction, message);
    } catch {
      // Observers never change the traffic.
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (this.#closed || !stdin || stdin.destroyed) {
      return Promise.reject(Object.assign(new Error("not connected"), { code: MCP_CODES.connectionClosed }));
    }
    this.#observe("send", message);
    return new Promise<void>((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const child = this.#child;
    const exited = this.#exited;
    if (child === undefined || exited === undefined || child.pid === undefined) return;
    const pid = child.pid;
    const wait = (ms: number) => Promise.race([exited, new Promise<void>((r) => setTimeout(r, ms).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // Already closed.
    }
    await wait(this.#options.closeGraceMs ?? MCP_CLOSE_GRACE_MS);
    if (child.exitCode === null && child.signalCode === null) {
      signalSession(pid, "SIGTERM");
      await wait(200);
    }
    // Whatever is left in the session (the server, or anything it started) goes now.
    signalSession(pid, "SIGKILL");
    await wait(1_000);
    this.#chunks = [];
  }
}
